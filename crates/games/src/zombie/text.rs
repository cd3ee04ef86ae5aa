//! The text position of Zombie Chess (docs/games/zombie.md): a FEN where a
//! zombie's letter is followed by `{z}`, then `key: value` lines for the
//! secret grids, the graveyard, the dust bin and a turn in progress.
//!
//! ```text
//! r1bqkbnr/pppp1ppp/2P{z}5/8/3nP3/8/PPP2PPP/RNBQKB1R w KQkq - 0 5
//! white burials: b2=P
//! black burials: g7=N
//! graveyard: N p
//! dust bin: -
//! ```

use chesskit_core::chess::fen::{self, parse_square, role_from_letter, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Bitboard, Color, File, Piece, Position, Rank, Role, Square};
use chesskit_core::game::GameError;

use super::turn::{ep_still_valid, Burials, Table};
use super::{colour_word, seat_of, Step};

/// Everything a text position holds.
pub struct Parts {
    pub table: Table,
    pub step: Step,
    pub burials: [Burials; 2],
    pub to_bury: Vec<Role>,
    pub dust_bin: Vec<Piece>,
}

const KEYS: [&str; 10] = [
    "white burials",
    "black burials",
    "graveyard",
    "dust bin",
    "step",
    "regular move",
    "zombies moved",
    "left",
    "to bury",
    "next en passant",
];

/// The text of a position.
pub fn write(parts: &Parts) -> String {
    let table = &parts.table;
    let pos = &table.pos;
    let markers: Markers = table.zombies.into_iter().map(|sq| (sq, "z".to_string())).collect();
    let mut lines = vec![fen::text_position_fen(pos, &markers, CastlingNotation::XFen)];
    for color in Color::ALL {
        let items: Vec<String> =
            parts.burials[seat_of(color)].iter().map(|(sq, role)| format!("{sq}={}", role.upper_char())).collect();
        lines.push(format!("{} burials: {}", colour_word(color), or_dash(items)));
    }
    let graveyard = graveyard(&parts.burials, &parts.to_bury, pos.turn());
    lines.push(format!("graveyard: {}", or_dash(graveyard.iter().map(|p| p.char().to_string()).collect())));
    lines.push(format!("dust bin: {}", or_dash(parts.dust_bin.iter().map(|p| p.char().to_string()).collect())));
    if parts.step == Step::Bury {
        lines.push("step: bury".to_string());
    }
    if table.regular_done {
        lines.push("regular move: made".to_string());
    }
    if table.moved.any() {
        lines.push(format!("zombies moved: {}", squares_text(table.moved)));
    }
    if table.left.any() {
        lines.push(format!("left: {}", squares_text(table.left)));
    }
    if !parts.to_bury.is_empty() {
        let letters: Vec<String> = parts.to_bury.iter().map(|r| r.upper_char().to_string()).collect();
        lines.push(format!("to bury: {}", letters.join(" ")));
    }
    if let Some(ep) = table.next_ep {
        lines.push(format!("next en passant: {ep}"));
    }
    lines.join("\n")
}

fn or_dash(items: Vec<String>) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(" ")
    }
}

fn squares_text(squares: Bitboard) -> String {
    squares.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(" ")
}

/// The graveyard: the pieces under each player's burials and the pieces
/// the player to move captured this turn, white pieces first, by role.
pub fn graveyard(burials: &[Burials; 2], to_bury: &[Role], mover: Color) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for color in Color::ALL {
        let burier = color.other();
        let mut roles: Vec<Role> = burials[seat_of(burier)].values().copied().collect();
        if burier == mover {
            roles.extend_from_slice(to_bury);
        }
        roles.sort();
        pieces.extend(roles.into_iter().map(|role| role.of(color)));
    }
    pieces
}

/// Read the FEN line. Its en passant square is checked here rather than by
/// the FEN reader: the square a pawn's double step started from may hold
/// a zombie that rose there as the pawn left it (a pawn on a burial), so
/// only the square itself must be empty, with the pawn just beyond it.
fn read_fen(fen_line: &str, validation: Validation) -> Result<(Position, Markers), String> {
    let (pos, markers) = crate::chess::parse_fen_with_turn_ep(fen_line, validation)?;
    if let Some(square) = pos.ep_square().filter(|&square| pos.board().occupied().contains(square)) {
        return Err(format!("en passant square {square} does not follow a pawn's double step"));
    }
    Ok((pos, markers))
}

/// Read a text position.
pub fn read(text: &str) -> Result<Parts, GameError> {
    let err = |message: String| GameError::new(message);
    let (fen_line, key_lines) = fen::split_text_position(text).map_err(err)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: false };
    let (pos, markers) = read_fen(fen_line, validation).map_err(err)?;
    let fields = key_lines.fields(&KEYS).map_err(err)?;
    let mover = pos.turn();
    let zombies = read_zombies(&markers, pos.board())?;
    let burials = [read_burials(fields.get("white burials"))?, read_burials(fields.get("black burials"))?];
    let to_bury = match fields.get("to bury") {
        None | Some(&"-") => Vec::new(),
        Some(value) => value.split_whitespace().map(read_buried_role).collect::<Result<_, _>>()?,
    };
    let dust_bin = match fields.get("dust bin") {
        None | Some(&"-") => Vec::new(),
        Some(value) => value.split_whitespace().map(read_piece).collect::<Result<_, _>>()?,
    };
    if let Some(value) = fields.get("graveyard") {
        let expected = graveyard(&burials, &to_bury, mover);
        let written: Vec<Piece> = match *value {
            "-" => Vec::new(),
            value => value.split_whitespace().map(read_piece).collect::<Result<_, _>>()?,
        };
        let mut sorted = written.clone();
        sorted.sort_by_key(|p| (p.color.fold_wb(0, 1), p.role));
        if sorted != expected {
            return Err(err(
                "the graveyard must hold exactly the buried pieces and those waiting to be buried".to_string()
            ));
        }
    }
    let step = match fields.get("step") {
        None | Some(&"move") => Step::Move,
        Some(&"bury") => Step::Bury,
        Some(other) => return Err(err(format!("bad step {other:?}: expected move or bury"))),
    };
    let regular_done = match fields.get("regular move") {
        None => false,
        Some(&"made") => true,
        Some(other) => return Err(err(format!("bad regular move {other:?}: expected made"))),
    };
    let moved = read_squares(fields.get("zombies moved"))?;
    let left = read_squares(fields.get("left"))?;
    let next_ep = match fields.get("next en passant") {
        None | Some(&"-") => None,
        Some(value) => Some(parse_square(value).ok_or_else(|| err(format!("bad en passant square {value:?}")))?),
    };
    let table = Table { pos, zombies, moved, left, regular_done, next_ep };
    check_turn_state(&table, step, &to_bury, &burials[seat_of(mover)])?;
    Ok(Parts { table, step, burials, to_bury, dust_bin })
}

/// Zombies are marked `{z}`; a king is never a zombie.
fn read_zombies(markers: &Markers, board: &chesskit_core::chess::Board) -> Result<Bitboard, GameError> {
    let mut zombies = Bitboard::EMPTY;
    for (&sq, text) in markers {
        if text != "z" {
            return Err(GameError::new(format!("unknown marker {{{text}}} on {sq}: Zombie Chess knows only {{z}}")));
        }
        match board.role_at(sq) {
            None => return Err(GameError::new(format!("the zombie marker on {sq} has no piece"))),
            Some(Role::King) => return Err(GameError::new(format!("the king on {sq} cannot be a zombie"))),
            Some(_) => zombies.add(sq),
        }
    }
    Ok(zombies)
}

/// `b2=P c6=N`: squares and the book's grid letters (either case).
fn read_burials(value: Option<&&str>) -> Result<Burials, GameError> {
    let mut burials = Burials::new();
    let Some(value) = value.filter(|v| **v != "-") else { return Ok(burials) };
    for item in value.split_whitespace() {
        let (sq, letter) =
            item.split_once('=').ok_or_else(|| GameError::new(format!("bad burial {item:?}: write it as b2=P")))?;
        let sq = parse_square(sq).ok_or_else(|| GameError::new(format!("bad burial square {sq:?}")))?;
        let role = read_buried_role(letter)?;
        if burials.insert(sq, role).is_some() {
            return Err(GameError::new(format!("two burials of one player under {sq}: one per square")));
        }
    }
    Ok(burials)
}

fn read_buried_role(letter: &str) -> Result<Role, GameError> {
    let mut chars = letter.chars();
    match (chars.next().and_then(role_from_letter), chars.next()) {
        (Some(role), None) if role != Role::King => Ok(role),
        _ => Err(GameError::new(format!("bad buried piece {letter:?}: expected P, N, B, R or Q"))),
    }
}

fn read_piece(letter: &str) -> Result<Piece, GameError> {
    let mut chars = letter.chars();
    match (chars.next().and_then(Piece::from_char), chars.next()) {
        (Some(piece), None) if piece.role != Role::King => Ok(piece),
        _ => Err(GameError::new(format!("bad piece {letter:?}: expected a FEN letter other than a king"))),
    }
}

fn read_squares(value: Option<&&str>) -> Result<Bitboard, GameError> {
    let mut squares = Bitboard::EMPTY;
    let Some(value) = value.filter(|v| **v != "-") else { return Ok(squares) };
    for name in value.split_whitespace() {
        squares.add(parse_square(name).ok_or_else(|| GameError::new(format!("bad square {name:?}")))?);
    }
    Ok(squares)
}

/// The turn in progress must be one the rules can reach.
fn check_turn_state(table: &Table, step: Step, to_bury: &[Role], burials: &Burials) -> Result<(), GameError> {
    let err = |m: &str| Err(GameError::new(m.to_string()));
    let pos = &table.pos;
    let board = pos.board();
    let mover = pos.turn();
    for color in Color::ALL {
        let king_home = Square::from_coords(File::E, color.backrank());
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        if rights.any() && (pos.king_of(color) != Some(king_home) || !rights.is_subset(Bitboard::CORNERS)) {
            return err("castling needs the king on the e-file and rooks in the corners");
        }
    }
    if pos.castling_rooks().intersects(table.zombies) {
        return err("a zombie rook has no castling right");
    }
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    if (board.pawns() & back_ranks & !table.zombies).any() {
        return err("only a zombie pawn can stand on the first or last rank");
    }
    let at_start = table.at_turn_start();
    let promoting =
        |color: Color| table.zombies & board.by_piece(color.pawn()) & Bitboard::from_rank(color.other().backrank());
    if promoting(mover).any() && !(step == Step::Move && at_start) {
        return err("a zombie pawn on its last rank is promoted before anything else in its owner's turn");
    }
    if promoting(mover.other()).any() && step != Step::Bury {
        return err("a zombie pawn of the player not to move can stand on its last rank only just after rising");
    }
    if !table.moved.is_subset(table.zombies & board.by_color(mover)) {
        return err("`zombies moved` must name squares of the mover's zombies");
    }
    if let Some(ep) = table.next_ep {
        if !ep_still_valid(board, ep, mover) || ep.rank() != mover.fold_wb(Rank::Third, Rank::Sixth) {
            return err(
                "`next en passant` must be the square behind a pawn of the mover that just advanced two squares",
            );
        }
    }
    if (table.regular_done || table.moved.any()) != table.left.any() {
        return err("`left` must name the squares left by the moves made this turn, and only then");
    }
    match step {
        Step::Bury => {
            if to_bury.is_empty() {
                return err("the bury step needs a piece `to bury`");
            }
            if !at_start {
                return err("in the bury step the moves are over: no `regular move`, `zombies moved` or `left`");
            }
            if !table.king_safe(burials, false) {
                return err("the player to move has left their king in check");
            }
        }
        Step::Move if at_start => {
            if !to_bury.is_empty() {
                return err("nothing has been captured yet this turn: no `to bury`");
            }
            if let Some(king) = pos.king_of(mover.other()) {
                if pos.is_attacked(king, mover) {
                    return err("the side not to move is in check");
                }
            }
            if table.next_ep.is_some() {
                return err("nothing has moved yet this turn: no `next en passant`");
            }
        }
        Step::Move => {
            if !table.king_safe(burials, false) {
                return err("the player to move has left their king in check (the zombies that would rise included)");
            }
        }
    }
    Ok(())
}
