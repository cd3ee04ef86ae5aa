#!/usr/bin/env python3
"""Play a new chesskit binary's computer against an old one's (issue 27).

Both binaries run `chesskit referee` (docs/protocol.md). Each game is
created in both referees alike (`new` with the same variant, seed and
options); at each decision the binary that plays the seat to act chooses
(`think` with the level and `ms`, in its own referee), the choice is
played in both referees (`act`), and the two must agree on what follows
(`over`, `to_act`, `outcome`). So no old player has to live in the
product: the old binary is simply the old build.

Sides are the seats' teams (`team` in the `new` answer), else the seats
themselves; every seat of a side is played by the same binary. The new
binary plays side 0 in the first game, side 1 in the second, and so on;
consecutive games share a seed, so each deal is played from every side.
Games whose rules deal nothing at random (Adrenaline, Crowded House)
would otherwise be the same two games over and over, both computers
being deterministic at a given budget: `--random-opening K` plays the
first K actions at random among the legal ones (table actions such as
`resign` left out), drawn from the deal's seed, so that each deal is a
different opening, still played from every side.

A game with one side only (Cooperative Chess 2: the team plays against
the game) is played by each binary alone on the same seed, and the pair
scores 1 to the binary whose team did better (a win, then more points),
0.5 each if equal.

    python3 tools/vs_old.py --old /work/wt/base27/target/release/chesskit \
        --new target/release/chesskit --variant gravity --games 40

Prints each game's result as it comes, then the new binary's score with a
95% interval, and the errors. See docs/dev/engine-speed.md.
"""

import argparse
import json
import random
import subprocess
import sys
from dataclasses import dataclass, field

from match_score import interval

NEW, OLD = "new", "old"


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the old chesskit binary")
    parser.add_argument("--new", default="target/release/chesskit", help="the new chesskit binary")
    parser.add_argument("--variant", required=True, help="the variant's name (`chesskit referee`, `variants`)")
    parser.add_argument("--games", type=int, default=40, help="games to play (sides rotate game by game)")
    parser.add_argument("--level", default="level8", help="both computers' level (`think`'s `level`)")
    parser.add_argument("--ms", type=int, help="milliseconds a decision, both (`think`'s `ms`); default: the level's own")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed; each deal's seed follows")
    parser.add_argument("--options", default="{}", help="the variant's options as a JSON object, e.g. '{\"clock\":30}'")
    parser.add_argument("--max-actions", type=int, default=1000, help="actions before a game is called a draw")
    parser.add_argument("--random-opening", type=int, default=0, metavar="K",
                        help="the first K actions of each game are chosen at random from the deal's seed (default 0)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.random_opening < 0:
        parser.error("--random-opening must be 0 or more")
    if args.ms is not None and not 1 <= args.ms <= 60000:
        parser.error("--ms must be 1 to 60000 (docs/protocol.md, `think`)")
    try:
        args.options = json.loads(args.options)
    except json.JSONDecodeError as error:
        parser.error(f"--options is not JSON: {error}")
    if not isinstance(args.options, dict):
        parser.error("--options must be a JSON object")
    return args


class RefereeError(Exception):
    """A referee that died or answered what is not a JSON line."""


class Referee:
    """One `chesskit referee` process: a JSON request a line, an answer a line."""

    def __init__(self, binary):
        self.binary = binary
        try:
            self.process = subprocess.Popen([binary, "referee"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as error:
            raise RefereeError(f"cannot run {binary} referee: {error}") from error

    def ask(self, **request):
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError as error:
            raise RefereeError(f"{self.binary} referee has gone: {error}") from error
        line = self.process.stdout.readline()
        if not line:
            raise RefereeError(f"{self.binary} referee has gone (exit {self.process.poll()})")
        try:
            return json.loads(line)
        except json.JSONDecodeError as error:
            raise RefereeError(f"{self.binary} referee answered {line[:200]!r}: {error}") from error

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


@dataclass
class Game:
    """One game's result: the outcome, or why it was stopped."""
    number: int
    seed: int
    players: dict  # seat -> NEW or OLD
    start_state: dict = None  # the `new` answer
    outcome: dict = None
    actions: int = 0
    error: str = None
    forfeit: str = None  # the binary that lost by a bad answer
    notes: list = field(default_factory=list)


def sides_of(seats):
    """Each seat's side: its team where the game has teams, else the seat itself."""
    return [seat.get("team", index) for index, seat in enumerate(seats)]


def same_state(a, b):
    keys = ("ok", "over", "to_act", "outcome")
    return all(a.get(key) == b.get(key) for key in keys)


def start(referees, args, seed):
    """`new` in both referees; returns the new binary's answer, or raises on a mismatch."""
    request = dict(cmd="new", variant=args.variant, seed=seed, options=args.options)
    answers = {name: referee.ask(**request) for name, referee in referees.items()}
    for name, answer in answers.items():
        if not answer.get("ok"):
            raise RefereeError(f"{name} binary refused `new`: {answer.get('error')}")
    # Seats are compared by their sides alone: a newer build may describe them more fully.
    same_sides = sides_of(answers[NEW]["seats"]) == sides_of(answers[OLD]["seats"])
    if not same_state(answers[NEW], answers[OLD]) or not same_sides:
        raise RefereeError(f"the binaries start {args.variant} seed {seed} differently: "
                           f"new {answers[NEW]}, old {answers[OLD]}")
    return answers[NEW]


def think_request(seat, args, seed):
    request = dict(cmd="think", seat=seat, level=args.level, seed=seed)
    if args.ms is not None:
        request["ms"] = args.ms
    return request


# Actions of the table, not of the game's rules: never chosen for a random opening.
TABLE_ACTIONS = ("resign", "offer draw", "accept draw", "decline draw", "abort", "say")


def random_action(referees, seat, opening):
    """A legal action of `seat` drawn by `opening` (table actions left out), or None if it has none."""
    answer = referees[NEW].ask(cmd="legal", seat=seat)
    if not answer.get("ok"):
        raise RefereeError(f"the new binary cannot list seat {seat}'s actions: {answer.get('error')}")
    actions = [a for a in answer["actions"] if not any(a == t or a.startswith(t + " ") for t in TABLE_ACTIONS)]
    return opening.choice(actions) if actions else None


def play(referees, game, args):
    """Plays `game` to its end, or to the first error, filling in its result."""
    state = game.start_state
    # The same opening for every game of a deal: the deal's seed draws it.
    opening = random.Random(game.seed)
    while not state["over"]:
        if game.actions >= args.max_actions:
            game.notes.append(f"called a draw after {args.max_actions} actions")
            return
        seat = state["to_act"][0]
        player = game.players[seat]
        action = random_action(referees, seat, opening) if game.actions < args.random_opening else None
        if action is None:
            thought = referees[player].ask(**think_request(seat, args, game.seed))
            if not thought.get("ok"):
                game.forfeit = player
                game.error = f"{player} binary could not think for seat {seat}: {thought.get('error')}"
                return
            action = thought["action"]
        answers = {name: referee.ask(cmd="act", seat=seat, action=action) for name, referee in referees.items()}
        if not answers[player].get("ok"):
            game.forfeit = player
            game.error = f"{player} binary chose {action!r} for seat {seat}, which its referee refused: {answers[player].get('error')}"
            return
        if not same_state(answers[NEW], answers[OLD]):
            game.error = f"the referees disagree after seat {seat} played {action!r}: new {answers[NEW]}, old {answers[OLD]}"
            return
        game.actions += 1
        state = answers[NEW]
    game.outcome = state["outcome"]


def two_sided_points(game):
    """The new binary's points in a game against the old one: 1, 0.5 or 0."""
    sides = sides_of(game.start_state["seats"])
    if game.forfeit:
        return 0.0 if game.forfeit == NEW else 1.0
    if game.outcome is None:
        return 0.5  # the action limit
    winners = {sides[seat] for seat in game.outcome["winners"]}
    new_sides = {sides[seat] for seat, player in game.players.items() if player == NEW}
    if not winners:
        return 0.5
    return 1.0 if winners & new_sides else 0.0


def team_result(game):
    """How well a lone side did, to compare: (won, points); a forfeit is the worst."""
    if game.forfeit:
        return (-1, float("-inf"))
    if game.outcome is None:
        return (0, float("-inf"))
    scores = game.outcome.get("scores") or [0]
    return (1 if game.outcome["winners"] else 0, max(scores))


def describe(game):
    who = " ".join(f"{seat}:{player}" for seat, player in sorted(game.players.items()))
    if game.error:
        what = f"error: {game.error}"
    elif game.outcome is None:
        what = "draw by the action limit"
    else:
        what = f"winners {game.outcome['winners']} ({game.outcome['reason']})"
        if game.outcome.get("scores") is not None:
            what += f", scores {game.outcome['scores']}"
    return f"game {game.number} seed {game.seed} seats {who}, {game.actions} actions: {what}"


def run_game(referees, args, number, deal_size, players_for):
    seed = args.seed + number // deal_size
    game = Game(number=number + 1, seed=seed, players={})
    try:
        game.start_state = start(referees, args, seed)
        seats = game.start_state["seats"]
        game.players = players_for(sides_of(seats), number)
        play(referees, game, args)
    except RefereeError as error:
        game.error = str(error)
    print(describe(game), flush=True)
    return game


def rotating_players(sides, number):
    """The new binary plays one side, in turn game by game; the old one the rest."""
    distinct = sorted(set(sides))
    new_side = distinct[number % len(distinct)]
    return {seat: NEW if side == new_side else OLD for seat, side in enumerate(sides)}


def alone_players(sides, number):
    """One binary plays every seat: the new one in even games, the old in odd."""
    player = NEW if number % 2 == 0 else OLD
    return {seat: player for seat in range(len(sides))}


def side_count(referees, args):
    """The variant's number of sides, once both binaries have shown they
    can start it and think at `--level` (a bad level or option stops the
    match here rather than forfeiting every game)."""
    state = start(referees, args, args.seed)
    if not state["over"]:
        for name, referee in referees.items():
            thought = referee.ask(**think_request(state["to_act"][0], args, args.seed))
            if not thought.get("ok"):
                raise RefereeError(f"the {name} binary cannot think: {thought.get('error')}")
    return len(set(sides_of(state["seats"])))


def two_sided_match(referees, args, side_total):
    points, errors = [], []
    for number in range(args.games):
        game = run_game(referees, args, number, side_total, rotating_players)
        if game.error and not game.forfeit:
            errors.append(describe(game))
            continue
        if game.forfeit:
            errors.append(describe(game))
        points.append(two_sided_points(game))
    return points, errors


def lone_side_match(referees, args):
    points, errors = [], []
    for pair in range(args.games // 2 or 1):
        new_game = run_game(referees, args, 2 * pair, 2, alone_players)
        old_game = run_game(referees, args, 2 * pair + 1, 2, alone_players)
        broken = [g for g in (new_game, old_game) if g.error]
        errors.extend(describe(g) for g in broken)
        if any(not g.forfeit for g in broken):
            continue
        new, old = team_result(new_game), team_result(old_game)
        points.append(1.0 if new > old else 0.5 if new == old else 0.0)
        print(f"deal seed {new_game.seed}: new {new}, old {old}: new scores {points[-1]:g}", flush=True)
    return points, errors


def main():
    args = arguments()
    referees = {}
    try:
        referees[NEW], referees[OLD] = Referee(args.new), Referee(args.old)
        sides = side_count(referees, args)
        if sides == 1:
            points, errors = lone_side_match(referees, args)
            unit = "deals (each played by each binary alone)"
        else:
            points, errors = two_sided_match(referees, args, sides)
            unit = "games"
    except RefereeError as error:
        print(f"vs_old: {error}", file=sys.stderr)
        return 2
    finally:
        for referee in referees.values():
            referee.close()
    print(f"errors: {len(errors)}")
    for error in errors:
        print(f"  {error}")
    if not points:
        print("no game was scored")
        return 1
    mean, low, high = interval(points)
    print(f"{args.variant}, {args.level}{f', {args.ms} ms' if args.ms else ''}: the new binary scored "
          f"{sum(points):g} of {len(points)} {unit}: {100 * mean:.1f}% "
          f"(95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
