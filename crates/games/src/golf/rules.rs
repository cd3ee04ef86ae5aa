//! The puzzle rules of Chess Golf (rules.md, "Chess Golf" and "Special
//! Move"; docs/games/golf.md, "Rulings"): which moves a piece may borrow, the
//! special king's move, and which captures the chosen cards allow.
//!
//! A [`Puzzle`] is one puzzle in play: the pieces on the board, the chosen
//! cards, and (after the first capture) the piece that captured and the
//! cards still to capture. It is small and `Copy`, so the solver copies it
//! rather than undoing moves.

use std::fmt;
use std::str::FromStr;

use shakmaty::attacks::king_attacks;
use shakmaty::{Bitboard, Color, Piece, Role, Square};

/// The five piece types of Chess Golf (no pawns), in the order we print them.
pub const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A piece's kind as a number 0..12: colour (white 0, black 1) times 6 plus role.
fn kind(piece: Piece) -> u32 {
    piece.color.fold_wb(0, 6) + piece.role as u32 - 1
}

fn piece_of_kind(kind: u32) -> Piece {
    let color = if kind < 6 { Color::White } else { Color::Black };
    let role = Role::ALL[(kind % 6) as usize];
    Piece { color, role }
}

/// A piece in words: "white king", "black bishop".
pub fn piece_name(piece: Piece) -> String {
    format!("{} {}", piece.color.fold_wb("white", "black"), chesskit_core::chess::diagram::role_name(piece.role))
}

/// The chosen cards: a multiset of pieces (type and colour), 4 bits of
/// count per kind. Also used for the cards still to capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cards(u64);

impl Cards {
    pub const EMPTY: Cards = Cards(0);

    pub fn from_pieces(pieces: impl IntoIterator<Item = Piece>) -> Cards {
        let mut cards = Cards::EMPTY;
        for piece in pieces {
            cards.add(piece);
        }
        cards
    }

    pub fn count(self, piece: Piece) -> u32 {
        ((self.0 >> (4 * kind(piece))) & 15) as u32
    }

    pub fn contains(self, piece: Piece) -> bool {
        self.count(piece) > 0
    }

    /// Add one card (at most 15 of a kind, far more than a deck holds).
    pub fn add(&mut self, piece: Piece) {
        if self.count(piece) < 15 {
            self.0 += 1 << (4 * kind(piece));
        }
    }

    /// Remove one card; false if there was none of that kind.
    pub fn remove(&mut self, piece: Piece) -> bool {
        if self.contains(piece) {
            self.0 -= 1 << (4 * kind(piece));
            true
        } else {
            false
        }
    }

    pub fn without(mut self, piece: Piece) -> Cards {
        self.remove(piece);
        self
    }

    pub fn len(self) -> u32 {
        (0..12).map(|k| ((self.0 >> (4 * k)) & 15) as u32).sum()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards one by one, white first, K Q R B N within a colour.
    pub fn pieces(self) -> Vec<Piece> {
        let mut out = Vec::new();
        for color in [Color::White, Color::Black] {
            for role in ROLES {
                let piece = Piece { color, role };
                for _ in 0..self.count(piece) {
                    out.push(piece);
                }
            }
        }
        out
    }

    /// The distinct kinds present.
    pub fn kinds(self) -> impl Iterator<Item = Piece> {
        (0..12).filter(move |k| (self.0 >> (4 * k)) & 15 != 0).map(piece_of_kind)
    }

    /// The cards in words: "white king, black bishop".
    pub fn describe(self) -> String {
        let names: Vec<String> = self.pieces().into_iter().map(piece_name).collect();
        if names.is_empty() {
            "nothing".to_string()
        } else {
            names.join(", ")
        }
    }

    pub(crate) fn bits(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Cards {
    /// FEN letters, white first: `Kb`, `nnr`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in self.pieces() {
            write!(f, "{}", piece.char())?;
        }
        Ok(())
    }
}

impl FromStr for Cards {
    type Err = String;

    /// FEN letters, spaces and commas allowed: `Kb`, `K b`, `n,n,r`.
    fn from_str(text: &str) -> Result<Cards, String> {
        let mut cards = Cards::EMPTY;
        for c in text.chars().filter(|c| !c.is_whitespace() && *c != ',') {
            cards.add(golf_piece(c)?);
        }
        Ok(cards)
    }
}

/// A piece letter of Chess Golf: K Q R B N for White, k q r b n for Black.
pub fn golf_piece(c: char) -> Result<Piece, String> {
    match Piece::from_char(c) {
        Some(piece) if piece.role == Role::Pawn => Err(format!("'{c}' is a pawn, and Chess Golf uses no pawns")),
        Some(piece) => Ok(piece),
        None => Err(format!("unknown piece letter '{c}' (expected K Q R B N, or k q r b n for black)")),
    }
}

/// The pieces on the board, packed 4 bits per square (0 empty, 1 + kind),
/// with bitboards by colour and role for the move rules.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    cells: [u64; 4],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 7],
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.cells == other.cells
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.cells.hash(state)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

fn ci(color: Color) -> usize {
    color.fold_wb(0, 1)
}

impl Board {
    pub fn empty() -> Board {
        Board { cells: [0; 4], by_color: [Bitboard::EMPTY; 2], by_role: [Bitboard::EMPTY; 7] }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let i = sq.to_usize();
        let code = (self.cells[i / 16] >> (4 * (i % 16))) & 15;
        (code != 0).then(|| piece_of_kind(code as u32 - 1))
    }

    /// Put `piece` on an empty square.
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.piece_at(sq).is_none());
        let i = sq.to_usize();
        self.cells[i / 16] |= (kind(piece) as u64 + 1) << (4 * (i % 16));
        self.by_color[ci(piece.color)].add(sq);
        self.by_role[piece.role as usize].add(sq);
    }

    /// Take the piece off `sq`, if any.
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        let i = sq.to_usize();
        self.cells[i / 16] &= !(15 << (4 * (i % 16)));
        self.by_color[ci(piece.color)].discard(sq);
        self.by_role[piece.role as usize].discard(sq);
        Some(piece)
    }

    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[ci(color)]
    }

    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_color(piece.color) & self.by_role(piece.role)
    }

    /// The squares of the pieces matching any card in `cards`.
    pub fn matching(&self, cards: Cards) -> Bitboard {
        cards.kinds().fold(Bitboard::EMPTY, |acc, piece| acc | self.by_piece(piece))
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().into_iter().map(|sq| (sq, self.piece_at(sq).expect("occupied")))
    }

    pub(crate) fn cells(&self) -> [u64; 4] {
        self.cells
    }

    /// Special Move: "if one of the colours has no pairs of pieces next to
    /// each other, then any piece of that colour may make a king's move."
    /// A colour with one piece or none has no pairs.
    pub fn has_no_pairs(&self, color: Color) -> bool {
        let b = self.by_color(color).0;
        const NOT_A: u64 = !0x0101_0101_0101_0101;
        const NOT_H: u64 = !0x8080_8080_8080_8080;
        let east = (b & NOT_H) << 1;
        let north = b << 8;
        let north_east = (b & NOT_H) << 9;
        let north_west = (b & NOT_A) << 7;
        b & (east | north | north_east | north_west) == 0
    }

    /// The moves the piece on `sq` may borrow: the roles of its same-colour
    /// neighbours (the eight surrounding squares).
    pub fn lender_roles(&self, sq: Square) -> Vec<(Square, Role)> {
        let Some(piece) = self.piece_at(sq) else { return Vec::new() };
        (king_attacks(sq) & self.by_color(piece.color))
            .into_iter()
            .map(|n| (n, self.piece_at(n).expect("occupied").role))
            .collect()
    }

    /// Every square the piece on `sq` can reach in one move, empty or not,
    /// ignoring the capture rule: the union of the moves borrowed from its
    /// same-colour neighbours (sliding moves blocked by any piece), or a
    /// king's move when its colour has no pairs. `no_pairs` is
    /// [`Board::has_no_pairs`] of the piece's colour, passed in because the
    /// solver computes it once per position.
    #[inline]
    pub fn reach_with(&self, sq: Square, color: Color, no_pairs: bool) -> Bitboard {
        if no_pairs {
            return king_attacks(sq);
        }
        let lenders = crate::borrowed::lenders(sq, self.by_color(color));
        crate::borrowed::borrowed_reach(sq, lenders, self.occupied(), |role| self.by_role(role))
    }

    /// [`Board::reach_with`] for the piece on `sq` (empty if there is none).
    pub fn reach(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(piece) => self.reach_with(sq, piece.color, self.has_no_pairs(piece.color)),
            None => Bitboard::EMPTY,
        }
    }
}

/// A move of Chess Golf: a piece from one square to another, written like
/// UCI (`e5g6`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GolfMove {
    pub from: Square,
    pub to: Square,
}

impl GolfMove {
    pub fn new(from: Square, to: Square) -> GolfMove {
        GolfMove { from, to }
    }
}

impl fmt::Display for GolfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl FromStr for GolfMove {
    type Err = String;

    /// `e5g6`; `e5-g6` and `e5xg6` are read too (one sign between the squares).
    fn from_str(text: &str) -> Result<GolfMove, String> {
        let bad = || format!("bad move {text:?}: write the from and to squares, like e5g6");
        let trimmed = text.trim().to_ascii_lowercase();
        if !trimmed.is_ascii() {
            return Err(bad());
        }
        let compact = match trimmed.len() {
            5 if matches!(&trimmed[2..3], "-" | "x") => format!("{}{}", &trimmed[..2], &trimmed[3..]),
            _ => trimmed,
        };
        if compact.len() != 4 {
            return Err(bad());
        }
        let from = compact[..2].parse::<Square>().map_err(|_| bad())?;
        let to = compact[2..].parse::<Square>().map_err(|_| bad())?;
        if from == to {
            return Err(format!("bad move {text:?}: a move must change square"));
        }
        Ok(GolfMove { from, to })
    }
}

/// One puzzle in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub board: Board,
    /// The chosen cards as dealt.
    pub chosen: Cards,
    /// The piece that captured first; only it may capture again.
    capturer: Option<Square>,
    /// The cards not yet used: before the first capture all the chosen
    /// cards; after it, the cards of the pieces still to capture.
    remaining: Cards,
    /// Whether the special king's move is in force (the book's rule; off
    /// only to study the book's problems, which were set without it).
    special_move: bool,
}

/// Why a move is refused, in words for `golf check` and the referee.
pub type MoveError = String;

impl Puzzle {
    /// A puzzle at its start: nothing captured yet.
    pub fn new(board: Board, chosen: Cards) -> Puzzle {
        Puzzle { board, chosen, capturer: None, remaining: chosen, special_move: true }
    }

    /// A puzzle part-way: `capturer` has captured and `remaining` are the
    /// cards still to capture.
    pub fn resume(board: Board, chosen: Cards, capturer: Square, remaining: Cards) -> Puzzle {
        Puzzle { board, chosen, capturer: Some(capturer), remaining, special_move: true }
    }

    /// The same puzzle without the special king's move: the rules the
    /// book's opening example and problems were apparently set under.
    pub fn without_special_move(mut self) -> Puzzle {
        self.special_move = false;
        self
    }

    pub fn special_move(&self) -> bool {
        self.special_move
    }

    /// Whether the pieces of `color` may make the special king's move now.
    #[inline]
    pub fn king_moves_for(&self, color: Color) -> bool {
        self.special_move && self.board.has_no_pairs(color)
    }

    pub fn capturer(&self) -> Option<Square> {
        self.capturer
    }

    pub fn remaining(&self) -> Cards {
        self.remaining
    }

    /// Solved when one chosen piece has captured a piece matching each of
    /// the other chosen cards.
    pub fn is_solved(&self) -> bool {
        self.capturer.is_some() && self.remaining.is_empty()
    }

    /// How many captures are still needed: each is one move at least.
    pub fn captures_needed(&self) -> u32 {
        match self.capturer {
            Some(_) => self.remaining.len(),
            None => self.remaining.len().saturating_sub(1),
        }
    }

    /// The pieces that may capture now: the capturer once there is one,
    /// else every piece matching a chosen card.
    pub fn capturers(&self) -> Bitboard {
        match self.capturer {
            Some(sq) => Bitboard::from_square(sq),
            None => self.board.matching(self.remaining),
        }
    }

    /// The pieces the piece on `from` (one of [`Puzzle::capturers`]) may
    /// capture: those matching the cards left once its own card is set aside.
    pub fn targets_of(&self, from: Square, piece: Piece) -> Bitboard {
        let cards = match self.capturer {
            Some(_) => self.remaining,
            None => self.remaining.without(piece),
        };
        self.board.matching(cards) & !Bitboard::from_square(from)
    }

    /// Whether the piece on `from` may capture the piece on `to` under the
    /// chosen cards (geometry aside).
    pub fn capture_allowed(&self, from: Square, to: Square) -> Result<(), MoveError> {
        let (Some(mover), Some(victim)) = (self.board.piece_at(from), self.board.piece_at(to)) else {
            return Err("there is nothing to capture".to_string());
        };
        if self.is_solved() {
            return Err("the puzzle is already solved".to_string());
        }
        match self.capturer {
            Some(capturer) if capturer != from => Err(format!(
                "only the piece that captured first (the {} on {capturer}) may capture",
                piece_name(self.board.piece_at(capturer).expect("the capturer is on the board"))
            )),
            Some(_) if !self.remaining.contains(victim) => Err(format!(
                "the {} on {to} is not a chosen piece still to capture (still to capture: {})",
                piece_name(victim),
                self.remaining.describe()
            )),
            Some(_) => Ok(()),
            None if !self.remaining.contains(mover) => Err(format!(
                "the {} on {from} is not a chosen piece, so it may not capture (chosen: {})",
                piece_name(mover),
                self.chosen.describe()
            )),
            None if !self.remaining.without(mover).contains(victim) => Err(format!(
                "a {} may only capture the other chosen pieces ({}), not the {} on {to}",
                piece_name(mover),
                self.remaining.without(mover).describe(),
                piece_name(victim)
            )),
            None => Ok(()),
        }
    }

    /// Every legal move, captures first.
    pub fn legal_moves(&self) -> Vec<GolfMove> {
        let mut captures = Vec::new();
        let mut quiet = Vec::new();
        let no_pairs = [self.king_moves_for(Color::White), self.king_moves_for(Color::Black)];
        let empty = !self.board.occupied();
        let capturers = self.capturers();
        for (from, piece) in self.board.pieces() {
            let reach = self.board.reach_with(from, piece.color, no_pairs[ci(piece.color)]);
            for to in reach & empty {
                quiet.push(GolfMove::new(from, to));
            }
            if capturers.contains(from) {
                for to in reach & self.targets_of(from, piece) {
                    captures.push(GolfMove::new(from, to));
                }
            }
        }
        captures.append(&mut quiet);
        captures
    }

    /// Whether `m` is legal here, and if not, why.
    pub fn check_move(&self, m: GolfMove) -> Result<(), MoveError> {
        let Some(piece) = self.board.piece_at(m.from) else {
            return Err(format!("there is no piece on {}", m.from));
        };
        if self.is_solved() {
            return Err("the puzzle is already solved".to_string());
        }
        let no_pairs = self.king_moves_for(piece.color);
        let reach = self.board.reach_with(m.from, piece.color, no_pairs);
        if !reach.contains(m.to) {
            return Err(self.explain_unreachable(m, piece, no_pairs));
        }
        if self.board.piece_at(m.to).is_some() {
            self.capture_allowed(m.from, m.to)?;
        }
        Ok(())
    }

    fn explain_unreachable(&self, m: GolfMove, piece: Piece, no_pairs: bool) -> MoveError {
        let name = piece_name(piece);
        if no_pairs {
            return format!(
                "no two {} pieces touch, so the {name} on {} may only make a king's move, and {} is not one king's step away",
                piece.color.fold_wb("white", "black"),
                m.from,
                m.to
            );
        }
        let lenders = self.board.lender_roles(m.from);
        if lenders.is_empty() {
            return format!(
                "the {name} on {} has no {} neighbour to borrow a move from",
                m.from,
                piece.color.fold_wb("white", "black")
            );
        }
        let mut roles: Vec<&str> = Vec::new();
        for (_, role) in &lenders {
            let word = match role {
                Role::King => "king",
                Role::Queen => "queen",
                Role::Rook => "rook",
                Role::Bishop => "bishop",
                Role::Knight => "knight",
                Role::Pawn => "pawn",
            };
            if !roles.contains(&word) {
                roles.push(word);
            }
        }
        let empty_board_reach = {
            let mut open = *self;
            for sq in self.board.occupied() {
                if sq != m.from && !lenders.iter().any(|(n, _)| *n == sq) {
                    open.board.take(sq);
                }
            }
            open.board.reach_with(m.from, piece.color, false)
        };
        if empty_board_reach.contains(m.to) {
            format!("the path from {} to {} is blocked", m.from, m.to)
        } else {
            format!("the {name} on {} may borrow only a {} move, and none reaches {}", m.from, roles.join(" or "), m.to)
        }
    }

    /// Play a move known to be legal.
    pub fn play_unchecked(&mut self, m: GolfMove) {
        let piece = self.board.take(m.from).expect("a legal move has a piece to move");
        if let Some(victim) = self.board.take(m.to) {
            if self.capturer.is_none() {
                self.remaining.remove(piece);
            }
            self.remaining.remove(victim);
            self.capturer = Some(m.to);
        } else if self.capturer == Some(m.from) {
            self.capturer = Some(m.to);
        }
        self.board.put(m.to, piece);
    }

    /// Play a move if it is legal.
    pub fn play(&mut self, m: GolfMove) -> Result<(), MoveError> {
        self.check_move(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// Whether a path is legal and solves the puzzle: `Ok` with the final
    /// puzzle, or the index of the first bad move and why.
    pub fn check_path(&self, path: &[GolfMove]) -> Result<Puzzle, PathError> {
        let mut puzzle = *self;
        for (index, &m) in path.iter().enumerate() {
            puzzle.play(m).map_err(|reason| PathError::BadMove { index, mv: m, reason })?;
        }
        if puzzle.is_solved() {
            Ok(puzzle)
        } else {
            Err(PathError::Unsolved {
                still: puzzle.captures_needed(),
                remaining: puzzle.remaining,
                captured: puzzle.capturer.is_some(),
            })
        }
    }
}

/// Why a path fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// Move number `index` (from 0) is illegal.
    BadMove { index: usize, mv: GolfMove, reason: MoveError },
    /// Every move is legal but the puzzle is not solved.
    Unsolved { still: u32, remaining: Cards, captured: bool },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::BadMove { index, mv, reason } => write!(f, "move {} ({mv}) is illegal: {reason}", index + 1),
            PathError::Unsolved { still, remaining, captured: true } => write!(
                f,
                "every move is legal, but the puzzle is not solved: {still} more capture{} needed ({} still to capture)",
                if *still == 1 { " is" } else { "s are" },
                remaining.describe()
            ),
            PathError::Unsolved { remaining, .. } => write!(
                f,
                "every move is legal, but the puzzle is not solved: nothing has been captured yet (chosen: {})",
                remaining.describe()
            ),
        }
    }
}
