//! The captures the face-up line allows: which pieces may take which
//! (read from the line once per position), the legal captures of a board,
//! and how many steps each move makes with its cards. Step 3 and perft
//! both count through these.
//!
//! "You can only make a capturing move if a card like the capturing piece
//! is beside a card like the captured piece in the face-up line."

use chesskit_core::cards::{Card, Suit};
use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Position, Role, Square};
use shakmaty::attacks;

/// The index of a (capturing, captured) pair of piece types, 0 to 35.
fn pair_index(capturer: Role, victim: Role) -> usize {
    (capturer as usize - 1) * 6 + (victim as usize - 1)
}

/// The bit of a (capturing, captured) pair of piece types.
fn pair_bit(capturer: Role, victim: Role) -> u64 {
    1 << pair_index(capturer, victim)
}

/// A piece as a small number: its colour (Black 0, White 1) times 8 plus
/// its role (1 to 6); 0 for a card that is no piece.
type PieceCode = u8;

/// The piece code of every card rank (0 to 15) of every suit, worked out
/// at compile time from the deck's meanings ([`Card::piece`]), so that
/// reading a card is one table lookup with nothing to initialise first.
const PIECE_CODES: [[PieceCode; 16]; 4] = {
    let mut codes = [[0; 16]; 4];
    let mut suit = 0;
    while suit < 4 {
        let mut rank = 0;
        while rank < 16 {
            if let Some(piece) = Card::new(rank, Suit::ALL[suit]).piece() {
                codes[suit][rank as usize] = (piece.color as u8) << 3 | piece.role as u8;
            }
            rank += 1;
        }
        suit += 1;
    }
    codes
};

/// The piece codes of the cards of `line`, by place (0 past its end).
fn codes_of(line: &[Card]) -> [PieceCode; LINE] {
    let mut codes = [0; LINE];
    for (code, &card) in codes.iter_mut().zip(line) {
        *code = piece_code(card);
    }
    codes
}

/// The piece code of `card`.
fn piece_code(card: Card) -> PieceCode {
    PIECE_CODES[card.suit as usize][usize::from(card.rank & 15)]
}

/// What the line allows the side to move, read once: for each
/// (capturing, captured) pair of piece types, how many cards a capture
/// may send to the discard pile (the cards [`super::capture_cards`]
/// finds), and what a promotion's choices depend on.
#[derive(Clone, Copy, Debug)]
pub(super) struct LineFacts {
    cards: [u8; 36],
    /// The pairs with at least one card, as [`pair_bit`]s.
    pub pairs: u64,
    /// The cards like a pawn of the side to move (a promotion discards one).
    pawn_cards: u8,
    len: u8,
}

/// The most cards a line holds: the whole deck.
pub(super) const LINE: usize = 32;

impl LineFacts {
    /// Read `line` for `us`: a card of the other colour counts once for
    /// each type of `us`'s pieces whose card lies beside it.
    pub fn read(line: &[Card], us: Color) -> LineFacts {
        LineFacts::from_codes(codes_of(line), line.len().min(LINE), us)
    }

    #[inline]
    fn from_codes(codes: [PieceCode; LINE], len: usize, us: Color) -> LineFacts {
        let mut facts = LineFacts { cards: [0; 36], pairs: 0, pawn_cards: 0, len: len as u8 };
        let mut pawn_cards = 0;
        let mut pairs = 0;
        let cards = &mut facts.cards;
        each_pair(
            len,
            |i| codes[i],
            us,
            |role| pawn_cards += u8::from(role == Role::Pawn as u8),
            |pair, _| {
                cards[pair] += 1;
                pairs |= 1 << pair;
            },
        );
        facts.pawn_cards = pawn_cards;
        facts.pairs = pairs;
        facts
    }

    /// The steps move `m` makes with its cards: one per card a capture may
    /// discard; for a promotion, one per pawn card and place of the new
    /// piece's card (none if `promotable` says no card of the new piece is
    /// in the discard pile). As [`super::Cooperative2Game::chess_steps`]
    /// lists them.
    pub fn steps_of(&self, m: Move, promotable: impl Fn(Role) -> bool) -> u64 {
        let (cards, promotion) = match m {
            Move::Normal { capture: None, promotion: None, .. } | Move::Castle { .. } | Move::Put { .. } => return 1,
            Move::Normal { role, capture: Some(victim), promotion, .. } => {
                (u64::from(self.cards[pair_index(role, victim)]), promotion)
            }
            Move::Normal { capture: None, promotion, .. } => (1, promotion),
            Move::EnPassant { .. } => return u64::from(self.cards[pair_index(Role::Pawn, Role::Pawn)]),
        };
        match promotion {
            None => cards,
            Some(_) if cards == 0 => 0,
            Some(role) if promotable(role) => {
                // The line once the captured piece's card has left it.
                let places = u64::from(self.len) - u64::from(m.is_capture());
                cards * u64::from(self.pawn_cards) * places
            }
            Some(_) => 0,
        }
    }
}

/// Walk the line of `len` cards whose piece codes `code` gives by place:
/// each card of `us`'s colour to `own(role)`, and each card of the other
/// colour once for each type of `us`'s pieces whose card lies beside it,
/// to `found(pair, i)` with the (capturing, captured) pair's index and the
/// card's place.
#[inline(always)]
fn each_pair(
    len: usize,
    code: impl Fn(usize) -> PieceCode,
    us: Color,
    mut own: impl FnMut(u8),
    mut found: impl FnMut(usize, usize),
) {
    let ours = (us as u8) << 3;
    // The role of a piece of `us` (0 for a card of the other colour).
    let our_role = |code: PieceCode| if code & 8 == ours { code & 7 } else { 0 };
    for i in 0..len {
        let here = code(i);
        let role = here & 7;
        if here & 8 == ours {
            own(role);
            continue;
        }
        if role == 0 {
            continue;
        }
        let left = if i > 0 { our_role(code(i - 1)) } else { 0 };
        let right = if i + 1 < len { our_role(code(i + 1)) } else { 0 };
        for capturer in [left, if right == left { 0 } else { right }] {
            if capturer != 0 {
                found(usize::from(capturer - 1) * 6 + usize::from(role - 1), i);
            }
        }
    }
}

/// The captures open to the side to move of `pos` that `pairs` allow:
/// legal chess captures, en passant included, and the capture of the
/// enemy king whatever it leaves. Legality is read from the pins and
/// checks of the board once, at the first capture found, not by playing
/// each capture (en passant excepted): [`Legality`].
pub(super) fn legal_captures_on(pos: &Position, pairs: u64, moves: &mut MoveList) {
    moves.clear();
    if pairs == 0 {
        return;
    }
    let us = pos.turn();
    let board = pos.board();
    // Squares off the board block long-range pieces as pieces do.
    let blockers = board.occupied() | !pos.mask();
    let geometry = pos.geometry();
    let last_rank = geometry.promotion_rank(us).map_or(Bitboard::EMPTY, Bitboard::from_rank);
    let their_king = board.by_piece(Role::King.of(us.other()));
    let mut legality = None;
    for (_, role, row) in capturer_rows(pairs) {
        let ours = board.by_piece(role.of(us));
        let victims = victims_in_row(board, us, row);
        if ours.is_empty() || victims.is_empty() {
            continue;
        }
        if role == Role::Pawn && !pawn_attacks_of(us, ours).intersects(victims) {
            continue;
        }
        for from in ours {
            if !may_reach(role, from, victims) {
                continue;
            }
            let targets = attacks_unclipped(role, us, from, blockers) & victims;
            if targets.is_empty() {
                continue;
            }
            let legal = legality.get_or_insert_with(|| Legality::read(pos));
            for to in legal.targets(pos, role, from, targets) | (targets & their_king) {
                let capture = board.role_at(to);
                if role == Role::Pawn && last_rank.contains(to) {
                    for promotion in geometry.promotions.iter() {
                        moves.push(Move::Normal { role, from, capture, to, promotion: Some(promotion) });
                    }
                } else {
                    moves.push(Move::Normal { role, from, capture, to, promotion: None });
                }
            }
        }
    }
    en_passant_on(pos, pairs, |m| moves.push(m));
}

/// The en passant captures open to the side to move of `pos` if `pairs`
/// allow pawn takes pawn, each given to `found` if it leaves the king
/// safe (played on a copy: the rare discovered check along the rank).
fn en_passant_on(pos: &Position, pairs: u64, mut found: impl FnMut(Move)) {
    let us = pos.turn();
    let board = pos.board();
    if let Some(ep) =
        pos.ep_square().filter(|&ep| !board.occupied().contains(ep) && pairs & pair_bit(Role::Pawn, Role::Pawn) != 0)
    {
        for from in attacks::pawn_attacks(us.other(), ep) & board.by_piece(Role::Pawn.of(us)) {
            let m = Move::EnPassant { from, to: ep };
            if pos.leaves_king_safe(m) {
                found(m);
            }
        }
    }
}

/// The capturing piece types that `pairs` lets take something, in the
/// order of [`Role::ALL`], each with its index there and its row: the
/// six bits of its victims.
/// (Empty rows are skipped by the lowest set bit, not tested one by one.)
fn capturer_rows(pairs: u64) -> impl Iterator<Item = (usize, Role, u64)> {
    let mut rows = pairs;
    std::iter::from_fn(move || {
        if rows == 0 {
            return None;
        }
        let i = rows.trailing_zeros() as usize / 6;
        let row = (pairs >> (6 * i)) & 0x3f;
        rows &= !(0x3f << (6 * i));
        Some((i, Role::ALL[i], row))
    })
}

/// The pieces of the other colour a piece type of the side to move may
/// take, `row` its six bits of the pairs (bit v - 1 for victim role v).
fn victims_in_row(board: &Board, us: Color, row: u64) -> Bitboard {
    let them = board.by_color(us.other());
    let mut victims = Bitboard::EMPTY;
    let mut rest = row;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        victims |= board.by_role(Role::ALL[v]);
    }
    victims & them
}

/// What a capture's legality depends on, read once from a board: the
/// king of the side to move, the pieces pinned to it, and the squares a
/// piece other than the king may take on when it is in check (the single
/// checker; none in double check: a capture never stands between). A
/// king steps to a square no enemy attacks once it has left; another
/// piece stays on its pin line and, in check, takes the checker. (The
/// capture of the enemy king is legal whatever it leaves: the callers add
/// it.) Without a king every capture is legal.
struct Legality {
    king: Option<Square>,
    pinned: Bitboard,
    check_mask: Bitboard,
}

impl Legality {
    fn read(pos: &Position) -> Legality {
        let Some(king) = pos.king_of(pos.turn()) else {
            return Legality { king: None, pinned: Bitboard::EMPTY, check_mask: Bitboard::FULL };
        };
        let checkers = pos.checkers();
        let check_mask = match checkers.single_square() {
            _ if checkers.is_empty() => Bitboard::FULL,
            Some(checker) => Bitboard::from_square(checker),
            None => Bitboard::EMPTY,
        };
        Legality { king: Some(king), pinned: pos.pinned(), check_mask }
    }

    /// The squares among `targets` (enemy pieces a `role` on `from`
    /// attacks) it may legally take on, the enemy king's aside.
    fn targets(&self, pos: &Position, role: Role, from: Square, targets: Bitboard) -> Bitboard {
        let Some(king) = self.king else { return targets };
        if role == Role::King {
            let without_king = pos.board().occupied().without(king);
            let them = pos.turn().other();
            return targets.into_iter().filter(|&to| pos.attackers_to(to, them, without_king).is_empty()).collect();
        }
        let mut legal = targets & self.check_mask;
        if self.pinned.contains(from) {
            legal &= attacks::ray(king, from);
        }
        legal
    }
}

/// The lines a bishop (index 0) and a rook (1) on each square see on an
/// empty board, read from shakmaty's attacks at compile time so that
/// [`may_reach`] reads a plain table rather than the magic ones.
const LINES: [[u64; 64]; 2] = {
    let mut lines = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        lines[0][sq as usize] = attacks::bishop_attacks(Square::new(sq), Bitboard::EMPTY).0;
        lines[1][sq as usize] = attacks::rook_attacks(Square::new(sq), Bitboard::EMPTY).0;
        sq += 1;
    }
    lines
};

/// Whether a piece of type `role` on `sq` may attack one of `victims`
/// with some pieces in between: false when none lies on its lines (a
/// long-range piece, one table read and no magic lookup of what blocks it:
/// most long-range pieces have nothing on their lines to take); true for
/// the others, whose attacks are one table read anyway.
#[inline]
fn may_reach(role: Role, sq: Square, victims: Bitboard) -> bool {
    let lines = match role {
        Role::Bishop => LINES[0][sq as usize],
        Role::Rook => LINES[1][sq as usize],
        Role::Queen => LINES[0][sq as usize] | LINES[1][sq as usize],
        _ => return true,
    };
    lines & victims.0 != 0
}

/// The squares a piece of type `role` of colour `us` on `sq` attacks,
/// `blockers` the pieces on the board and the squares off it: what
/// [`Position::piece_attacks`] gives before it clips them to the board,
/// without its call and its match on the piece. Intersected with pieces
/// (which stand on the board) it gives what the clipped squares give.
#[inline]
fn attacks_unclipped(role: Role, us: Color, sq: Square, blockers: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn_attacks(us, sq),
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, blockers),
        Role::Rook => attacks::rook_attacks(sq, blockers),
        Role::Queen => attacks::queen_attacks(sq, blockers),
        Role::King => attacks::king_attacks(sq),
    }
}

/// The squares the pawns `pawns` of `colour` attack, all at once.
fn pawn_attacks_of(colour: Color, pawns: Bitboard) -> Bitboard {
    let [west, east] = pawn_diagonals(colour, pawns);
    west | east
}

/// The squares the pawns `pawns` of `colour` attack towards the a file,
/// then towards the h file: each pawn attacks at most one square of each.
fn pawn_diagonals(colour: Color, pawns: Bitboard) -> [Bitboard; 2] {
    let forward = colour.fold_wb(8, -8);
    let west = pawns & !Bitboard::from_file(shakmaty::File::A);
    let east = pawns & !Bitboard::from_file(shakmaty::File::H);
    [west.shift(forward - 1), east.shift(forward + 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines a long-range piece sees on an empty board, worked out at
    /// compile time, are shakmaty's attacks with no blockers, and
    /// `may_reach` says no only where the attacks with blockers miss too.
    #[test]
    fn lines_on_an_empty_board_are_the_attacks_with_nothing_in_between() {
        for sq in Square::ALL {
            assert_eq!(Bitboard(LINES[0][sq as usize]), attacks::bishop_attacks(sq, Bitboard::EMPTY), "{sq}");
            assert_eq!(Bitboard(LINES[1][sq as usize]), attacks::rook_attacks(sq, Bitboard::EMPTY), "{sq}");
        }
        let blockers = Bitboard(0x0042_1800_2400_8100);
        for role in [Role::Bishop, Role::Rook, Role::Queen, Role::Knight] {
            for sq in Square::ALL {
                for victim in Square::ALL {
                    let victims = Bitboard::from_square(victim);
                    let attacked = attacks_unclipped(role, Color::White, sq, blockers).intersects(victims);
                    assert!(may_reach(role, sq, victims) || !attacked, "{role:?} on {sq} to {victim}");
                }
            }
        }
    }
}
