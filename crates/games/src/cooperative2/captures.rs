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
    /// For each pair, the positions of those cards as a bit set
    /// ([`LineFacts::cards_of`]).
    card_sets: [u32; 36],
    /// The pairs with at least one card, as [`pair_bit`]s.
    pub pairs: u64,
    /// The cards like a pawn of the side to move (a promotion discards one).
    pawn_cards: u8,
    len: u8,
    /// The line's pieces, as [`PieceCode`]s.
    codes: [PieceCode; LINE],
    us: Color,
}

/// The most cards a line holds: the whole deck.
pub(super) const LINE: usize = 32;

impl LineFacts {
    /// Read `line` for `us`: a card of the other colour counts once for
    /// each type of `us`'s pieces whose card lies beside it.
    pub fn read(line: &[Card], us: Color) -> LineFacts {
        LineFacts::from_codes(codes_of(line), line.len().min(LINE), us)
    }

    /// These facts once the card at `removed` has left the line.
    pub fn without(&self, removed: usize) -> LineFacts {
        let mut codes = self.codes;
        let len = usize::from(self.len);
        codes.copy_within(removed + 1..len, removed);
        LineFacts::from_codes(codes, len - 1, self.us)
    }

    /// The pairs the line would allow once the card at `removed` has left
    /// it: [`LineFacts::without`]'s `pairs`, without counting its cards.
    pub fn pairs_without(&self, removed: usize) -> u64 {
        let mut pairs = 0;
        let code = |i: usize| self.codes[i + usize::from(i >= removed)];
        each_pair(usize::from(self.len) - 1, code, self.us, |_| {}, |pair, _| pairs |= 1 << pair);
        pairs
    }

    #[inline]
    fn from_codes(codes: [PieceCode; LINE], len: usize, us: Color) -> LineFacts {
        let mut facts =
            LineFacts { cards: [0; 36], card_sets: [0; 36], pairs: 0, pawn_cards: 0, len: len as u8, codes, us };
        let mut pawn_cards = 0;
        let mut pairs = 0;
        let (cards, card_sets) = (&mut facts.cards, &mut facts.card_sets);
        each_pair(
            len,
            |i| codes[i],
            us,
            |role| pawn_cards += u8::from(role == Role::Pawn as u8),
            |pair, i| {
                cards[pair] += 1;
                card_sets[pair] |= 1 << i;
                pairs |= 1 << pair;
            },
        );
        facts.pawn_cards = pawn_cards;
        facts.pairs = pairs;
        facts
    }

    /// The positions of the cards a capture by a `capturer` of a `victim`
    /// may send to the discard pile, as a bit set ([`super::capture_cards`]).
    pub fn cards_of(&self, capturer: Role, victim: Role) -> u64 {
        u64::from(self.card_sets[pair_index(capturer, victim)])
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

/// What a line allows once one more card is played to its end, for each
/// card of a hand in turn: read once for all the cards that stand for the
/// same piece (the facts hold the pieces of the line, not the cards).
pub(super) struct LinesWithCard {
    /// The line's piece codes, read once, and its length.
    codes: [PieceCode; LINE],
    len: usize,
    us: Color,
    last: Option<(PieceCode, LineFacts)>,
}

impl LinesWithCard {
    pub fn new(line: &[Card], us: Color) -> LinesWithCard {
        LinesWithCard { codes: codes_of(line), len: line.len().min(LINE - 1), us, last: None }
    }

    /// The facts of the line with `card` at its end, for the side `us`.
    pub fn with(&mut self, card: Card) -> &LineFacts {
        let code = piece_code(card);
        if self.last.as_ref().is_none_or(|(last, _)| *last != code) {
            let mut codes = self.codes;
            codes[self.len] = code;
            self.last = Some((code, LineFacts::from_codes(codes, self.len + 1, self.us)));
        }
        &self.last.as_ref().expect("read above").1
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

/// Captures that promote nothing (en passant included), tallied by their
/// (capturing, captured) pair of piece types, so that their steps under
/// several lines are counted without walking them again: each makes as
/// many steps as the line has cards for its pair ([`LineFacts::steps_of`]).
#[derive(Clone, Copy)]
pub(super) struct PairTally {
    counts: [u32; 36],
    /// The pairs with a capture, as [`pair_bit`]s.
    pairs: u64,
}

impl PairTally {
    pub fn new() -> PairTally {
        PairTally { counts: [0; 36], pairs: 0 }
    }

    /// Tally `m` if it is a capture that promotes nothing; false (and
    /// nothing tallied) for any other move.
    pub fn add(&mut self, m: Move) -> bool {
        let pair = match m {
            Move::Normal { role, capture: Some(victim), promotion: None, .. } => pair_index(role, victim),
            Move::EnPassant { .. } => pair_index(Role::Pawn, Role::Pawn),
            _ => return false,
        };
        self.counts[pair] += 1;
        self.pairs |= 1 << pair;
        true
    }

    /// The steps the tallied captures make with the line read as `facts`:
    /// the sum of [`LineFacts::steps_of`] over them, each capture of a
    /// pair making the line's cards for that pair (none where the line
    /// has none: those pairs are not in `facts.pairs`).
    pub fn steps(&self, facts: &LineFacts) -> u64 {
        let mut rest = self.pairs & facts.pairs;
        let mut steps = 0;
        while rest != 0 {
            let pair = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            steps += u64::from(self.counts[pair]) * u64::from(facts.cards[pair]);
        }
        steps
    }
}

/// The captures open to the side to move of `pos` that `pairs` allow:
/// legal chess captures, en passant included, and the capture of the
/// enemy king whatever it leaves. Legality is read from the pins and
/// checks of the board once, at the first capture found, not by playing
/// each capture (en passant excepted): [`Legality`].
pub(super) fn legal_captures_on(pos: &Position, pairs: u64, moves: &mut MoveList) {
    legal_captures_with(pos, pairs, Checks::Read, moves);
}

/// Whether the king of the side to move may stand in check: read from the
/// board, or known to stand safe because the side has just made a legal
/// chess move (as in step 3 after the turn's moves: "No move may put or
/// leave your own king in check"), which saves looking for checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Checks {
    Read,
    NoneAfterLegalMove,
}

/// [`legal_captures_on`], with what is known of checks (`checks`).
pub(super) fn legal_captures_with(pos: &Position, pairs: u64, checks: Checks, moves: &mut MoveList) {
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
            let legal = legality.get_or_insert_with(|| Legality::read(pos, checks));
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
    fn read(pos: &Position, checks: Checks) -> Legality {
        let Some(king) = pos.king_of(pos.turn()) else {
            return Legality { king: None, pinned: Bitboard::EMPTY, check_mask: Bitboard::FULL };
        };
        debug_assert!(checks == Checks::Read || pos.checkers().is_empty(), "in check after a legal move");
        let checkers = if checks == Checks::Read { pos.checkers() } else { Bitboard::EMPTY };
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

/// The steps step 3's captures make on `pos` with the line read as
/// `facts` (`promotable` saying which pieces a pawn may become, `checks`
/// what is known of checks): what [`legal_captures_with`] lists, each
/// counted by [`LineFacts::steps_of`], without listing them. `moves` is
/// scratch space.
///
/// It gives exactly the listed count: each legal capture is a pair of a
/// piece of a capturing type and a piece of the other colour on one of
/// its attacked squares, counted once per card its pair of types may
/// discard (`facts.cards`), the steps [`LineFacts::steps_of`] gives a
/// capture that does not promote; legality is the same [`Legality`]
/// [`legal_captures_on`] filters by, and en passant the same test. Pawns
/// are counted all at once, one diagonal at a time (each pawn takes at
/// most once along each; the pinned ones one by one). A pawn taking onto
/// the last rank (whose steps depend on the promotion's cards) has the
/// captures listed and counted as step 3 does. Tested against the listed
/// count by `captures_counted_without_listing_them_are_the_captures_listed`.
pub(super) fn capture_steps_on(
    pos: &Position,
    facts: &LineFacts,
    checks: Checks,
    promotable: impl Fn(Role) -> bool,
    moves: &mut MoveList,
) -> u64 {
    if facts.pairs == 0 {
        return 0;
    }
    let us = pos.turn();
    let them = us.other();
    let board = pos.board();
    let occupied = board.occupied();
    let their_king = board.by_piece(Role::King.of(them));
    let mut legality = None;
    let mut steps = 0;
    for (i, role, row) in capturer_rows(facts.pairs) {
        let ours = board.by_piece(role.of(us));
        let victims = victims_in_row(board, us, row);
        if ours.is_empty() || victims.is_empty() {
            continue;
        }
        // The captures among `targets`, each counted once per card.
        let weigh = |targets: Bitboard| -> u64 {
            let mut total = 0;
            let mut rest = row;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let taken = (targets & board.by_piece(Role::ALL[v].of(them))).count() as u64;
                total += taken * u64::from(facts.cards[6 * i + v]);
            }
            total
        };
        if role == Role::Pawn {
            let reach = pawn_attacks_of(us, ours) & victims;
            if reach.is_empty() {
                continue;
            }
            let last_rank = pos.geometry().promotion_rank(us).map_or(Bitboard::EMPTY, Bitboard::from_rank);
            if reach.intersects(last_rank) {
                // Promotions, whose steps depend on the cards: listed.
                legal_captures_with(pos, facts.pairs, checks, moves);
                return moves.iter().map(|&m| facts.steps_of(m, &promotable)).sum();
            }
            let legal = legality.get_or_insert_with(|| Legality::read(pos, checks));
            let [west, east] = pawn_diagonals(us, ours & !legal.pinned);
            let open = victims & (legal.check_mask | their_king);
            steps += weigh(west & open) + weigh(east & open);
            for from in ours & legal.pinned {
                let targets = pos.piece_attacks(from, role.of(us), occupied) & victims;
                steps += weigh(legal.targets(pos, role, from, targets) | (targets & their_king));
            }
            continue;
        }
        for from in ours {
            let targets = pos.piece_attacks(from, role.of(us), occupied) & victims;
            if targets.any() {
                let legal = legality.get_or_insert_with(|| Legality::read(pos, checks));
                steps += weigh(legal.targets(pos, role, from, targets) | (targets & their_king));
            }
        }
    }
    en_passant_on(pos, facts.pairs, |_| steps += u64::from(facts.cards[pair_index(Role::Pawn, Role::Pawn)]));
    steps
}

/// The pieces of the other colour each piece type of the side to move
/// may take by the line (`pairs`), indexed by role - 1.
fn victims_of(board: &Board, us: Color, pairs: u64) -> [Bitboard; 6] {
    let mut victims = [Bitboard::EMPTY; 6];
    for (i, _, row) in capturer_rows(pairs) {
        victims[i] = victims_in_row(board, us, row);
    }
    victims
}

/// Whether some piece of the side to move (`ours(role)` its pieces of a
/// type) attacks one of the `victims` of its type, with `occupied` the
/// pieces on the board: the pseudo-legal captures' test, en passant aside.
fn any_hit(pos: &Position, occupied: Bitboard, ours: impl Fn(Role) -> Bitboard, victims: &[Bitboard; 6]) -> bool {
    let us = pos.turn();
    for (role, &victims) in Role::ALL.iter().zip(victims) {
        if victims.is_empty() {
            continue;
        }
        let pieces = ours(*role);
        let hit = match role {
            Role::Pawn => pawn_attacks_of(us, pieces).intersects(victims),
            _ => pieces.into_iter().any(|from| pos.piece_attacks(from, role.of(us), occupied).intersects(victims)),
        };
        if hit {
            return true;
        }
    }
    false
}

/// The test of whether a move opens a capture the line allows, prepared
/// once for a position of step 2 or 3 and the line after the move (its
/// `pairs`): the pieces each type may take, which types of the side to
/// move have pieces, and the en passant square that may open.
/// [`CaptureTest::may_open`] then looks at the pieces' attacks after each
/// move without copying the position, so that most moves are settled by
/// a few bitboard operations. (Small, so that making one copies little:
/// the pieces of the side to move are read from the board when asked.)
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CaptureTest {
    /// The roles of the side to move that may take something, as bits
    /// 1 << (role - 1): those with something to take, and of those the
    /// ones with pieces on the board.
    victim_roles: u8,
    roles: u8,
    victims: [Bitboard; 6],
    occupied: Bitboard,
    /// The other colour's double step of its last turn (if pawn takes
    /// pawn is allowed and that pawn still stands in front of it): the
    /// square, the pawn's square, and the squares a pawn takes it from.
    en_passant: Option<(Square, Square, Bitboard)>,
}

/// A [`CaptureTest`] prepared for the moves that take nothing too
/// ([`QuietTest::quiet_may_open`]).
pub(super) struct QuietTest {
    pub test: CaptureTest,
    /// The squares a move from may open a capture (those the long-range
    /// pieces with something to take see; every square when a capture is
    /// open already)...
    danger_from: Bitboard,
    /// ... and by the moved piece's type (role - 1), the squares a move to
    /// may: from which a piece of that type would take one of its victims.
    danger_to: [Bitboard; 6],
}

/// The pieces of type index `i` (role - 1) of the side to move of `pos`.
fn ours_of(pos: &Position, i: usize) -> Bitboard {
    pos.board().by_piece(Role::ALL[i].of(pos.turn()))
}

impl CaptureTest {
    pub fn new(pos: &Position, pairs: u64, turn_ep: Option<Square>) -> CaptureTest {
        let board = pos.board();
        let us = pos.turn();
        let victims = victims_of(board, us, pairs);
        let (mut roles, mut victim_roles) = (0, 0);
        for (i, role) in Role::ALL.into_iter().enumerate() {
            if victims[i].any() {
                victim_roles |= 1 << i;
                if board.by_piece(role.of(us)).any() {
                    roles |= 1 << i;
                }
            }
        }
        let en_passant = turn_ep.filter(|_| pairs & pair_bit(Role::Pawn, Role::Pawn) != 0).and_then(|ep| {
            let pawn = ep.offset(us.fold_wb(-8, 8))?;
            (board.piece_at(pawn) == Some(Role::Pawn.of(us.other())))
                .then(|| (ep, pawn, attacks::pawn_attacks(us.other(), ep)))
        });
        CaptureTest { victim_roles, roles, victims, occupied: board.occupied(), en_passant }
    }

    /// This test made on another board, `pos`, that has the same pieces of
    /// the other colour, the same types of pieces of the side to move and
    /// the same en passant square open (as after another step that takes
    /// and promotes nothing): only the squares occupied are read again.
    pub fn on_board_of(&self, pos: &Position) -> CaptureTest {
        CaptureTest { occupied: pos.board().occupied(), ..self.clone() }
    }
}

impl QuietTest {
    /// [`CaptureTest::new`] prepared for [`QuietTest::quiet_may_open`] too.
    pub fn new(pos: &Position, pairs: u64, turn_ep: Option<Square>) -> QuietTest {
        let test = CaptureTest::new(pos, pairs, turn_ep);
        let us = pos.turn();
        let ours = |role: Role| ours_of(pos, role as usize - 1);
        let open_now = test.roles != 0 && any_hit(pos, test.occupied, ours, &test.victims);
        let ep_now = test
            .en_passant
            .is_some_and(|(ep, _, takers)| !test.occupied.contains(ep) && takers.intersects(ours(Role::Pawn)));
        if open_now || ep_now {
            return QuietTest { test, danger_from: Bitboard::FULL, danger_to: [Bitboard::EMPTY; 6] };
        }
        let mut danger_from = Bitboard::EMPTY;
        let mut danger_to = [Bitboard::EMPTY; 6];
        danger_to[0] = pawn_attacks_of(us.other(), test.victims[0]);
        // The other types with something to take (the rest have no victims
        // and no pieces in the test).
        let mut roles = test.victim_roles & !1;
        while roles != 0 {
            let i = roles.trailing_zeros() as usize;
            roles &= roles - 1;
            let role = Role::ALL[i];
            for square in test.victims[i] {
                // The squares from which a piece of this type would take it
                // (long-range: the lines to it as they stand; one through
                // the moved piece's square would have been open already).
                danger_to[i] |= pos.piece_attacks(square, role.of(us), test.occupied);
            }
            if matches!(role, Role::Bishop | Role::Rook | Role::Queen) {
                for from in ours(role) {
                    danger_from |= pos.piece_attacks(from, role.of(us), test.occupied);
                }
            }
        }
        if let Some((ep, _, takers)) = test.en_passant {
            danger_to[0] |= takers;
            danger_from.add(ep);
        }
        QuietTest { test, danger_from, danger_to }
    }

    /// [`CaptureTest::may_open`] for a move that takes nothing and
    /// promotes nothing, by a `role` from `from` to `to`: when nothing can
    /// be taken now, only the moved piece can take, from its new square,
    /// and a line can open only from a square a long-range piece sees; en
    /// passant only if a pawn comes beside its square.
    pub fn quiet_may_open(&self, role: Role, from: Square, to: Square) -> bool {
        self.danger_from.contains(from) || self.danger_to[role as usize - 1].contains(to)
    }
}

impl CaptureTest {
    /// [`CaptureTest::may_open`] for a capture that promotes nothing, by a
    /// `role` from `from` taking on `to`, without the general case's
    /// bookkeeping: the capturing piece stands on `to` (which stays
    /// occupied) and has left `from`, the piece taken is gone from the
    /// victims, and each type with something to take is tested as there
    /// (none when its victims are gone). With a double step open to pawn
    /// takes pawn the general test answers.
    #[inline]
    pub fn may_open_after_capture(&self, pos: &Position, role: Role, from: Square, to: Square) -> bool {
        if self.en_passant.is_some() {
            let capture = pos.board().role_at(to);
            return self.may_open(pos, Move::Normal { role, from, capture, to, promotion: None });
        }
        // Squares off the board block long-range pieces as pieces do.
        let blockers = self.occupied.without(from) | !pos.mask();
        let us = pos.turn();
        let moved = role as usize - 1;
        let mut roles = self.roles | ((1 << moved) & self.victim_roles);
        while roles != 0 {
            let i = roles.trailing_zeros() as usize;
            roles &= roles - 1;
            let victims = self.victims[i].without(to);
            if victims.is_empty() {
                continue;
            }
            let mut pieces = ours_of(pos, i);
            if i == moved {
                pieces.discard(from);
                pieces.add(to);
            }
            if i == 0 {
                if pawn_attacks_of(us, pieces).intersects(victims) {
                    return true;
                }
                continue;
            }
            let role = Role::ALL[i];
            if pieces
                .into_iter()
                .any(|sq| may_reach(role, sq, victims) && attacks_unclipped(role, us, sq, blockers).intersects(victims))
            {
                return true;
            }
        }
        false
    }

    /// Whether a capture may be open to the side to move of `pos` once it
    /// has made its move `m` (the turn staying with it, as in step 3),
    /// before any test of legality: false means step 3 opens no capture.
    /// Castling is left to the exact count (true).
    pub fn may_open(&self, pos: &Position, m: Move) -> bool {
        let (role, after, from, to, taken) = match m {
            Move::Normal { role, from, to, capture, promotion } => {
                (role, promotion.unwrap_or(role), from, to, capture.map(|_| to))
            }
            Move::EnPassant { from, to } => {
                (Role::Pawn, Role::Pawn, from, to, Some(Square::from_coords(to.file(), from.rank())))
            }
            Move::Castle { .. } | Move::Put { .. } => return true,
        };
        let mut occupied = self.occupied.without(from).with(to);
        if let Some(taken) = taken {
            occupied.discard(taken);
            occupied.add(to);
        }
        let ours = |i: usize| {
            let mut set = ours_of(pos, i);
            if i == role as usize - 1 {
                set.discard(from);
            }
            if i == after as usize - 1 {
                set.add(to);
            }
            set
        };
        if let Some((ep, pawn, takers)) = self.en_passant {
            // Open while the pawn that double-stepped stands in front of it.
            if Some(pawn) != taken && !occupied.contains(ep) && takers.intersects(ours(0)) {
                return true;
            }
        }
        let us = pos.turn();
        // The moved piece may now take something of its new type.
        let mut roles = self.roles | ((1 << (after as usize - 1)) & self.victim_roles);
        while roles != 0 {
            let i = roles.trailing_zeros() as usize;
            roles &= roles - 1;
            let mut victims = self.victims[i];
            if let Some(taken) = taken {
                victims.discard(taken);
            }
            let pieces = ours(i);
            let hit = match i {
                0 => pawn_attacks_of(us, pieces).intersects(victims),
                _ => {
                    let piece = Role::ALL[i].of(us);
                    pieces.into_iter().any(|from| pos.piece_attacks(from, piece, occupied).intersects(victims))
                }
            };
            if hit {
                return true;
            }
        }
        false
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
