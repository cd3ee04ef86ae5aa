//! Perft: the leaves of the tree of actions to a depth, each card played,
//! chess move (with its cards) and turn end one ply; the move-generation
//! measure of the benchmark (docs/dev/cooperative2-tuning.md, "Move
//! generation").
//!
//! One ply above the leaves a position's steps are counted, not listed.
//! Two plies above them, in the two-seat game, no copy of the game is
//! made (promotions aside): a chess step has as many leaves as the steps
//! open after it plus the end of the turn, or, when it opens none and the
//! turn ends by itself, as many as the next player has cards to play,
//! which come from the cards alone (the draw worked out from the pile),
//! the same for every step of a position. Whether a step opens a capture
//! is first asked of [`CaptureTest`] (bitboards, no copy); the steps it
//! opens are counted on a copy of the board and the line only, by the
//! same functions step 3 uses ([`legal_captures_with`], [`LineFacts`]),
//! knowing that no check stands after a legal move.
//! Three plies above them, a step that opens captures is made on a copy
//! of the board alone ([`light_step_three`]). Every card of the hand is
//! walked, even two that stand for the same piece: a perft that skipped
//! one by symmetry would no longer measure move generation.
//! At step 1 the board's legal moves are listed once for all the cards
//! of the hand (a card changes the line, not the board), each card still
//! played and counted with its own line ([`leaves_after_card`] one ply
//! below it: captures tallied by pair, [`PairTally`]).
//! The solitaire's next turn starts with a card drawn to the line and is
//! walked on copies. The tests check all of it against counting the
//! public legal actions applied one by one.

use chesskit_core::cards::Card;
use chesskit_core::chess::{Move, MoveList, Position, Role};

use super::captures::{
    capture_steps_on, legal_captures_with, CaptureTest, Checks, LineFacts, LinesWithCard, PairTally, QuietTest,
};
use super::{bits, index, open_ep_on, uci_of, ChessStep, Cooperative2Game, Step};

/// Count the leaves of the tree of actions to `depth` (each card played,
/// chess move and turn end is one ply), on copies that keep no story.
pub fn perft(game: &Cooperative2Game, depth: u32) -> u64 {
    let mut quiet = game.clone();
    quiet.journal = None;
    let mut moves = MoveList::new();
    count(&quiet, depth, &mut moves)
}

/// [`perft`] of `game`; `moves` is scratch space.
fn count(game: &Cooperative2Game, depth: u32, moves: &mut MoveList) -> u64 {
    if game.outcome.is_some() {
        return 0;
    }
    if depth == 0 {
        return 1;
    }
    if game.step == Step::Play {
        // The cards of the hand, each once (as the legal actions list them).
        let hand = &game.hands[index(game.turn())];
        let cards = hand.iter().enumerate().filter(|&(i, card)| !hand[..i].contains(card)).map(|(_, &card)| card);
        if depth == 1 {
            return cards.count() as u64;
        }
        // Playing a card changes the hand and the line, not the board: the
        // board's chess moves are listed once for all the cards.
        let mut legal = MoveList::new();
        game.pos.legal_moves_into(&mut legal);
        let king_captures = game.king_captures_left_out(&legal);
        if depth == 2 {
            let mut split = SplitMoves { plain: 0, captures: PairTally::new(), promotions: MoveList::new() };
            for &m in &legal {
                match m {
                    Move::Normal { capture: None, promotion: None, .. } | Move::Castle { .. } | Move::Put { .. } => {
                        split.plain += 1
                    }
                    _ if split.captures.add(m) => {}
                    _ => split.promotions.push(m),
                }
            }
            let mut lines = LinesWithCard::new(&game.line, game.turn());
            return cards.map(|card| leaves_after_card(game, lines.with(card), &split, &king_captures)).sum();
        }
        let mut with_king_captures = MoveList::new();
        let mut lines = LinesWithCard::new(&game.line, game.turn());
        // The quiet moves' test of the board, by the pairs of the line.
        let mut quiet_test = None;
        return cards
            .map(|card| {
                let facts = lines.with(card);
                // Step 2's moves, as chess_moves_into lists them.
                let list: &[Move] = if facts.pairs == 0 || king_captures.is_empty() {
                    &legal
                } else {
                    with_king_captures.clear();
                    with_king_captures.extend(legal.iter().chain(&king_captures).copied());
                    &with_king_captures
                };
                if depth == 3 && !game.solitaire {
                    // Two plies below the card: counted on this game, the
                    // card played only where a promotion needs it.
                    let ended = turn_end_leaves_after_card(game, card);
                    let kept = Kept { quiet_test: Some(&mut quiet_test), after_quiet_steps: None };
                    return two_plies(game, Some(card), &game.pos, facts, list, ended, kept, moves);
                }
                let mut next = game.clone();
                next.play_card(card).expect("a card of the hand");
                count_moves(&next, facts, list, depth - 1, moves)
            })
            .sum();
    }
    let facts = game.line_facts();
    let mut list = MoveList::new();
    game.chess_moves_into(&facts, &mut list);
    count_moves(game, &facts, &list, depth, moves)
}

/// The legal moves of a board split by how their steps are counted:
/// `plain`, those that make one step whatever the line (quiet moves that
/// promote nothing, castling, as [`Cooperative2Game::steps_of_moves`]
/// counts them); `captures`, those that promote nothing, tallied by pair
/// of piece types; and the `promotions`.
struct SplitMoves {
    plain: u64,
    captures: PairTally,
    promotions: MoveList,
}

/// The leaves one ply below `card` played in `game` (step 1, two seats):
/// step 2's steps and the end of the turn, as [`count`] finds them on a
/// copy of the game after the card, from the legal moves of the board
/// listed once for all the cards (`split`). Step 2's moves after a card
/// are those and, when the line then allows some capture, the captures of
/// the enemy king they leave out (`king_captures`; as
/// [`Cooperative2Game::chess_moves_into`] lists them). Each is counted
/// with the cards of the line with `card` at its end, as
/// [`LineFacts::steps_of`] counts it ([`PairTally::steps`] for the
/// captures that promote nothing). The hands and the pile play no part in
/// it, and the discard pile (the pieces a pawn may become) is as it was:
/// a card played leaves it so.
fn leaves_after_card(game: &Cooperative2Game, facts: &LineFacts, split: &SplitMoves, king_captures: &[Move]) -> u64 {
    let promotable = |role| game.may_promote_to(role);
    let mut steps = split.plain + 1 + split.captures.steps(facts);
    for &m in &split.promotions {
        steps += facts.steps_of(m, promotable);
    }
    if facts.pairs != 0 {
        for &m in king_captures {
            steps += facts.steps_of(m, promotable);
        }
    }
    steps
}

/// [`count`] of a position of step 2 or 3 whose chess moves are `list`
/// and whose line reads as `facts`.
fn count_moves(game: &Cooperative2Game, facts: &LineFacts, list: &[Move], depth: u32, moves: &mut MoveList) -> u64 {
    match depth {
        // Every chess step, and the end of the turn.
        1 => game.steps_of_moves(facts, list) + 1,
        2 if !game.solitaire => two_plies(game, None, &game.pos, facts, list, turn_end_leaves(game), Kept::NONE, moves),
        _ => {
            let mut nodes = turn_end(game, depth - 1, moves);
            let mut steps = Vec::new();
            // What the steps share below them (the turn's end's leaves, the
            // capture tests after the steps that take nothing).
            let mut shared = Shared::new();
            // Two plies above the leaves, the quiet moves that open no
            // capture are told by the test two_plies uses.
            let mut quiet_test = None;
            for &m in list {
                let closes = match m {
                    Move::Normal { role, from, to, capture: None, promotion: None }
                        if depth == 3 && !game.solitaire =>
                    {
                        !quiet_test
                            .get_or_insert_with(|| QuietTest::new(&game.pos, facts.pairs, game.turn_ep))
                            .quiet_may_open(role, from, to)
                    }
                    _ => false,
                };
                match m {
                    Move::Normal { capture: None, promotion: None, .. } | Move::Castle { .. } => {
                        // One step, no cards (as steps_of_move lists it).
                        let step = ChessStep { uci: uci_of(m), captured_card: None, pawn_card: None, place: None };
                        nodes += after_step(game, facts, (step, m), depth - 1, closes, &mut shared, moves);
                        continue;
                    }
                    Move::Normal { role, capture: Some(victim), promotion: None, .. } => {
                        // One step per card the capture may discard, found
                        // from the line's facts (the cards capture_cards
                        // finds, as steps_of_move lists them).
                        for i in bits(facts.cards_of(role, victim)) {
                            let step = ChessStep {
                                uci: uci_of(m),
                                captured_card: Some(game.line[i]),
                                pawn_card: None,
                                place: None,
                            };
                            nodes += after_step(game, facts, (step, m), depth - 1, closes, &mut shared, moves);
                        }
                        continue;
                    }
                    _ => {}
                }
                steps.clear();
                game.steps_of_move(m, &mut steps);
                for &(step, m) in &steps {
                    nodes += after_step(game, facts, (step, m), depth - 1, closes, &mut shared, moves);
                }
            }
            nodes
        }
    }
}

/// What the steps of one position share below them, read at the first
/// step that needs it.
struct Shared {
    /// The leaves one ply below the end of the position's turn
    /// ([`turn_end_leaves`]): a step changes neither the hands nor the
    /// pile, so they are the same for every step.
    ended: Option<u64>,
    /// The capture tests of the line without a card, by its place (none
    /// where that line allows no capture), made on the board after some
    /// step that takes nothing (and promotes nothing), whose line is the
    /// position's. Such a step moves only pieces of the side to move, and
    /// none of their types leaves the board: the pieces to take, the types
    /// that take and the en passant square are those after any other such
    /// step; only the squares occupied differ ([`CaptureTest::on_board_of`]).
    quiet_tests: Vec<(usize, Option<CaptureTest>)>,
}

impl Shared {
    fn new() -> Shared {
        Shared { ended: None, quiet_tests: Vec::new() }
    }

    fn ended(ended: u64) -> Shared {
        Shared { ended: Some(ended), quiet_tests: Vec::new() }
    }
}

/// The leaves `depth` plies below step `step` (move `m`) of `game`, whose
/// line reads as `facts`: the step 3 that follows, or the next turn when
/// it opens nothing (known beforehand when `closes`: the test of
/// [`QuietTest::quiet_may_open`] said so). `shared` is what the steps of
/// `game` share ([`Shared`]).
///
/// Two plies above the leaves in the two-seat game, the step 3 that
/// follows a step that promotes nothing is counted without a copy of the
/// game ([`light_step_three`]); otherwise on a copy.
fn after_step(
    game: &Cooperative2Game,
    facts: &LineFacts,
    (step, m): (ChessStep, Move),
    depth: u32,
    closes: bool,
    shared: &mut Shared,
    moves: &mut MoveList,
) -> u64 {
    if m.capture() == Some(Role::King) {
        // The king is taken: the game is over.
        return 0;
    }
    let mut known_closed = closes;
    if !closes && depth == 2 && !game.solitaire && m.promotion().is_none() {
        match light_step_three(game, facts, step, m, shared, moves) {
            Some(Ok(nodes)) => return nodes,
            Some(Err(Closed)) => known_closed = true,
            None => {}
        }
    }
    let mut next = game.clone();
    if next.make_move(step, m) {
        return 0;
    }
    if known_closed {
        next.end_turn();
        return count(&next, depth, moves);
    }
    let facts = next.line_facts();
    let mut list = MoveList::new();
    next.chess_moves_into(&facts, &mut list);
    if next.steps_of_moves(&facts, &list) > 0 {
        count_moves(&next, &facts, &list, depth, moves)
    } else {
        next.end_turn();
        count(&next, depth, moves)
    }
}

/// No step is open after a step: the turn ends by itself.
struct Closed;

/// The leaves two plies below step `step` (move `m`, no promotion and no
/// king taken) of `game` in the two-seat game, when captures are open
/// after it and none of them promotes; `Err(Closed)` when none is open
/// (the caller plays the step on a copy of the game and ends the turn),
/// None when one promotes (the caller plays it all on a copy).
///
/// Only the board and the line change within a turn (the hands, the pile
/// and, without a promotion, the side to move's cards in the discard pile
/// stay as they are), so the step is made on a copy of the board alone
/// (as [`Cooperative2Game::make_move`] makes it, the en passant square
/// open to the side to move set again), and the line after it read from
/// `facts` without the card the capture discards ([`LineFacts::without`]),
/// or as it was after a quiet move. Step 3 then has the captures
/// [`Cooperative2Game::chess_moves_into`] lists after the move, and the
/// turn's end counts from the same cards ([`turn_end_leaves`]).
fn light_step_three(
    game: &Cooperative2Game,
    facts: &LineFacts,
    step: ChessStep,
    m: Move,
    shared: &mut Shared,
    moves: &mut MoveList,
) -> Option<Result<u64, Closed>> {
    let ended = *shared.ended.get_or_insert_with(|| turn_end_leaves(game));
    let without;
    let after = match step.captured_card {
        None => facts,
        Some(card) => {
            without = facts.without(game.line.iter().position(|&c| c == card)?);
            &without
        }
    };
    let pos = board_after_step(&game.pos, m, game);
    let mut list = MoveList::new();
    legal_captures_with(&pos, after.pairs, Checks::NoneAfterLegalMove, &mut list);
    if list.iter().any(|m| m.promotion().is_some()) {
        return None;
    }
    let open = list.iter().any(|&m| after.steps_of(m, |role| game.may_promote_to(role)) > 0);
    if !open {
        return Some(Err(Closed));
    }
    let after_quiet_steps = step.captured_card.is_none().then_some(&mut shared.quiet_tests);
    let kept = Kept { quiet_test: None, after_quiet_steps };
    Some(Ok(two_plies(game, None, &pos, after, &list, ended, kept, moves)))
}

/// The leaves `depth` plies below the end of `game`'s turn.
fn turn_end(game: &Cooperative2Game, depth: u32, moves: &mut MoveList) -> u64 {
    if depth == 1 && !game.solitaire {
        return turn_end_leaves(game);
    }
    let mut ended = game.clone();
    ended.end_turn();
    count(&ended, depth, moves)
}

/// The leaves one ply below the end of the turn in the two-seat game:
/// the cards the next player may play (each once), read from the hands
/// and the pile without drawing. Zero when the cards have run out. While
/// the other player holds cards they play next whatever the draw brings
/// ([`Cooperative2Game::next_colour`]), so the draw is worked out only
/// when their hand is empty.
pub(super) fn turn_end_leaves(game: &Cooperative2Game) -> u64 {
    let us = game.turn();
    let theirs = &game.hands[index(us.other())];
    if !theirs.is_empty() {
        return distinct_cards(theirs);
    }
    let ours = game.hand_after_draw(us);
    match game.next_colour(us, &ours) {
        None => 0,
        Some(next) if next == us => distinct_cards(&ours),
        Some(next) => distinct_cards(&game.hands[index(next)]),
    }
}

/// [`turn_end_leaves`] of `game` once `card` (of the hand of the side to
/// move) is played: while the other player holds cards, they play next,
/// whatever the card; otherwise read on a copy with the card played.
fn turn_end_leaves_after_card(game: &Cooperative2Game, card: Card) -> u64 {
    let theirs = &game.hands[index(game.turn().other())];
    if !theirs.is_empty() {
        return distinct_cards(theirs);
    }
    let mut next = game.clone();
    next.play_card(card).expect("a card of the hand");
    turn_end_leaves(&next)
}

/// The cards of `hand`, each once (as the legal actions list them).
fn distinct_cards(hand: &[Card]) -> u64 {
    hand.iter().enumerate().filter(|&(i, card)| !hand[..i].contains(card)).count() as u64
}

/// The tests [`two_plies`] may take from its caller, made for other
/// positions that read the same.
struct Kept<'a> {
    /// The quiet moves' test made on the same board (the cards of a hand
    /// played in turn: playing a card changes the line, not the board),
    /// with the pairs of the line it was made for: it serves a line that
    /// allows the same pairs.
    quiet_test: Option<&'a mut Option<(u64, QuietTest)>>,
    /// When the position follows a step that takes nothing, the capture
    /// tests made after such steps ([`Shared::quiet_tests`]).
    after_quiet_steps: Option<&'a mut Vec<(usize, Option<CaptureTest>)>>,
}

impl Kept<'_> {
    /// Nothing kept: every test is made for the position.
    const NONE: Kept<'static> = Kept { quiet_test: None, after_quiet_steps: None };
}

/// The leaves two plies below a position of step 2 or 3 in the two-seat
/// game (its board `pos`, its moves `list`, its line read as `facts`; its
/// cards and en passant square those of `game`, or of `game` once the
/// turn's `card` is played if one is given): for each step, the steps
/// open after it plus the end of the turn, or, when it opens none, the
/// turn's end's leaves (`ended`, [`turn_end_leaves`] of that game: the
/// same for every step, read once by the caller); and the turn's end
/// itself. Playing a card changes neither the en passant square nor the
/// discard pile, which is all the count reads of the game, promotions
/// aside: a promotion in `list` is played on a copy of that game (the
/// card played on it), whose board must then be `pos`. `kept` holds the
/// tests made for other positions that serve this one too ([`Kept`]).
#[allow(clippy::too_many_arguments)]
fn two_plies(
    game: &Cooperative2Game,
    card: Option<Card>,
    pos: &Position,
    facts: &LineFacts,
    list: &[Move],
    ended: u64,
    kept: Kept,
    moves: &mut MoveList,
) -> u64 {
    let leaves_of = |open: u64| if open > 0 { open + 1 } else { ended };
    // The test of the moves that leave the line as it is (made at the
    // first such move: step 3 has none), unless one made for the same
    // board and pairs is kept.
    let mut own_quiet_test = None;
    let quiet_test = kept.quiet_test.unwrap_or(&mut own_quiet_test);
    if quiet_test.as_ref().is_some_and(|(pairs, _)| *pairs != facts.pairs) {
        *quiet_test = None;
    }
    let mut quiet_tests = kept.after_quiet_steps;
    // The places in the line of the cards the captures may discard:
    // counted below, card by card, with one test of the line without it.
    let mut places = 0;
    let mut nodes = ended;
    // The quiet steps after which nothing is open: `ended` leaves each.
    let mut closed = 0;
    for &m in list {
        if let Move::Normal { role, from, to, capture: None, promotion: None } = m {
            let (_, test) =
                quiet_test.get_or_insert_with(|| (facts.pairs, QuietTest::new(pos, facts.pairs, game.turn_ep)));
            if test.quiet_may_open(role, from, to) {
                nodes += leaves_of(open_after(game, pos, m, facts, Some(&test.test), moves));
            } else {
                closed += 1;
            }
            continue;
        }
        match m {
            // Every step of it ends the game: no leaves below.
            _ if m.capture() == Some(Role::King) => {}
            Move::Normal { promotion: Some(_), .. } => {
                // A promotion moves cards between the line and the discard
                // pile: played on a copy of the game, step by step.
                let played = card.map(|card| {
                    let mut next = game.clone();
                    next.play_card(card).expect("a card of the hand");
                    next
                });
                let game = played.as_ref().unwrap_or(game);
                debug_assert!(game.pos == *pos, "a promotion is played on the game");
                let mut steps = Vec::new();
                game.steps_of_move(m, &mut steps);
                nodes += steps
                    .into_iter()
                    .map(|(step, m)| after_step(game, facts, (step, m), 1, false, &mut Shared::ended(ended), moves))
                    .sum::<u64>();
            }
            _ => match m.capture() {
                // Castling: counted after it.
                None => nodes += leaves_of(open_after(game, pos, m, facts, None, moves)),
                Some(_) => places |= discardable(facts, m),
            },
        }
    }
    for i in bits(places) {
        let made = || {
            let pairs = facts.pairs_without(i);
            (pairs != 0).then(|| CaptureTest::new(pos, pairs, game.turn_ep))
        };
        let test = match quiet_tests.as_deref_mut() {
            Some(kept) => match kept.iter().find(|(place, _)| *place == i) {
                Some((_, test)) => test.as_ref().map(|test| test.on_board_of(pos)),
                None => {
                    let test = made();
                    kept.push((i, test.clone()));
                    test
                }
            },
            None => made(),
        };
        nodes += captures_discarding(game, pos, facts, list, i, test.as_ref(), moves, leaves_of);
    }
    nodes + closed * ended
}

/// The leaves below the captures of `list` (on board `pos` of `game`,
/// the line read as `facts`) that may discard the card at place `i`,
/// each as [`two_plies`] counts a step (`leaves_of` the steps open after
/// it): whether a capture is open after one is asked of `test`, the test
/// of the line without the card (none when that line allows no capture),
/// and counted only where it may be.
#[allow(clippy::too_many_arguments)]
fn captures_discarding(
    game: &Cooperative2Game,
    pos: &Position,
    facts: &LineFacts,
    list: &[Move],
    i: usize,
    test: Option<&CaptureTest>,
    moves: &mut MoveList,
    leaves_of: impl Fn(u64) -> u64,
) -> u64 {
    let mut nodes = 0;
    for &m in list {
        if discardable(facts, m) >> i & 1 == 0 {
            continue;
        }
        let open = match (m, test) {
            (_, None) => 0,
            (Move::Normal { role, from, to, promotion: None, .. }, Some(test))
                if !test.may_open_after_capture(pos, role, from, to) =>
            {
                0
            }
            _ => open_after(game, pos, m, &facts.without(i), None, moves),
        };
        nodes += leaves_of(open);
    }
    nodes
}

/// The places of the cards (a bit set) that `m` may discard when
/// [`two_plies`] counts it card by card: a capture that promotes nothing
/// and takes no king, with the line read as `facts`; none for any other
/// move (a promotion is played on a copy, a king taken ends the game).
fn discardable(facts: &LineFacts, m: Move) -> u64 {
    match (m, m.capture()) {
        (Move::Normal { promotion: Some(_), .. }, _) | (_, None | Some(Role::King)) => 0,
        (_, Some(victim)) => facts.cards_of(m.role(), victim),
    }
}

/// The steps open after move `m` (no promotion) on board `pos` of `game`,
/// the line then read as `facts` and tested by `test` if given: step 3's
/// captures counted ([`capture_steps_on`]) on a copy of the board, as
/// [`Cooperative2Game::make_step`] finds them on a copy of the game, when
/// the test of the pieces' attacks says some may be open.
fn open_after(
    game: &Cooperative2Game,
    pos: &Position,
    m: Move,
    facts: &LineFacts,
    test: Option<&CaptureTest>,
    moves: &mut MoveList,
) -> u64 {
    if facts.pairs == 0 || test.is_some_and(|test| !test.may_open(pos, m)) {
        return 0;
    }
    let after = board_after_step(pos, m, game);
    capture_steps_on(&after, facts, Checks::NoneAfterLegalMove, |role| game.may_promote_to(role), moves)
}

/// Board `pos` of `game` after the chess step of move `m`, as
/// [`Cooperative2Game::make_move`] leaves it: the same side still to move
/// (step 3 may follow), and the en passant square open to it set again.
fn board_after_step(pos: &Position, m: Move, game: &Cooperative2Game) -> Position {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    after.set_turn(us);
    after.set_ep_square(open_ep_on(&after, game.turn_ep));
    after
}
