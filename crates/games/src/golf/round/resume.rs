//! Reading a round's text position back (docs/games/golf.md, "The round's
//! text position"), and refusing positions the round could never reach.
//!
//! The text is the whole truth about a round, so a resumed round trusts
//! it only after checking every line against the others: the settings,
//! the hole number against the score sheet, the cards per hole against the
//! difficulty rule, the discard pile against the holes played since the
//! last reshuffle, each hole's scores against the scoring rule, and the
//! demonstrator against the order in which players demonstrate. Each
//! refusal names the line and the problem.

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::Seat;
use chesskit_core::options::Options;
use chesskit_core::view::Journal;
use shakmaty::{Color, Piece, Role};

use super::super::rules::{golf_piece, Board, Cards, GolfMove};
use super::super::text::{parse_board, split_lines};
use super::{pieces_of, plural, read_options, GolfGame, Hole, Phase, MAX_COUNT};

/// The 16 pieces of the Chess Golf set: per colour a king, a queen, and
/// two each of rooks, bishops and knights.
fn golf_set() -> Cards {
    let mut set = Cards::EMPTY;
    for color in [Color::White, Color::Black] {
        for (role, n) in [(Role::King, 1), (Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)] {
            for _ in 0..n {
                set.add(Piece { color, role });
            }
        }
    }
    set
}

fn board_pieces(board: &Board) -> Cards {
    Cards::from_pieces(board.pieces().map(|(_, p)| p))
}

/// The key lines of a position, found by name (case-insensitive).
struct Keys<'a> {
    lines: Vec<(usize, &'a str, &'a str)>,
}

impl<'a> Keys<'a> {
    fn get(&self, name: &str) -> Option<(usize, &'a str)> {
        self.lines.iter().find(|(_, k, _)| k.eq_ignore_ascii_case(name)).map(|(l, _, v)| (*l, *v))
    }

    fn need(&self, name: &str) -> Result<(usize, &'a str), String> {
        self.get(name).ok_or_else(|| format!("the position has no {name}: line"))
    }

    /// A whole number within `range`.
    fn number(&self, name: &str, range: std::ops::RangeInclusive<usize>) -> Result<usize, String> {
        let (l, v) = self.need(name)?;
        let n = v.parse::<usize>().map_err(|_| format!("line {l} ({name}): {v:?} is not a number"))?;
        if !range.contains(&n) {
            return Err(format!("line {l} ({name}): {n} is not within {} to {}", range.start(), range.end()));
        }
        Ok(n)
    }

    fn all(&self, name: &str) -> impl Iterator<Item = (usize, &'a str)> + '_ {
        let name = name.to_string();
        self.lines.iter().filter(move |(_, k, _)| k.eq_ignore_ascii_case(&name)).map(|(l, _, v)| (*l, *v))
    }
}

fn parse_cards(line: usize, value: &str) -> Result<Vec<Card>, String> {
    value.split_whitespace().map(|w| w.parse::<Card>().map_err(|e| format!("line {line}: {e}"))).collect()
}

fn parse_course(line: usize, text: &str) -> Result<Board, String> {
    let rows: Vec<(usize, &str)> = text.split('/').map(|r| (line, r)).collect();
    parse_board(&rows).map_err(|e| format!("course: {e}"))
}

fn parse_seats(line: usize, name: &str, value: &str, players: usize) -> Result<Vec<Seat>, String> {
    let mut seats: Vec<Seat> = Vec::new();
    for word in value.split_whitespace() {
        let seat: Seat = word.parse().map_err(|_| format!("line {line} ({name}): {word:?} is not a seat number"))?;
        if seat >= players {
            return Err(format!("line {line} ({name}): seat {seat} does not exist with {players} players"));
        }
        if seats.contains(&seat) {
            return Err(format!("line {line} ({name}): seat {seat} is listed twice"));
        }
        seats.push(seat);
    }
    Ok(seats)
}

fn parse_counts(line: usize, value: &str, players: usize) -> Result<Vec<Option<u32>>, String> {
    let counts: Vec<Option<u32>> = value
        .split_whitespace()
        .map(|w| match w {
            "-" => Ok(None),
            _ => w.parse::<u32>().ok().filter(|n| *n <= MAX_COUNT).map(Some).ok_or(()),
        })
        .collect::<Result<_, _>>()
        .map_err(|_| format!("line {line} (counts): write a count from 0 to {MAX_COUNT}, or - per player"))?;
    if counts.len() != players {
        return Err(format!("line {line} (counts): {} counts for {players} players", counts.len()));
    }
    Ok(counts)
}

fn parse_played(line: usize, value: &str, players: usize) -> Result<Hole, String> {
    let parts: Vec<&str> = value.split('|').map(str::trim).collect();
    let bad = |why: &str| format!("line {line} (played): {why}");
    let [chosen, counts, scores] = parts.as_slice() else { return Err(bad("write cards | counts | scores")) };
    let chosen = chosen.parse::<Cards>().map_err(|e| bad(&e))?;
    if chosen.len() < 2 {
        return Err(bad("a hole has at least 2 chosen cards"));
    }
    let counts: Vec<u32> = counts
        .split_whitespace()
        .map(|w| w.parse::<u32>().ok().filter(|n| *n <= MAX_COUNT))
        .collect::<Option<_>>()
        .ok_or_else(|| bad(&format!("counts are 0 to {MAX_COUNT}")))?;
    let scores: Vec<i64> = scores
        .split_whitespace()
        .map(|w| w.parse::<i64>().ok().filter(|n| *n >= 0))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("scores are whole numbers from 0"))?;
    if counts.len() != players || scores.len() != players {
        return Err(bad(&format!("one count and one score per player ({players})")));
    }
    Ok(Hole { chosen, counts, scores })
}

/// The order in which players demonstrate: non-zero counts, fewest first,
/// ties to the first found going left from the dealer (dealer included).
pub(super) fn demonstration_order(counts: &[u32], dealer: Seat) -> Vec<Seat> {
    let players = counts.len();
    let mut order: Vec<Seat> = (0..players).map(|i| (dealer + i) % players).filter(|&s| counts[s] > 0).collect();
    order.sort_by_key(|&s| counts[s]);
    order
}

/// Whether the difficulty rule deals one more card after a hole with
/// these counts and `cards` cards: every count the same and not
/// impossible, below the cap, and a later hole to deal.
pub(super) fn grows(counts: &[u32], cards: usize, max_cards: usize, hole: usize, holes: usize) -> bool {
    counts.iter().all(|&n| n == counts[0] && n > 0) && cards < max_cards && hole < holes
}

/// Could a finished hole have been scored so (scoring rule, Rulings)?
/// Every answer either stands (a count kept, or "impossible" proven, 0)
/// or is wrong, and all wrong answers score the same, above every count.
/// A count that stands means a demonstration succeeded: the players before
/// it in the demonstration order failed, "impossible" was wrong and the
/// penalty is the highest count plus one. An "impossible" that stands
/// means the referee proved it: every count failed.
fn check_scores(line: usize, hole: &Hole, dealer: Seat) -> Result<(), String> {
    let bad = |why: String| Err(format!("line {line} (played): {why}"));
    let players = hole.counts.len();
    let top = hole.counts.iter().copied().max().unwrap_or(0) as i64;
    let stands = |s: Seat| hole.scores[s] == hole.counts[s] as i64;
    let wrong: Vec<i64> = (0..players).filter(|&s| !stands(s)).map(|s| hole.scores[s]).collect();
    if let Some(&penalty) = wrong.first() {
        if wrong.iter().any(|&w| w != penalty) {
            return bad(format!("the wrong answers score differently ({wrong:?}); they all score the same penalty"));
        }
        if penalty <= top {
            return bad(format!(
                "a wrong answer scores {penalty}, but the penalty is more than the highest count, {top}"
            ));
        }
    }
    let kept = (0..players).any(|s| hole.counts[s] > 0 && stands(s));
    let proven = (0..players).any(|s| hole.counts[s] == 0 && stands(s));
    if kept && proven {
        return bad("a count stands and an impossible stands: only one of them can be right".to_string());
    }
    if kept {
        if wrong.first().is_some_and(|&w| w != top + 1) {
            return bad(format!(
                "after a successful demonstration the penalty is the highest count plus one, {}",
                top + 1
            ));
        }
        let order = demonstration_order(&hole.counts, dealer);
        let failures = order.iter().take_while(|&&s| !stands(s)).count();
        if order[failures..].iter().any(|&s| !stands(s)) {
            return bad("a count failed after the successful demonstration, which ends the hole".to_string());
        }
    }
    if proven && wrong.first().is_some_and(|&w| w != top + 1) {
        return bad(format!(
            "when impossible is proven, a failed count scores the highest count plus one, {}",
            top + 1
        ));
    }
    Ok(())
}

impl GolfGame {
    /// Read a position: the 8 board lines alone start a round on that
    /// course; with the keys of [`GolfGame::position_text`] it resumes one,
    /// after [`GolfGame::check_possible`].
    pub(super) fn from_text(text: &str, options: &Options, seed: u64, story: &mut Journal) -> Result<GolfGame, String> {
        let (board_lines, key_lines) = split_lines(text);
        let board = parse_board(&board_lines)?;
        let keys = Keys { lines: key_lines };
        // Mid-demonstration and while putting back, captured pieces are
        // off the board; those phases check the board their own way.
        let partial = keys.get("phase").is_some_and(|(_, v)| v == "returning" || v == "demonstrating");
        if !partial && board_pieces(&board) != golf_set() {
            return Err(format!(
                "a round needs the 16 pieces of the Chess Golf set on the board (KQRRBBNN kqrrbbnn), found {}",
                board_pieces(&board)
            ));
        }
        let mut game = GolfGame::setup(read_options(options)?, Some(board), seed, story);
        if keys.lines.is_empty() {
            return Ok(game);
        }
        game.players = keys.number("players", 1..=8)?;
        game.holes = keys.number("holes", 1..=18)?;
        game.max_cards = keys.number("max cards", 2..=16)?;
        game.hole = keys.number("hole", 1..=game.holes)?;
        game.dealer = keys.number("dealer", 0..=game.players - 1)?;
        game.cards = keys.number("cards", 2..=game.max_cards)?;
        let (l, v) = keys.need("deck")?;
        game.draw = parse_cards(l, v)?;
        let (l, v) = keys.need("discard")?;
        game.discard = parse_cards(l, v)?;
        let (l, v) = keys.need("deal")?;
        game.deal = parse_cards(l, v)?;
        let mut all: Vec<Card> = game.draw.iter().chain(&game.discard).chain(&game.deal).copied().collect();
        all.sort();
        let mut deck = officer_deck();
        deck.sort();
        if all != deck {
            return Err("deck, discard and deal must hold the 16 officer cards once each".to_string());
        }
        let (l, v) = keys.need("counts")?;
        game.counts = parse_counts(l, v, game.players)?;
        let played: Vec<(usize, Hole)> = keys
            .all("played")
            .map(|(l, v)| parse_played(l, v, game.players).map(|h| (l, h)))
            .collect::<Result<_, _>>()?;
        game.sheet = played.iter().map(|(_, h)| h.clone()).collect();
        let (l, phase) = keys.need("phase")?;
        game.phase = match phase {
            "counting" | "over" => {
                game.course = board;
                if phase == "over" {
                    Phase::Over
                } else {
                    Phase::Counting
                }
            }
            "demonstrating" => {
                let (cl, course) = keys.need("course")?;
                game.course = parse_course(cl, course)?;
                if board_pieces(&game.course) != golf_set() {
                    return Err(format!("line {cl} (course): the course holds the 16 pieces of the Chess Golf set"));
                }
                let seat = keys.number("demonstrator", 0..=game.players - 1)?;
                let (pl, path_text) = keys.need("path")?;
                let mut puzzle = game.puzzle();
                let mut path = Vec::new();
                for word in path_text.split_whitespace() {
                    let m: GolfMove = word.parse().map_err(|e| format!("line {pl} (path): {e}"))?;
                    puzzle.play(m).map_err(|e| format!("line {pl} (path): {m}: {e}"))?;
                    path.push(m);
                }
                if puzzle.board != board {
                    return Err("the board lines are not the course after the path".to_string());
                }
                let (fl, failed) = keys.need("failed")?;
                Phase::Demonstrating { seat, puzzle, path, failed: parse_seats(fl, "failed", failed, game.players)? }
            }
            "returning" => {
                let seat = keys.number("demonstrator", 0..=game.players - 1)?;
                let (rl, text) = keys.need("returning")?;
                let pieces = text
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| golf_piece(c).map_err(|e| format!("line {rl} (returning): {e}")))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut all = board_pieces(&board);
                pieces.iter().for_each(|&p| all.add(p));
                if pieces.is_empty() || all != golf_set() {
                    return Err(format!(
                        "line {rl} (returning): the board and the pieces to put back make the 16 pieces of the \
                         Chess Golf set, with at least one piece to put back"
                    ));
                }
                let length = keys.number("length", 1..=MAX_COUNT as usize)?;
                let (fl, failed) = keys.need("failed")?;
                Phase::Returning {
                    seat,
                    board,
                    pieces,
                    length,
                    failed: parse_seats(fl, "failed", failed, game.players)?,
                }
            }
            other => return Err(format!("line {l} (phase): unknown phase {other:?}")),
        };
        game.check_possible(&played)?;
        Ok(game)
    }

    /// Refuse a resumed round that play could never reach (see the module
    /// documentation); `played` are the score sheet's lines with their
    /// line numbers.
    fn check_possible(&self, played: &[(usize, Hole)]) -> Result<(), String> {
        self.check_sheet(played)?;
        self.check_cards(played)?;
        self.check_discard()?;
        self.check_counts()?;
        self.check_demonstration()
    }

    /// The dealer of hole `hole` (from 1): the deck passes left each hole.
    fn dealer_of(&self, hole: usize) -> Seat {
        (self.dealer + self.players * self.holes - (self.hole - hole)) % self.players
    }

    /// One sheet line per finished hole, each scored as the rules score.
    fn check_sheet(&self, played: &[(usize, Hole)]) -> Result<(), String> {
        let finished = if self.phase == Phase::Over { self.holes } else { self.hole - 1 };
        if self.phase == Phase::Over && self.hole != self.holes {
            return Err(format!(
                "a finished round of {} holes ends on hole {}, not {}",
                self.holes, self.holes, self.hole
            ));
        }
        if played.len() != finished {
            return Err(format!(
                "hole {} {}: the score sheet needs {finished} played: lines, found {}",
                self.hole,
                if self.phase == Phase::Over { "is over" } else { "is in play" },
                played.len()
            ));
        }
        for (i, (line, hole)) in played.iter().enumerate() {
            check_scores(*line, hole, self.dealer_of(i + 1))?;
        }
        Ok(())
    }

    /// The difficulty rule: two cards on hole 1, one more after every hole
    /// where all counts agreed (below the cap, with a hole still to come).
    fn check_cards(&self, played: &[(usize, Hole)]) -> Result<(), String> {
        let mut cards = 2;
        for (i, (line, hole)) in played.iter().enumerate() {
            if hole.chosen.len() as usize != cards {
                return Err(format!(
                    "line {line} (played): hole {} deals {cards} cards by the difficulty rule, not {}",
                    i + 1,
                    hole.chosen.len()
                ));
            }
            if grows(&hole.counts, cards, self.max_cards, i + 1, self.holes) {
                cards += 1;
            }
        }
        if self.phase != Phase::Over {
            if self.deal.len() != cards {
                return Err(format!(
                    "hole {} deals {cards} cards by the difficulty rule, not {}",
                    self.hole,
                    self.deal.len()
                ));
            }
            if self.phase != Phase::Counting
                && grows(&self.given_counts(), cards, self.max_cards, self.hole, self.holes)
            {
                cards += 1;
            }
        } else if !self.deal.is_empty() {
            return Err("a finished round has no cards dealt".to_string());
        }
        if self.cards != cards {
            return Err(format!("cards: the difficulty rule gives {cards} cards per hole now, not {}", self.cards));
        }
        Ok(())
    }

    /// The discard pile holds the cards of the last holes played since the
    /// draw pile was last shuffled (possibly none).
    fn check_discard(&self) -> Result<(), String> {
        let discard = pieces_of(&self.discard);
        let mut since = Cards::EMPTY;
        let mut possible = discard == since;
        for hole in self.sheet.iter().rev() {
            hole.chosen.pieces().into_iter().for_each(|p| since.add(p));
            possible |= discard == since;
        }
        if !possible {
            return Err(format!(
                "discard: {} are not the cards of the holes played since the deck was last shuffled",
                discard.describe()
            ));
        }
        Ok(())
    }

    /// Counting: some count is still to come; afterwards all are given;
    /// a finished round shows the last hole's counts.
    fn check_counts(&self) -> Result<(), String> {
        let given = self.counts.iter().all(Option::is_some);
        match &self.phase {
            Phase::Counting if given => {
                Err("counts: while counting, some count is still to come (-); when all are in they are revealed".into())
            }
            Phase::Counting => Ok(()),
            _ if !given => Err("counts: every count is given once the counts are revealed".to_string()),
            Phase::Over if self.sheet.last().map(|h| &h.counts) != Some(&self.given_counts()) => {
                Err("counts: a finished round shows the last hole's counts".to_string())
            }
            _ => Ok(()),
        }
    }

    /// The demonstrator is the next in the demonstration order after those
    /// who failed; a demonstration in progress has moves left and has not
    /// solved the puzzle; a successful one took at least one move per
    /// capture and no more than its count.
    fn check_demonstration(&self) -> Result<(), String> {
        let (seat, failed) = match &self.phase {
            Phase::Demonstrating { seat, failed, .. } | Phase::Returning { seat, failed, .. } => (*seat, failed),
            _ => return Ok(()),
        };
        let order = demonstration_order(&self.given_counts(), self.dealer);
        if failed.len() >= order.len() || order[..failed.len()] != failed[..] || order[failed.len()] != seat {
            let order: Vec<String> = order.iter().map(|s| s.to_string()).collect();
            return Err(format!(
                "demonstrator: with these counts players demonstrate in the order {} (seats), so after failed \
                 {failed:?} seat {} demonstrates, not {seat}",
                order.join(" "),
                order.get(failed.len()).map_or("none".to_string(), |s| s.to_string())
            ));
        }
        let count = self.given_counts()[seat] as usize;
        match &self.phase {
            Phase::Demonstrating { path, puzzle, .. } => {
                if path.len() >= count {
                    return Err(format!(
                        "path: {}, but a demonstration of {} ends there",
                        plural(path.len(), "move"),
                        plural(count, "move")
                    ));
                }
                if puzzle.is_solved() {
                    return Err("path: the path solves the puzzle, so the pieces are being put back".to_string());
                }
            }
            Phase::Returning { pieces, length, .. } => {
                let captures = self.deal.len() - 1;
                if *length < captures || *length > count {
                    return Err(format!(
                        "length: a path of {} cannot make {captures} captures within a count of {count}",
                        plural(*length, "move")
                    ));
                }
                let mut chosen = pieces_of(&self.deal);
                if pieces.len() > captures || !pieces.iter().all(|&p| chosen.remove(p)) {
                    return Err("returning: the pieces to put back are some of the captured chosen pieces".to_string());
                }
            }
            _ => {}
        }
        Ok(())
    }
}
