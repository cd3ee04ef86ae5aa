//! The text position (docs/architecture.md, "Positions"): a FEN with the true pieces,
//! where a checker's letter is followed by `{c3}` (cloaked checker 3) or
//! `{3}` (checker 3, uncloaked), then `key: value` lines:
//!
//! ```text
//! r{c1}n{c2}b{c3}q{c4}k{c5}b{c6}n{c7}r{c8}/pppppppp/8/8/4P3/8/PPPP1PPP/R{c1}N{c2}B{c3}Q{c4}K{c5}B{c6}N{c7}R{c8} b HAha e3 0 1
//! step: start
//! ```
//!
//! | key | value | default |
//! | --- | --- | --- |
//! | `to-place` | the players who have not placed their checkers yet (`white black`); their back-rank letters are placeholders | everyone has placed |
//! | `step` | where the turn stands: `start`, `guessed-right`, `guessed-wrong`, `bonus` or `uncloak` | `start` |
//! | `bonus-for` | the player owed a bonus move by a wrong guess (`white` or `black`) | nobody |
//! | `white-hand`, `black-hand` | pawns that player may take back | 0 |
//! | `white-moved`, `black-moved` | numbers of that player's checkers that have moved | the checkers off their starting squares |
//! | `white-clues`, `black-clues` | what is public about that player's checkers: `2=QRB 7=N` | nothing |
//!
//! The FEN's castling field (Shredder style, files) must list exactly the
//! unmoved rooks of an unmoved king; its en passant square is written
//! whenever the last move was a double step.

use std::collections::BTreeMap;

use chesskit_core::chess::fen::{self, board_fen, castling_field, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Board, Color, Geometry, Rank, Role, Square};
use chesskit_core::view::Journal;
use shakmaty::ByColor;

use super::knowledge::{all_setups, parse_checker_number, Clues};
use super::{home_square, CloakAndDagger, Step};

const KEYS: [&str; 9] = [
    "to-place",
    "step",
    "bonus-for",
    "white-hand",
    "black-hand",
    "white-moved",
    "black-moved",
    "white-clues",
    "black-clues",
];

fn step_name(step: Step) -> &'static str {
    match step {
        Step::Setup => "setup",
        Step::Start => "start",
        Step::Guessed { correct: true } => "guessed-right",
        Step::Guessed { correct: false } => "guessed-wrong",
        Step::Bonus => "bonus",
        Step::Uncloak => "uncloak",
    }
}

fn colour_key(color: Color, key: &str) -> String {
    format!("{}-{key}", color.fold_wb("white", "black"))
}

fn parse_colour(text: &str) -> Result<Color, String> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(format!("{other:?} is not a player: write white or black")),
    }
}

/// The whole truth as text.
pub fn write_position(game: &CloakAndDagger) -> String {
    let mut markers = Markers::new();
    for color in Color::ALL {
        for (i, checker) in game.checkers.get(color).iter().enumerate() {
            if let Some(square) = checker.square {
                let marker = if checker.cloaked { format!("c{}", i + 1) } else { (i + 1).to_string() };
                markers.insert(square, marker);
            }
        }
    }
    let pos = &game.pos;
    let mut lines = vec![format!(
        "{} {} {} {} {} {}",
        board_fen(pos.board(), &markers),
        pos.turn().fold_wb('w', 'b'),
        castling_field(pos, CastlingNotation::Shredder),
        pos.ep_square().map_or("-".to_string(), |sq| sq.to_string()),
        pos.halfmoves(),
        pos.fullmoves()
    )];
    if game.step == Step::Setup {
        let unplaced: Vec<&str> = Color::ALL
            .into_iter()
            .filter(|&c| game.placement.get(c).is_none())
            .map(|c| c.fold_wb("white", "black"))
            .collect();
        lines.push(format!("to-place: {}", unplaced.join(" ")));
    } else {
        lines.push(format!("step: {}", step_name(game.step)));
    }
    if let Some(color) = game.bonus_for {
        lines.push(format!("bonus-for: {}", color.fold_wb("white", "black")));
    }
    for color in Color::ALL {
        let hand = *game.hands.get(color);
        if hand > 0 {
            lines.push(format!("{}: {hand}", colour_key(color, "hand")));
        }
    }
    for color in Color::ALL {
        let moved: Vec<String> =
            (0..8).filter(|&i| game.checkers.get(color)[i].moved).map(|i| (i + 1).to_string()).collect();
        if !moved.is_empty() {
            lines.push(format!("{}: {}", colour_key(color, "moved"), moved.join(" ")));
        }
    }
    for color in Color::ALL {
        let clues = game.clues.get(color).to_text();
        if !clues.is_empty() {
            lines.push(format!("{}: {clues}", colour_key(color, "clues")));
        }
    }
    lines.join("\n")
}

/// Read a position written by [`write_position`] (or by hand).
pub fn read_position(text: &str, story: &mut Journal) -> Result<CloakAndDagger, String> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let fen_line = lines.next().ok_or("empty position: expected a FEN line")?;
    let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
    for line in lines {
        let (key, value) =
            line.split_once(':').ok_or_else(|| format!("bad line {line:?}: expected key: value after the FEN"))?;
        let key = key.trim();
        if !KEYS.contains(&key) {
            return Err(format!("unknown key {key:?} (known: {})", KEYS.join(", ")));
        }
        if fields.insert(key, value.trim()).is_some() {
            return Err(format!("key {key:?} is given twice"));
        }
    }
    let validation = Validation { one_king_each: false, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (fen_line, ep) = take_ep_field(fen_line)?;
    let (mut pos, markers) = fen::parse_fen_with(&fen_line, Geometry::ORTHODOX, validation)?;
    if let Some(ep) = ep {
        check_ep(pos.board(), ep)?;
        pos.set_ep_square(Some(ep));
    }
    let mut game = CloakAndDagger::table_before_setup();
    game.checkers = read_checkers(pos.board(), &markers)?;
    for square in pos.board().kings() {
        if !markers.contains_key(&square) {
            return Err(format!("the king on {square} is a checker: write K{{c5}} (cloaked) or K{{5}} (uncloaked)"));
        }
    }
    let to_place = match fields.get("to-place") {
        Some(list) => list.split_whitespace().map(parse_colour).collect::<Result<Vec<Color>, String>>()?,
        None => Vec::new(),
    };
    for color in Color::ALL {
        let key = colour_key(color, "clues");
        *game.clues.get_mut(color) =
            Clues::parse(fields.get(key.as_str()).copied().unwrap_or("")).map_err(|e| format!("{key}: {e}"))?;
        if to_place.contains(&color) {
            check_unplaced(&game, color, &fields)?;
            // Placeholders nobody sees: the orthodox pieces.
            let orthodox = Board::new();
            for i in 0..8 {
                let square = home_square(color, i);
                if let Some(piece) = orthodox.piece_at(square) {
                    pos.board_mut().set_piece_at(square, piece);
                }
            }
        } else {
            let setup = read_setup(&game, pos.board(), color)?;
            *game.placement.get_mut(color) = Some(setup);
        }
    }
    for color in Color::ALL {
        read_moved(&mut game, color, &fields)?;
        read_hand(&mut game, pos.board(), color, &fields)?;
        if let Some(setup) = *game.placement.get(color) {
            for (i, checker) in game.checkers.get(color).iter().enumerate() {
                if !checker.cloaked || checker.square.is_none() {
                    game.clues.get_mut(color).reveal(i, setup[i]);
                }
            }
        }
    }
    let written_castling = pos.castling_rooks();
    game.pos = pos;
    game.sync_castling();
    if game.pos.castling_rooks() != written_castling {
        return Err(format!(
            "the castling field must list the unmoved rooks of an unmoved king: expected {}",
            castling_field(&game.pos, CastlingNotation::Shredder)
        ));
    }
    read_step(&mut game, &fields, !to_place.is_empty())?;
    judge_read_position(&mut game, story)?;
    Ok(game)
}

/// The FEN without its en passant field, and that square. A player keeps
/// the turn for the bonus move and uncloaking, so the square may lie behind
/// a pawn of the side to move, which plain FEN does not allow.
fn take_ep_field(fen_line: &str) -> Result<(String, Option<Square>), String> {
    let mut fields: Vec<&str> = fen_line.split_whitespace().collect();
    let ep = match fields.get(3) {
        None | Some(&"-") => None,
        Some(text) => Some(fen::parse_square(text).ok_or_else(|| format!("bad en passant square {text:?}"))?),
    };
    if fields.len() > 3 {
        fields[3] = "-";
    }
    Ok((fields.join(" "), ep))
}

/// An en passant square lies behind a pawn that has just advanced two squares.
fn check_ep(board: &Board, ep: Square) -> Result<(), String> {
    let color = match ep.rank() {
        Rank::Third => Color::White,
        Rank::Sixth => Color::Black,
        _ => return Err(format!("bad en passant square {ep}: must be on the 3rd or 6th rank")),
    };
    let forward = color.fold_wb(8, -8);
    let pawn = ep.offset(forward).and_then(|sq| board.piece_at(sq));
    let origin = ep.offset(-forward).expect("on the board");
    if pawn != Some(color.pawn()) || board.piece_at(ep).is_some() || board.piece_at(origin).is_some() {
        return Err(format!("en passant square {ep} does not follow a pawn's double step"));
    }
    Ok(())
}

/// The checkers named by the `{c3}` / `{3}` markers.
fn read_checkers(board: &Board, markers: &Markers) -> Result<ByColor<[super::Checker; 8]>, String> {
    let mut checkers = ByColor::new_with(|_| [super::Checker { square: None, cloaked: false, moved: false }; 8]);
    for (&square, marker) in markers {
        let piece =
            board.piece_at(square).ok_or_else(|| format!("the marker {{{marker}}} on {square} has no piece"))?;
        if piece.role == Role::Pawn {
            return Err(format!("the pawn on {square} cannot be a checker"));
        }
        let (cloaked, number) = match marker.strip_prefix('c') {
            Some(number) => (true, number),
            None => (false, marker.as_str()),
        };
        let index = parse_checker_number(number).map_err(|e| {
            format!("bad marker {{{marker}}} on {square}: {e}; write {{c3}} for cloaked checker 3, {{3}} uncloaked")
        })?;
        let slot = &mut checkers.get_mut(piece.color)[index];
        if slot.square.is_some() {
            return Err(format!("two pieces are {}'s checker {}", fen::color_name(piece.color), index + 1));
        }
        *slot = super::Checker { square: Some(square), cloaked, moved: false };
    }
    Ok(checkers)
}

/// A player still to place has all eight checkers cloaked on their
/// starting squares, and nothing known about them.
fn check_unplaced(game: &CloakAndDagger, color: Color, fields: &BTreeMap<&str, &str>) -> Result<(), String> {
    let name = fen::color_name(color);
    for (i, checker) in game.checkers.get(color).iter().enumerate() {
        if checker.square != Some(home_square(color, i)) || !checker.cloaked {
            return Err(format!(
                "{name} has not placed their checkers, so checker {} must stand cloaked on {}",
                i + 1,
                home_square(color, i)
            ));
        }
    }
    for key in ["clues", "moved", "hand"] {
        if fields.contains_key(colour_key(color, key).as_str()) {
            return Err(format!("{name} has not placed their checkers, so there is no {}", colour_key(color, key)));
        }
    }
    Ok(())
}

/// The setup of a placed player: the identities of the checkers on the
/// board, with captured ones completed from the clues and the restrictions.
fn read_setup(game: &CloakAndDagger, board: &Board, color: Color) -> Result<[Role; 8], String> {
    let name = fen::color_name(color);
    let checkers = game.checkers.get(color);
    let clues = game.clues.get(color);
    let fits: Vec<&[Role; 8]> = all_setups()
        .iter()
        .filter(|setup| clues.allows(setup))
        .filter(|setup| (0..8).all(|i| checkers[i].square.is_none_or(|sq| board.role_at(sq) == Some(setup[i]))))
        .collect();
    match fits.as_slice() {
        [setup] => Ok(**setup),
        [] => Err(format!(
            "{name}'s checkers are not a standard set under the Chess960 restrictions (king between the rooks, \
             bishops on both colours), or they contradict {}",
            colour_key(color, "clues")
        )),
        _ => {
            let missing: Vec<String> =
                (0..8).filter(|&i| checkers[i].square.is_none()).map(|i| (i + 1).to_string()).collect();
            Err(format!(
                "{name}'s captured checkers {} could be more than one setup: give their identities in {} (like {}=N)",
                missing.join(", "),
                colour_key(color, "clues"),
                missing.first().map_or("3", String::as_str)
            ))
        }
    }
}

fn read_moved(game: &mut CloakAndDagger, color: Color, fields: &BTreeMap<&str, &str>) -> Result<(), String> {
    let key = colour_key(color, "moved");
    let listed = match fields.get(key.as_str()) {
        Some(list) => Some(
            list.split_whitespace()
                .map(parse_checker_number)
                .collect::<Result<Vec<usize>, String>>()
                .map_err(|e| format!("{key}: {e}"))?,
        ),
        None => None,
    };
    for (i, checker) in game.checkers.get_mut(color).iter_mut().enumerate() {
        let away = checker.square.is_some_and(|sq| sq != home_square(color, i));
        checker.moved = match &listed {
            Some(list) if away && !list.contains(&i) => {
                return Err(format!(
                    "{}'s checker {} is not on its starting square {}, so list it in {key}",
                    fen::color_name(color),
                    i + 1,
                    home_square(color, i)
                ))
            }
            Some(list) => list.contains(&i),
            None => away,
        };
    }
    Ok(())
}

fn read_hand(
    game: &mut CloakAndDagger,
    board: &Board,
    color: Color,
    fields: &BTreeMap<&str, &str>,
) -> Result<(), String> {
    let key = colour_key(color, "hand");
    let hand: u8 = match fields.get(key.as_str()) {
        Some(text) => text.parse().map_err(|_| format!("{key}: {text:?} is not a number of pawns"))?,
        None => 0,
    };
    let ours = board.by_color(color);
    let checkers = game.checkers.get(color).iter().filter(|c| c.square.is_some()).count();
    let pawns_and_promoted = (ours.count() - checkers) as u32;
    if pawns_and_promoted + u32::from(hand) > 8 {
        return Err(format!(
            "{} has {pawns_and_promoted} pawns and promoted pieces and {hand} pawns to take back: more than 8 pawns",
            fen::color_name(color)
        ));
    }
    *game.hands.get_mut(color) = hand;
    Ok(())
}

fn read_step(game: &mut CloakAndDagger, fields: &BTreeMap<&str, &str>, in_setup: bool) -> Result<(), String> {
    let bonus_for = fields.get("bonus-for").map(|c| parse_colour(c)).transpose()?;
    if in_setup {
        if fields.contains_key("step") || bonus_for.is_some() {
            return Err("a position with players still to place has no step or bonus-for".to_string());
        }
        game.step = Step::Setup;
        return Ok(());
    }
    let step = match fields.get("step").copied().unwrap_or("start") {
        "start" => Step::Start,
        "guessed-right" => Step::Guessed { correct: true },
        "guessed-wrong" => Step::Guessed { correct: false },
        "bonus" => Step::Bonus,
        "uncloak" => Step::Uncloak,
        other => {
            return Err(format!(
                "unknown step {other:?}: expected start, guessed-right, guessed-wrong, bonus or uncloak"
            ))
        }
    };
    let turn = game.pos.turn();
    let fits = match (step, bonus_for) {
        (Step::Start, None | Some(_)) => bonus_for.is_none_or(|c| c == turn),
        (Step::Guessed { correct: false }, Some(c)) => c != turn,
        (Step::Guessed { correct: false }, None) => false,
        (Step::Guessed { correct: true } | Step::Bonus, b) => b.is_none(),
        (Step::Uncloak, b) => b.is_none_or(|c| c != turn),
        (Step::Setup, _) => false,
    };
    if !fits {
        return Err(format!(
            "bonus-for does not fit step {}: at the start of a turn only the side to move may be owed a bonus \
             move; after a wrong guess it is the opponent, after a right one nobody",
            step_name(step)
        ));
    }
    game.step = step;
    game.bonus_for = bonus_for;
    Ok(())
}

/// Kings captured, and the position the side to move faces.
fn judge_read_position(game: &mut CloakAndDagger, story: &mut Journal) -> Result<(), String> {
    if game.step == Step::Setup {
        return Ok(());
    }
    let kings: Vec<Color> = Color::ALL.into_iter().filter(|&c| game.pos.king_of(c).is_some()).collect();
    match kings.as_slice() {
        [] => return Err("both kings are missing".to_string()),
        [winner] => {
            game.outcome = Some(chesskit_core::game::Outcome::win(vec![super::seat_of(*winner)], "king captured"));
            return Ok(());
        }
        _ => {}
    }
    if matches!(game.step, Step::Guessed { .. }) && !game.has_regular_move() {
        return Err("after a guess the side to move must have a move to make".to_string());
    }
    if game.step == Step::Start {
        game.repetition = vec![game.repetition_key()];
        game.judge_start_of_turn(story);
    }
    Ok(())
}
