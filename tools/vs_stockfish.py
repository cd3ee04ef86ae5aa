#!/usr/bin/env python3
"""Play `chesskit uci` against Stockfish and report the score (issue 27).

Each engine gets the same time a move (200 ms by default, `go movetime`),
colours alternate game by game, and Stockfish plays at a limited strength
(`UCI_LimitStrength` true, `UCI_Elo` N) or at a `Skill Level`. Prints each
result as it comes, then chesskit's score with a 95% interval, and writes
every game to a PGN file.

    python3 tools/vs_stockfish.py --chesskit target/release/chesskit \
        --elo 2000 --games 20 --pgn /tmp/vs_stockfish.pgn

Needs python-chess (`pip install chess`) and Stockfish (Debian's package
installs /usr/games/stockfish, version 15.1). See docs/dev/vs-stockfish.md.
"""

import argparse
import sys

import chess
import chess.engine
import chess.pgn

from match_score import interval


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chesskit", default="target/release/chesskit", help="the chesskit binary (run as `chesskit uci`)")
    parser.add_argument("--stockfish", default="/usr/games/stockfish", help="the Stockfish binary")
    parser.add_argument("--games", type=int, default=20, help="games to play (colours alternate)")
    parser.add_argument("--elo", type=int, default=2000, help="Stockfish's UCI_Elo (UCI_LimitStrength on)")
    parser.add_argument("--skill", type=int, help="Stockfish's Skill Level instead of UCI_Elo")
    parser.add_argument("--movetime", type=float, default=0.2, help="seconds a move, each engine")
    parser.add_argument("--max-plies", type=int, default=400, help="plies before a game is called a draw")
    parser.add_argument("--pgn", default="vs_stockfish.pgn", help="where the games are written")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.movetime <= 0:
        parser.error("--movetime must be positive")
    return args


def stockfish_options(args):
    if args.skill is not None:
        return {"Skill Level": args.skill}
    return {"UCI_LimitStrength": True, "UCI_Elo": args.elo}


def play_game(white, black, names, args, round_number):
    """One game from the start; returns the PGN game and its result token."""
    board = chess.Board()
    engines = {chess.WHITE: white, chess.BLACK: black}
    limit = chess.engine.Limit(time=args.movetime)
    while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
        result = engines[board.turn].play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            # A missing or illegal move loses the game for the side that made it.
            token = "0-1" if board.turn == chess.WHITE else "1-0"
            return record(board, names, round_number, token, f"illegal move {result.move}"), token
        board.push(result.move)
    token = board.result(claim_draw=True)
    if token == "*":
        token = "1/2-1/2"  # the ply limit
    return record(board, names, round_number, token, None), token


def record(board, names, round_number, token, comment):
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "chesskit vs Stockfish"
    game.headers["Round"] = str(round_number)
    game.headers["White"], game.headers["Black"] = names
    game.headers["Result"] = token
    if comment:
        game.comment = comment
    return game


def chesskit_points(token, chesskit_white):
    white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[token]
    return white if chesskit_white else 1.0 - white


def main():
    args = arguments()
    opponent = f"Stockfish ({'Skill ' + str(args.skill) if args.skill is not None else 'Elo ' + str(args.elo)})"
    chesskit = chess.engine.SimpleEngine.popen_uci([args.chesskit, "uci"])
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    points = []
    try:
        stockfish.configure(stockfish_options(args))
        with open(args.pgn, "w", encoding="utf-8") as pgn:
            for n in range(args.games):
                chesskit_white = n % 2 == 0
                white, black = (chesskit, stockfish) if chesskit_white else (stockfish, chesskit)
                names = ("chesskit", opponent) if chesskit_white else (opponent, "chesskit")
                game, token = play_game(white, black, names, args, n + 1)
                print(game, file=pgn, end="\n\n", flush=True)
                points.append(chesskit_points(token, chesskit_white))
                print(f"game {n + 1}: {names[0]} - {names[1]} {token}", flush=True)
    finally:
        chesskit.quit()
        stockfish.quit()
    mean, low, high = interval(points)
    print(f"chesskit scored {sum(points):g} of {len(points)} against {opponent}: "
          f"{100 * mean:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
