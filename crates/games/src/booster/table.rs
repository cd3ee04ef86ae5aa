//! The board, the checkers under the pieces, and the moves they allow.
//!
//! "Chess pieces move normally, unless they are stacked on checkers": a
//! piece on its owner's checkers is boosted (after its regular move it may
//! step like a king, spending one checker per step); a piece on the
//! opponent's checkers is hobbled (pawns cannot move, other pieces move like
//! pawns, never two squares).

use chesskit_core::chess::notation::UciAction;
use chesskit_core::chess::{Bitboard, Board, Color, File, Move, MoveList, Piece, Position, Rank, Role, Square};
use shakmaty::{attacks, CastlingSide};

use crate::chess::one_step_around;

/// The checkers under each square: white and black counts. Opposite
/// checkers cancel at once, so at most one colour is ever above zero. The
/// squares holding each colour are kept as bitboards beside the counts, so
/// that the move generator finds boosted and hobbled pieces without
/// looking at all 64 squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stacks {
    white: [u8; 64],
    black: [u8; 64],
    /// The squares with white checkers, then black checkers.
    holding: [Bitboard; 2],
}

impl Default for Stacks {
    fn default() -> Stacks {
        Stacks { white: [0; 64], black: [0; 64], holding: [Bitboard::EMPTY; 2] }
    }
}

impl Stacks {
    /// The checkers of `color` under `sq`.
    pub fn get(&self, sq: Square, color: Color) -> u32 {
        u32::from(match color {
            Color::White => self.white[sq as usize],
            Color::Black => self.black[sq as usize],
        })
    }

    /// Keep the bitboard of `sq` in step with its counts.
    fn mark(&mut self, sq: Square) {
        self.holding[0].set(sq, self.white[sq as usize] > 0);
        self.holding[1].set(sq, self.black[sq as usize] > 0);
    }

    fn slot(&mut self, sq: Square, color: Color) -> &mut u8 {
        match color {
            Color::White => &mut self.white[sq as usize],
            Color::Black => &mut self.black[sq as usize],
        }
    }

    /// Add `n` checkers of `color` under `sq`, then cancel pairs: "remove
    /// one checker of each colour and return them to their owners". Returns
    /// how many pairs were cancelled (each side gets that many back).
    pub fn add(&mut self, sq: Square, color: Color, n: u32) -> u32 {
        let slot = self.slot(sq, color);
        *slot = slot.saturating_add(n.min(255) as u8);
        let pairs = self.white[sq as usize].min(self.black[sq as usize]);
        self.white[sq as usize] -= pairs;
        self.black[sq as usize] -= pairs;
        self.mark(sq);
        u32::from(pairs)
    }

    /// Take every checker off `sq`: (white, black).
    pub fn take(&mut self, sq: Square) -> (u32, u32) {
        let taken = (u32::from(self.white[sq as usize]), u32::from(self.black[sq as usize]));
        self.white[sq as usize] = 0;
        self.black[sq as usize] = 0;
        self.mark(sq);
        taken
    }

    /// Remove `n` checkers of `color` from `sq`.
    pub fn remove(&mut self, sq: Square, color: Color, n: u32) {
        let slot = self.slot(sq, color);
        *slot = slot.saturating_sub(n.min(255) as u8);
        self.mark(sq);
    }

    /// Checkers of `color` on the board.
    pub fn on_board(&self, color: Color) -> u32 {
        color.fold_wb(self.white, self.black).iter().map(|&n| u32::from(n)).sum()
    }

    /// Squares with checkers of `color`.
    pub fn holding(&self, color: Color) -> Bitboard {
        self.holding[color.fold_wb(0, 1)]
    }

    /// Squares with any checker.
    pub fn loaded(&self) -> Bitboard {
        self.holding[0] | self.holding[1]
    }
}

/// "Your piece on your checker is boosted": how many booster moves the
/// piece on `sq` has (its owner's checkers under it).
pub fn boosts(board: &Board, stacks: &Stacks, sq: Square) -> u32 {
    board.color_at(sq).map_or(0, |c| stacks.get(sq, c))
}

/// "Your piece on your opponent's checker is hobbled."
pub fn hobbled(board: &Board, stacks: &Stacks, sq: Square) -> bool {
    board.color_at(sq).is_some_and(|c| stacks.get(sq, c.other()) > 0)
}

/// The far rank, where a hobble checker leaves: for White rank 8, for
/// Black rank 1 (docs/games/booster.md, "Rulings").
pub fn far_rank(color: Color) -> Rank {
    color.fold_wb(Rank::Eighth, Rank::First)
}

/// The regular moves of `color`'s pieces, ignoring the king's safety and
/// castling: orthodox moves for plain and boosted pieces, pawn moves
/// without the double step for hobbled pieces, none for hobbled pawns.
pub fn regular_moves(pos: &Position, stacks: &Stacks, color: Color) -> Vec<Move> {
    let mut side = pos.clone();
    if side.turn() != color {
        side.set_turn(color);
        side.set_ep_square(None);
    }
    let board = side.board();
    let mut moves: Vec<Move> = side
        .pseudo_legal_moves()
        .into_iter()
        .filter(|m| !m.is_castle())
        .filter(|m| m.from().is_some_and(|from| !hobbled(board, stacks, from)))
        .collect();
    for from in board.by_color(color) & !board.pawns() {
        if hobbled(board, stacks, from) {
            moves.extend(hobbled_moves(board, from, color));
        }
    }
    moves
}

/// [`regular_moves`] into a list the caller owns, in the same order, for
/// the side to move (the move generator at every node: no copy of the
/// position, no allocation).
pub fn regular_moves_into(pos: &Position, stacks: &Stacks, moves: &mut MoveList) {
    let color = pos.turn();
    let board = pos.board();
    let hobbled = board.by_color(color) & stacks.holding(color.other());
    pos.piece_moves_into(!hobbled, moves);
    for from in hobbled & !board.pawns() {
        push_hobbled_moves(board, from, color, moves);
    }
}

/// "Other pieces move like pawns": one square forward to an empty square,
/// or one square diagonally forward onto an enemy piece. "Hobbled pieces do
/// not move two spaces on their first move"; they do not promote (they are
/// not pawns) and take no pawn en passant (our ruling, docs/games/booster.md).
pub fn hobbled_moves(board: &Board, from: Square, color: Color) -> Vec<Move> {
    let mut moves = MoveList::new();
    push_hobbled_moves(board, from, color, &mut moves);
    moves.into_iter().collect()
}

pub fn push_hobbled_moves(board: &Board, from: Square, color: Color, moves: &mut MoveList) {
    let Some(role) = board.role_at(from) else { return };
    if let Some(to) = from.offset(color.fold_wb(8, -8)) {
        if !board.occupied().contains(to) {
            moves.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    }
    for to in attacks::pawn_attacks(color, from) & board.by_color(color.other()) {
        moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
    }
}

/// The orthodox moves of the side to move's pieces on `from_set` (none
/// of them hobbled) to the squares `targets(from)` allows: no castling, no
/// en passant. The moves judged one by one are listed so (see
/// [`gen_moves`] for those generated to a mask).
pub fn push_moves_to(pos: &Position, from_set: Bitboard, targets: impl Fn(Square) -> Bitboard, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let open = !board.by_color(us) & pos.mask();
    for from in from_set & board.by_color(us) & !board.pawns() {
        let Some(piece) = board.piece_at(from) else { continue };
        let reach = pos.piece_attacks(from, piece, board.occupied()) & open & targets(from);
        for to in reach {
            moves.push(Move::Normal { role: piece.role, from, capture: board.role_at(to), to, promotion: None });
        }
    }
    let promotion_rank = pos.geometry().promotion_rank(us).map_or(Bitboard::EMPTY, Bitboard::from_rank);
    for from in from_set & board.by_color(us) & board.pawns() {
        for to in pawn_destinations(pos, from, us) & targets(from) {
            let capture = board.role_at(to);
            if promotion_rank.contains(to) {
                for role in pos.geometry().promotions.iter() {
                    moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
                }
            } else {
                moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
            }
        }
    }
}

/// Where generated moves go: into a list, or only counted (perft's last
/// ply counts the moves it does not need to play).
pub trait Out {
    /// The moves of the `role` on `from` (not a pawn) to each square of `to`.
    fn piece(&mut self, board: &Board, role: Role, from: Square, to: Bitboard);
    /// The pawn moves to each square of `to` from `delta` squares behind
    /// it, each promotion rank square once per role in `promotions`.
    fn pawns(&mut self, board: &Board, to: Bitboard, delta: i32, promotion_rank: Bitboard, promotions: &[Role]);
    /// One move.
    fn one(&mut self, m: Move);
    /// Whether the sink needs no more moves: the generators stop there (a
    /// test for any legal move, made at every turn's start, needs one).
    fn has_enough(&self) -> bool {
        false
    }
}

impl Out for MoveList {
    fn piece(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        for to in to {
            self.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
        }
    }

    fn pawns(&mut self, board: &Board, to: Bitboard, delta: i32, promotion_rank: Bitboard, promotions: &[Role]) {
        for to in to {
            let from = Square::new((to as i32 - delta) as u32 & 63);
            let capture = board.role_at(to);
            if promotion_rank.contains(to) {
                for &role in promotions {
                    self.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) });
                }
            } else {
                self.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
            }
        }
    }

    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Whether there is any move, noted rather than counted: the generators
/// stop at the first.
#[derive(Default)]
pub struct AnyMove(pub bool);

impl Out for AnyMove {
    fn piece(&mut self, _: &Board, _: Role, _: Square, to: Bitboard) {
        self.0 |= to.any();
    }

    fn pawns(&mut self, _: &Board, to: Bitboard, _: i32, _: Bitboard, _: &[Role]) {
        self.0 |= to.any();
    }

    fn one(&mut self, _: Move) {
        self.0 = true;
    }

    fn has_enough(&self) -> bool {
        self.0
    }
}

/// The orthodox moves of the side to move's pieces (none hobbled, no
/// castling, no en passant): those on `uniform` to the squares of
/// `targets`, role by role and the pawns set by set as chess generates
/// them; those on `special` each to the squares `special_targets(from)`
/// allows. Targets holding the mover's own pieces are left out here.
/// Stops, group by group, once `out` has enough.
pub fn gen_moves<O: Out>(
    pos: &Position,
    uniform: Bitboard,
    targets: Bitboard,
    special: Bitboard,
    special_targets: impl Fn(Square) -> Bitboard,
    out: &mut O,
) {
    let board = pos.board();
    let us = pos.turn();
    let open = !board.by_color(us) & pos.mask();
    let targets = targets & open;
    let blockers = board.occupied() | !pos.mask();
    let uniform = uniform & board.by_color(us);
    for from in uniform & board.knights() {
        out.piece(board, Role::Knight, from, attacks::knight_attacks(from) & targets);
    }
    if out.has_enough() {
        return;
    }
    for from in uniform & board.bishops() {
        out.piece(board, Role::Bishop, from, attacks::bishop_attacks(from, blockers) & targets);
    }
    if out.has_enough() {
        return;
    }
    for from in uniform & board.rooks() {
        out.piece(board, Role::Rook, from, attacks::rook_attacks(from, blockers) & targets);
    }
    if out.has_enough() {
        return;
    }
    for from in uniform & board.queens() {
        out.piece(board, Role::Queen, from, attacks::queen_attacks(from, blockers) & targets);
    }
    for from in uniform & board.kings() {
        out.piece(board, Role::King, from, attacks::king_attacks(from) & targets);
    }
    if out.has_enough() {
        return;
    }
    let geometry = pos.geometry();
    let promotion_rank = geometry.promotion_rank(us).map_or(Bitboard::EMPTY, Bitboard::from_rank);
    let mut roles = [Role::Queen; 6];
    let mut n = 0;
    for role in geometry.promotions.iter() {
        roles[n] = role;
        n += 1;
    }
    let promotions = &roles[..n];
    let pawns = uniform & board.pawns();
    if pawns.any() {
        let forward: i32 = us.fold_wb(8, -8);
        let empty = !board.occupied() & pos.mask();
        let enemies = board.by_color(us.other()) & pos.mask();
        for (delta, edge) in [(forward - 1, File::A), (forward + 1, File::H)] {
            let captures = (pawns & !Bitboard::from_file(edge)).shift(delta) & enemies & targets;
            out.pawns(board, captures, delta, promotion_rank, promotions);
        }
        let single = pawns.shift(forward) & empty;
        out.pawns(board, single & targets, forward, promotion_rank, promotions);
        if geometry.double_step {
            if let Some(rank) = geometry.pawn_rank(us) {
                let double = (single & Bitboard::from_rank(rank).shift(forward)).shift(forward) & empty & targets;
                out.pawns(board, double, 2 * forward, promotion_rank, promotions);
            }
        }
    }
    if out.has_enough() {
        return;
    }
    let special = special & board.by_color(us);
    for from in special & !board.pawns() {
        let Some(piece) = board.piece_at(from) else { continue };
        out.piece(
            board,
            piece.role,
            from,
            pos.piece_attacks(from, piece, board.occupied()) & open & special_targets(from),
        );
    }
    for from in special & board.pawns() {
        let to = pawn_destinations(pos, from, us) & special_targets(from);
        for to in to {
            let delta = to as i32 - from as i32;
            out.pawns(board, Bitboard::from_square(to), delta, promotion_rank, promotions);
        }
    }
}

/// The squares an unhobbled pawn of `us` on `from` moves to: one step
/// forward, the double step from its first rank, the diagonal captures
/// (not en passant).
fn pawn_destinations(pos: &Position, from: Square, us: Color) -> Bitboard {
    let board = pos.board();
    let empty = !board.occupied() & pos.mask();
    let forward: i32 = us.fold_wb(8, -8);
    let mut dests = attacks::pawn_attacks(us, from) & board.by_color(us.other()) & pos.mask();
    if let Some(one) = from.offset(forward).filter(|&s| empty.contains(s)) {
        dests.add(one);
        if pos.geometry().double_step && Some(from.rank()) == pos.geometry().pawn_rank(us) {
            if let Some(two) = one.offset(forward).filter(|&s| empty.contains(s)) {
                dests.add(two);
            }
        }
    }
    dests
}

/// What a move or a booster step did besides moving the piece.
pub struct Arrival {
    /// Where the moving piece stands now (the king's square after castling).
    pub to: Square,
    /// Checkers that went back in front of each player, White first:
    /// cancelled pairs, a spent booster checker, far-rank hobble checkers.
    pub returned: [u32; 2],
    /// Hobble checkers that left on the far rank (counted in `returned` too).
    pub far_rank: u32,
}

impl Arrival {
    fn new(to: Square) -> Arrival {
        Arrival { to, returned: [0, 0], far_rank: 0 }
    }

    /// Put checkers under `sq`, cancelling pairs, each pair back to its owners.
    fn put(&mut self, stacks: &mut Stacks, sq: Square, (white, black): (u32, u32)) {
        let pairs = stacks.add(sq, Color::White, white) + stacks.add(sq, Color::Black, black);
        self.returned[0] += pairs;
        self.returned[1] += pairs;
    }

    /// "Get it to the back rank of the board. If you do, just remove the
    /// hobble checker and return it to your opponent."
    fn far_rank(mut self, pos: &Position, stacks: &mut Stacks) -> Arrival {
        let sq = self.to;
        if let Some(color) = pos.board().color_at(sq) {
            let hobble = stacks.get(sq, color.other());
            if sq.rank() == far_rank(color) && hobble > 0 {
                stacks.remove(sq, color.other(), hobble);
                self.returned[color.other().fold_wb(0, 1)] += hobble;
                self.far_rank = hobble;
            }
        }
        self
    }
}

/// The regular move `m` of `us` on the board and its checkers: "it brings
/// any checkers along with it", and "your piece keeps any checkers that the
/// captured piece was stacked on". Both the game and the legality test play
/// moves through here, so the trial board is the board the move makes.
pub fn play_move(pos: &mut Position, stacks: &mut Stacks, m: Move, us: Color) -> Arrival {
    let (from, to, victim) = match m {
        Move::Castle { king, rook } => {
            // Only a hobbled rook castles with checkers; they go with it.
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            let mut arrival = Arrival::new(side.king_to(us));
            let carried = stacks.take(rook);
            pos.play_unchecked(m);
            arrival.put(stacks, side.rook_to(us), carried);
            return arrival.far_rank(pos, stacks);
        }
        Move::EnPassant { from, to } => (from, to, Square::from_coords(to.file(), from.rank())),
        Move::Normal { from, to, .. } => (from, to, to),
        Move::Put { to, .. } => {
            pos.play_unchecked(m);
            return Arrival::new(to);
        }
    };
    let mut arrival = Arrival::new(to);
    if !stacks.loaded().contains(from) && !stacks.loaded().contains(victim) {
        // No checker moves, none is gained, none can cancel (checkers
        // stand only under pieces, so `to` holds none unless it is the
        // victim), and a piece without checkers has no hobble to lose.
        pos.play_unchecked(m);
        return arrival;
    }
    let gained = stacks.take(victim);
    arrival.put(stacks, to, gained);
    let carried = stacks.take(from);
    arrival.put(stacks, to, carried);
    pos.play_unchecked(m);
    arrival.far_rank(pos, stacks)
}

/// One booster step of `us`'s piece: "you may move it like a king, one
/// space in any direction. If you make the king's move, remove the checker
/// and place it in front of you." A booster step never takes en passant and
/// gives no en passant square; a pawn reaching the back rank promotes (the
/// step names the piece). The turn does not pass.
pub fn play_step(pos: &mut Position, stacks: &mut Stacks, step: UciAction, us: Color) -> Arrival {
    let mut arrival = Arrival::new(step.to);
    stacks.remove(step.from, us, 1);
    arrival.returned[us.fold_wb(0, 1)] += 1;
    let gained = stacks.take(step.to);
    let carried = stacks.take(step.from);
    arrival.put(stacks, step.to, gained);
    arrival.put(stacks, step.to, carried);
    let Some(piece) = pos.remove_piece_at(step.from) else { return arrival };
    pos.set_piece_at(step.to, step.promotion.unwrap_or(piece.role).of(us));
    let mut rights = pos.castling_rooks();
    rights.discard(step.from);
    rights.discard(step.to);
    if piece.role == Role::King {
        rights &= !Bitboard::from_rank(us.backrank());
    }
    pos.set_castling_rooks(rights);
    pos.set_ep_square(None);
    arrival.far_rank(pos, stacks)
}

/// Whether `color`'s king is attacked, booster moves included (a side
/// without a king counts as attacked: its king was taken).
pub fn king_attacked(pos: &Position, stacks: &Stacks, color: Color) -> bool {
    match pos.king_of(color) {
        Some(king) => attacked(pos, stacks, king, color.other()),
        None => true,
    }
}

/// Whether `color` attacks `target` in Booster Chess's sense (our
/// ruling, docs/games/booster.md): some piece of `color` could capture there in its next turn, by
/// its regular move or by booster king steps after it, spending the
/// checkers it would have after the regular move (its own, plus those of
/// the piece it captured, en passant too, less the cancelled ones). Booster
/// steps go through any square not held by `color`'s own pieces.
///
/// Exactly the definition of `reference::attacked` (which generates every
/// regular move of the side and walks from each), only faster: the
/// orthodox captures are found by the attack tables; only *walkers*, pieces
/// that can have booster steps after their regular move (boosted now, or
/// able to capture a piece carrying `color`'s checkers), can reach further,
/// and only their own regular moves are generated; a walk that could not
/// reach `target` within its steps (king distance) is not walked.
pub fn attacked(pos: &Position, stacks: &Stacks, target: Square, color: Color) -> bool {
    let board = pos.board();
    let own = board.by_color(color);
    // The regular captures: orthodox for plain and boosted pieces, like a
    // pawn for hobbled ones (a hobbled pawn does not move at all).
    let hobbled_own = own & stacks.holding(color.other());
    if (pos.attackers_to(target, color, board.occupied()) & !hobbled_own).any() {
        return true;
    }
    if (hobbled_own & !board.pawns()).into_iter().any(|sq| attacks::pawn_attacks(color, sq).contains(target)) {
        return true;
    }
    // The booster steps.
    let gains = board.by_color(color.other()) & stacks.holding(color);
    let boosted = own & stacks.holding(color);
    let capturing = if gains.is_empty() {
        Bitboard::EMPTY
    } else {
        own.into_iter()
            .filter(|&sq| {
                let reach =
                    if hobbled_own.contains(sq) { attacks::pawn_attacks(color, sq) } else { pos.attacks_from(sq) };
                reach.intersects(gains)
            })
            .collect()
    };
    (boosted | capturing).into_iter().any(|from| walker_reaches(pos, stacks, from, color, target))
}

/// The squares the piece of `color` on `from` can move to in its regular
/// move (as `regular_moves` generates them, castling aside), and the en
/// passant capture if it has one: (the square it goes to, the captured
/// pawn's square).
fn regular_destinations(
    pos: &Position,
    stacks: &Stacks,
    from: Square,
    color: Color,
) -> (Bitboard, Option<(Square, Square)>) {
    let board = pos.board();
    let Some(role) = board.role_at(from) else { return (Bitboard::EMPTY, None) };
    let hobbled = hobbled(board, stacks, from);
    let empty = !board.occupied() & pos.mask();
    let forward: i32 = color.fold_wb(8, -8);
    let one = from.offset(forward).filter(|&s| empty.contains(s));
    let captures = attacks::pawn_attacks(color, from) & board.by_color(color.other()) & pos.mask();
    match (role, hobbled) {
        (Role::Pawn, true) => (Bitboard::EMPTY, None),
        // Hobbled: one square forward, or diagonally forward onto an enemy.
        (_, true) => (captures | one.map_or(Bitboard::EMPTY, Bitboard::from_square), None),
        (Role::Pawn, false) => {
            let mut dests = captures;
            if let Some(one) = one {
                dests.add(one);
                let start = pos.geometry().pawn_rank(color);
                if pos.geometry().double_step && Some(from.rank()) == start {
                    if let Some(two) = one.offset(forward).filter(|&s| empty.contains(s)) {
                        dests.add(two);
                    }
                }
            }
            // En passant only on the capturer's own turn: the square is
            // gone by the time the other side moves.
            let ep = pos
                .ep_square()
                .filter(|&ep| pos.turn() == color && empty.contains(ep))
                .filter(|&ep| attacks::pawn_attacks(color, from).contains(ep))
                .map(|ep| (ep, Square::from_coords(ep.file(), from.rank())));
            (dests, ep)
        }
        (_, false) => (pos.attacks_from(from) & !board.by_color(color) & pos.mask(), None),
    }
}

/// Whether the walker on `from` reaches `target`: by a regular move onto
/// it, or by up to as many king steps, after one of its regular moves, as
/// it then has own checkers. (Its capture diagonals are counted with the
/// regular captures; an empty diagonal is no square a pawn moves to, so no
/// steps start there.)
fn walker_reaches(pos: &Position, stacks: &Stacks, from: Square, color: Color, target: Square) -> bool {
    let own = stacks.get(from, color);
    let opp_here = stacks.get(from, color.other());
    let blocked = pos.board().by_color(color).without(from);
    let walks = |to: Square, victim: Square| {
        let total_own = own + stacks.get(victim, color);
        let total_opp = opp_here + stacks.get(victim, color.other());
        walks_to(to, total_own.saturating_sub(total_opp), blocked, target)
    };
    let (dests, ep) = regular_destinations(pos, stacks, from, color);
    // No walk is longer than its own checkers plus every checker it could
    // gain: skip the walker when no destination lies that close to `target`.
    let gainable: u32 = (dests & stacks.holding(color)).into_iter().map(|sq| stacks.get(sq, color)).sum::<u32>()
        + ep.map_or(0, |(_, victim)| stacks.get(victim, color));
    let mut near = Bitboard::from_square(target);
    for _ in 0..(own + gainable).min(7) {
        near = one_step_around(near);
    }
    let ep_to = ep.map_or(Bitboard::EMPTY, |(to, _)| Bitboard::from_square(to));
    if !(dests | ep_to).intersects(near) {
        return false;
    }
    dests.into_iter().any(|to| walks(to, to)) || ep.is_some_and(|(to, victim)| walks(to, victim))
}

/// Whether `target` is `to` or within `steps` king steps of it, never
/// onto the `blocked` squares (a step that captures may go on).
fn walks_to(to: Square, steps: u32, blocked: Bitboard, target: Square) -> bool {
    if to == target {
        return true;
    }
    if steps == 0 || !within(to, steps).contains(target) {
        return false;
    }
    let mut frontier = Bitboard::from_square(to);
    let mut seen = frontier;
    for _ in 0..steps {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= attacks::king_attacks(sq) & !blocked & !seen;
        }
        if next.contains(target) {
            return true;
        }
        if next.is_empty() {
            return false;
        }
        seen |= next;
        frontier = next;
    }
    false
}

/// The mover's king safety, prepared once per position so that most moves
/// are judged without a trial board: the orthodox part of the extended
/// attack by checks and pins, the booster part by following each enemy
/// walker with sets of squares found once per position.
///
/// A move is *plain* when it carries no hobble checker and captures no
/// piece with checkers: then no checker changes hands, every enemy piece
/// keeps its checkers (so its boost or hobble), and the mover's pieces
/// holding enemy checkers (those a capture gains) stay where they are.
/// For a plain move the extended attack on the king is:
/// - the orthodox attack by the enemy pieces that are not hobbled, and the
///   pawn-like attack of the hobbled ones that are not pawns: checks and
///   pins exactly as in chess, with those attackers (a hobbled piece
///   blocks lines but attacks along none);
/// - the booster steps of a walker (boosted, or able to capture a piece
///   holding enemy checkers), which start from one of its regular
///   destinations `d` with its checkers there (those it gains at `d`
///   added, ours at `d` cancelled). Booster steps pass our pieces and stop
///   at the walker's own, so the destinations from which its steps reach
///   the king (its *goal*) are one flood of king steps out from the king.
///   The walker reaches the king after a move exactly when its
///   destinations after the move meet its goal after the move, and a
///   plain move changes either only on the squares it leaves and enters
///   (and, for a slider, on the lines through them).
///
/// So a piece whose leaving opens no walker a way to its goal (`risky`
/// marks the others) moves like a chess piece under the check and pin
/// mask; a risky piece (or any, while a walker reaches the king already)
/// to the squares of that mask where its arrival stops every walker its
/// leaving lets through ([`Safety::targets`]). Arrivals on the few
/// squares where they could help a walker themselves (`touchy`) are
/// followed move by move on the sets ([`Safety::quick`]). King moves are
/// cleared by a bound on every square the walkers could reach once the
/// king has left, and followed exactly where the bound does not clear
/// them. Moves that are not plain go to a trial board.
pub struct Safety {
    us: Color,
    king: Square,
    /// The enemy pieces attacking the king (orthodox for the unhobbled,
    /// pawn-like for the hobbled).
    checkers: Bitboard,
    /// Where a move of a piece other than the king must end to meet the
    /// check: anywhere without one, on the checker or its line with one,
    /// nowhere with two.
    check_mask: Bitboard,
    /// The mover's pieces pinned to the king by an unhobbled enemy slider.
    pinned: Bitboard,
    hobbled_them: Bitboard,
    /// The mover's pieces with enemy checkers under them.
    gains: Bitboard,
    /// The enemy walkers.
    walkers: [Walker; 8],
    walker_count: usize,
    /// Some walker reaches the king on the board as it stands (or there
    /// are too many to tell): every move is followed.
    danger: bool,
    /// The mover's pieces whose leaving their square may let a walker
    /// reach the king.
    risky: Bitboard,
    /// The squares where the arrival of the mover's piece may let a walker
    /// reach the king: a pawn-like walker's capture squares in its goal
    /// (and the double steps that open en passant onto them), and the
    /// enemy pieces near the king (taking one opens a path to the steps).
    touchy: Bitboard,
    /// More walkers than `walkers` holds (eight: kept small, as the test
    /// is made at every node): every move goes to the trial board.
    overflow: bool,
    /// Every square some walker might reach once the king has left its
    /// square (a king move or castling), found on first use.
    king_bound: std::cell::Cell<Option<Bitboard>>,
    /// The squares next to the king that [`Safety::king_steps`] found no
    /// orthodox or pawn-like attacker on with the king gone (castling's
    /// path need not look there again).
    king_clear: std::cell::Cell<Bitboard>,
}

/// How an enemy walker makes its regular move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gait {
    /// Bishop, rook, queen: lines that a move may open or close.
    Slider,
    /// Knight, king: the same squares whatever the occupancy.
    Leaper,
    /// An unhobbled pawn: pushes, the double step, captures, en passant.
    Pawn,
    /// A hobbled piece other than a pawn: one push and the two captures.
    PawnLike,
}

#[derive(Clone, Copy)]
struct Walker {
    square: Square,
    piece: Piece,
    gait: Gait,
    /// The steps it has after a regular move to a square without checkers
    /// (its checkers; a hobbled walker has none).
    base: u32,
    /// The most steps it can have after a plain move (a capture gains).
    most: u32,
    /// The squares it attacks: along its lines with the board's occupancy
    /// for a slider, its capture squares for a pawn or a pawn-like piece.
    attacks: Bitboard,
    /// Its regular destinations on the board as it stands.
    dests: Bitboard,
    /// The squares from which `base` king steps reach our king, never
    /// onto the walker's own pieces.
    near: Bitboard,
    /// The destinations from which it reaches our king on the board as it
    /// stands: `near` for squares without checkers, each of our loaded
    /// pieces by the checkers the walker would have there.
    goal: Bitboard,
}

impl Safety {
    /// Prepare the safety of `us`'s king; `None` without a king (every
    /// move then goes to the trial board).
    pub fn new(pos: &Position, stacks: &Stacks, us: Color) -> Option<Safety> {
        let king = pos.king_of(us)?;
        Some(Safety::for_king(pos, stacks, us, king))
    }

    /// [`Safety::new`] for the king on `king` (built in place: the
    /// struct is large to move).
    #[inline(always)]
    fn for_king(pos: &Position, stacks: &Stacks, us: Color, king: Square) -> Safety {
        let board = pos.board();
        let them = us.other();
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(them);
        let hobbled_them = theirs & stacks.holding(us);
        let gains = ours & stacks.holding(them);
        let checkers = extended_attackers(pos, hobbled_them, king, them, occupied);
        let check_mask = match checkers.single_square() {
            _ if checkers.more_than_one() => Bitboard::EMPTY,
            Some(checker) => attacks::between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        // Pins: only unhobbled sliders slide.
        let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & theirs
            & !hobbled_them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            if let Some(sq) = (attacks::between(king, sniper) & occupied).single_square() {
                pinned |= Bitboard::from_square(sq) & ours;
            }
        }
        // Walkers: boosted, or possibly able to capture a gain (any line
        // reaching through the mover's pieces, which a move may empty).
        let mut candidates = theirs & stacks.holding(them);
        if gains.any() {
            let see_through = occupied & !ours;
            for g in gains {
                candidates |= pos.attackers_to(g, them, see_through)
                    | hobbled_them & !board.pawns() & attacks::pawn_attacks(us, g);
            }
        }
        candidates &= !(hobbled_them & board.pawns());
        let mut safety = Safety {
            us,
            king,
            checkers,
            check_mask,
            pinned,
            hobbled_them,
            gains,
            walkers: [Walker::NONE; 8],
            walker_count: 0,
            danger: false,
            risky: Bitboard::EMPTY,
            touchy: Bitboard::EMPTY,
            overflow: false,
            king_bound: std::cell::Cell::new(None),
            king_clear: std::cell::Cell::new(Bitboard::EMPTY),
        };
        for w in candidates {
            if safety.walker_count == safety.walkers.len() {
                // More walkers than are followed: judge every move on a trial board.
                safety.danger = true;
                safety.overflow = true;
                break;
            }
            let walker = Walker::new(pos, stacks, w, us, king, hobbled_them.contains(w), gains);
            safety.danger |= walker.dests.intersects(walker.goal);
            safety.risky |= walker.risky(pos, stacks, us, king);
            safety.touchy |= walker.touchy(pos, us, king);
            safety.walkers[safety.walker_count] = walker;
            safety.walker_count += 1;
        }
        safety
    }

    fn walkers(&self) -> &[Walker] {
        &self.walkers[..self.walker_count]
    }

    /// More walkers than this test follows: every move goes to the trial board.
    pub fn overflow(&self) -> bool {
        self.overflow
    }

    /// The squares where arrivals are followed move by move (see the field).
    pub fn touchy(&self) -> Bitboard {
        self.touchy
    }

    /// Where the mover's piece on `from` (not the king) may go by its
    /// check and pin mask: out of check (capturing the checker or
    /// blocking its line), along its pin.
    pub fn allowed(&self, from: Square) -> Bitboard {
        let mut allowed = self.check_mask;
        if self.pinned.contains(from) {
            allowed &= attacks::ray(self.king, from);
        }
        allowed
    }

    /// A bound on every square some walker could reach once the king has
    /// left its square (by a king move, or castling with a rook that
    /// keeps its castling right): the destinations with the king and
    /// those rooks taken off the board (a piece put back only blocks a
    /// line, or gives a pawn a capture, and every capture square of a pawn
    /// is counted), spread by the walker's steps (the most a gain brings
    /// from a gain), never through its own pieces.
    fn king_bound(&self, pos: &Position) -> Bitboard {
        if let Some(bound) = self.king_bound.get() {
            return bound;
        }
        let board = pos.board();
        let theirs = board.by_color(self.us.other());
        let rooks = pos.castling_rooks() & board.by_color(self.us);
        let occupied = board.occupied().without(self.king) & !rooks;
        let bound = self.walkers().iter().fold(Bitboard::EMPTY, |bound, w| {
            let blocked = theirs.without(w.square);
            let dests = match w.gait {
                Gait::Slider => pos.piece_attacks(w.square, w.piece, occupied) & !theirs,
                Gait::Leaper => w.attacks & !theirs,
                Gait::Pawn | Gait::PawnLike => w.attacks | w.push_squares(pos),
            };
            let gained = dests & self.gains;
            let bound = bound | spread(dests, w.base, blocked);
            if gained.any() {
                bound | spread(gained, w.most, blocked)
            } else {
                bound
            }
        });
        self.king_bound.set(Some(bound));
        bound
    }

    /// Whether `them` attacks `sq` on the board as it stands (castling's
    /// path), when this test can tell without [`attacked`]: the orthodox
    /// and pawn-like attackers answer yes, and the walkers' bound answers
    /// no where it can.
    pub fn attacked_now(&self, pos: &Position, sq: Square) -> Option<bool> {
        if self.overflow {
            return None;
        }
        if sq == self.king {
            // The same tests, made once in `new`.
            return Some(self.checkers.any() || self.danger);
        }
        if extended_attackers(pos, self.hobbled_them, sq, self.us.other(), pos.board().occupied()).any() {
            return Some(true);
        }
        if self.walker_count == 0 || !self.king_bound(pos).contains(sq) {
            return Some(false);
        }
        None
    }

    /// Whether castling with the king on `king` and the rook on `rook`
    /// leaves the king safe on its new square, when this test can tell.
    /// The king and rook carry no checkers, so castling is plain: the
    /// orthodox and pawn-like attack on the board it leaves, and the
    /// walkers' bound (which counts the king's and the rook's squares
    /// empty).
    pub fn castle_safe(&self, pos: &Position, king: Square, rook: Square) -> Option<bool> {
        if self.overflow {
            return None;
        }
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let (king_to, rook_to) = (side.king_to(self.us), side.rook_to(self.us));
        let occupied = pos.board().occupied().without(king).without(rook).with(king_to).with(rook_to);
        if extended_attackers(pos, self.hobbled_them, king_to, self.us.other(), occupied).any() {
            return Some(false);
        }
        if self.walker_count == 0 || !self.king_bound(pos).contains(king_to) {
            return Some(true);
        }
        None
    }

    /// The mover's king.
    pub fn king(&self) -> Square {
        self.king
    }

    /// The pieces that move under [`Safety::check_mask`] alone (no pin,
    /// no walker to mind): the mover's pieces other than the king,
    /// carrying no hobble checker, not pinned, whose leaving no walker
    /// can exploit. Their moves to squares without checkers outside
    /// [`Safety::touchy`] are legal exactly when the mask allows them.
    pub fn free(&self, stacks: &Stacks, ours: Bitboard) -> Bitboard {
        if self.danger || self.overflow {
            return Bitboard::EMPTY;
        }
        ours.without(self.king) & !stacks.holding(self.us.other()) & !self.risky & !self.pinned
    }

    /// Where a move of a piece other than the king must end to meet a check.
    pub fn check_mask(&self) -> Bitboard {
        self.check_mask
    }

    /// Where the mover's piece on `from` (not the king, not hobbled) may
    /// go by a plain move to a square without checkers outside
    /// [`Safety::touchy`]: its check and pin mask, and the squares where
    /// its arrival stops every walker its leaving would let reach the king.
    pub fn targets(&self, pos: &Position, stacks: &Stacks, from: Square) -> Bitboard {
        self.targets_carrying(pos, from, stacks.get(from, self.us))
    }

    /// [`Safety::targets`] for the piece on `from` arriving with `carried`
    /// of its own checkers (a booster step spends one).
    pub fn targets_carrying(&self, pos: &Position, from: Square, carried: u32) -> Bitboard {
        let mut targets = self.allowed(from);
        if self.overflow {
            return Bitboard::EMPTY;
        }
        if self.danger || self.risky.contains(from) {
            let theirs = pos.board().by_color(self.us.other());
            for w in self.walkers() {
                targets &= w.stops(pos, from, carried, theirs, self.king);
            }
        }
        targets
    }

    /// The verdict on `us`'s piece going from `from` to `to` (a regular
    /// move or a booster step, capturing what stands on `to`) when this
    /// test can give one, else `None` (play it on a trial board).
    pub fn quick(&self, pos: &Position, stacks: &Stacks, plain: Plain) -> Option<bool> {
        let Plain { from, to, .. } = plain;
        if stacks.holding(self.us.other()).contains(from) || stacks.loaded().contains(to) || self.overflow {
            return None;
        }
        if from == self.king {
            return Some(self.king_move_safe(pos, stacks, plain));
        }
        if self.checkers.more_than_one() {
            return Some(false);
        }
        if let Some(checker) = self.checkers.single_square() {
            if to != checker && !attacks::between(self.king, checker).contains(to) {
                return Some(false);
            }
        }
        if self.pinned.contains(from) && !attacks::ray(self.king, from).contains(to) {
            return Some(false);
        }
        if self.danger || self.risky.contains(from) || self.touchy.contains(to) {
            return Some(!self.walkers_reach(pos, stacks, plain));
        }
        Some(true)
    }

    /// The squares of `steps` (empty or holding enemy pieces without
    /// checkers) the king, carrying `carried` of its own checkers, may
    /// step to: [`Safety::king_move_safe`] for each, the walkers' bound
    /// looked up once.
    pub fn king_steps(&self, pos: &Position, stacks: &Stacks, steps: Bitboard, carried: u32) -> Bitboard {
        let them = self.us.other();
        let occupied = pos.board().occupied().without(self.king);
        let mut safe = Bitboard::EMPTY;
        for to in steps {
            if extended_attackers(pos, self.hobbled_them, to, them, occupied).is_empty() {
                safe.add(to);
            }
        }
        self.king_clear.set(safe);
        if self.walker_count > 0 && safe.any() {
            for to in safe & self.king_bound(pos) {
                let reached = self.walkers().iter().any(|w| {
                    w.square != to
                        && walker_reaches_moved(
                            pos,
                            stacks,
                            w.square,
                            self.king,
                            Some((to, carried)),
                            None,
                            to,
                            within(to, w.most),
                        )
                });
                if reached {
                    safe.discard(to);
                }
            }
        }
        safe
    }

    /// Whether castling with the king on `king` and the rook on `rook`
    /// (neither carrying checkers, the squares between them empty) is
    /// legal, when this test can tell: the king not attacked now, no
    /// square it passes or lands on attacked now, and the king safe on the
    /// board castling leaves. The walkers' bound clears them all or the
    /// answer is left to the exact tests.
    pub fn castle(&self, pos: &Position, king: Square, rook: Square) -> Option<bool> {
        if self.overflow {
            return None;
        }
        if self.checkers.any() || self.danger {
            return Some(false);
        }
        let them = self.us.other();
        let side = CastlingSide::from_king_side(rook.file() > king.file());
        let (king_to, rook_to) = (side.king_to(self.us), side.rook_to(self.us));
        let path = (attacks::between(king, king_to) | Bitboard::from_square(king_to)).without(king);
        let occupied = pos.board().occupied();
        // A square no orthodox attacker reaches with the king gone is not
        // reached with it there either (see `king_clear`).
        let unknown = path & !self.king_clear.get();
        if unknown.into_iter().any(|sq| extended_attackers(pos, self.hobbled_them, sq, them, occupied).any()) {
            return Some(false);
        }
        // From the e-file with a corner rook, a line the king and the rook
        // open to the king's new square crosses the rook's new square or
        // starts off the board: the path's test answers for it. Otherwise
        // look again with the pieces castled.
        let corner = matches!(rook.file(), File::A | File::H) && king.file() == File::E;
        if !corner {
            let after = occupied.without(king).without(rook).with(king_to).with(rook_to);
            if extended_attackers(pos, self.hobbled_them, king_to, them, after).any() {
                return Some(false);
            }
        }
        if self.walker_count > 0 && (path.with(king_to)).intersects(self.king_bound(pos)) {
            return None;
        }
        Some(true)
    }

    /// Whether the king's plain move leaves it safe: no orthodox or
    /// pawn-like attacker on its new square once it has left the old one,
    /// and no walker reaching it (the bound clears most squares; the rest
    /// are followed exactly).
    fn king_move_safe(&self, pos: &Position, stacks: &Stacks, plain: Plain) -> bool {
        let Plain { from, to, carried, .. } = plain;
        let occupied = pos.board().occupied().without(from);
        if extended_attackers(pos, self.hobbled_them, to, self.us.other(), occupied).any() {
            return false;
        }
        if self.walker_count == 0 || !self.king_bound(pos).contains(to) {
            return true;
        }
        !self.walkers().iter().any(|w| {
            w.square != to
                && walker_reaches_moved(pos, stacks, w.square, from, Some((to, carried)), None, to, within(to, w.most))
        })
    }

    /// Whether some walker reaches the king after the plain move of a
    /// piece other than the king: its destinations after the move against
    /// its goal after the move, both changed only on the move's squares.
    /// A capture of an enemy piece near the king (it may have stood in the
    /// steps' way) is followed square by square instead.
    fn walkers_reach(&self, pos: &Position, stacks: &Stacks, plain: Plain) -> bool {
        let Plain { from, to, carried, ep } = plain;
        let board = pos.board();
        let theirs = board.by_color(self.us.other());
        let capture = theirs.contains(to);
        let occupied = board.occupied().without(from).with(to);
        let ours = board.by_color(self.us).without(from).with(to);
        let left = theirs.without(to);
        self.walkers().iter().any(|w| {
            if w.square == to {
                return false;
            }
            let worth = within(self.king, w.most);
            if capture && worth.contains(to) {
                return walker_reaches_moved(pos, stacks, w.square, from, Some((to, carried)), ep, self.king, worth);
            }
            let dests = match w.gait {
                Gait::Slider if w.attacks.contains(from) || w.attacks.contains(to) => {
                    pos.piece_attacks(w.square, w.piece, occupied) & !left
                }
                Gait::Slider | Gait::Leaper => w.attacks & !left,
                Gait::Pawn | Gait::PawnLike => w.attacks & ours | w.pushes(pos, occupied),
            };
            // The square left holds no checkers now; the piece arriving
            // brings its own, which cancel the walker's there.
            let mut goal = w.goal.without(from).without(to) | w.near & Bitboard::from_square(from);
            let blocked = theirs.without(w.square);
            let at_to = w.base.saturating_sub(carried);
            let reaches_from_to =
                if carried == 0 { w.near.contains(to) } else { walks_to(to, at_to, blocked, self.king) };
            if dests.contains(to) && reaches_from_to {
                goal.add(to);
            }
            dests.intersects(goal)
                || w.gait == Gait::Pawn
                    && ep.is_some_and(|e| {
                        w.attacks.contains(e) && !occupied.contains(e) && walks_to(e, at_to, blocked, self.king)
                    })
        })
    }
}

impl Walker {
    const NONE: Walker = Walker {
        square: Square::A1,
        piece: Piece { color: Color::White, role: Role::Pawn },
        gait: Gait::Leaper,
        base: 0,
        most: 0,
        attacks: Bitboard::EMPTY,
        dests: Bitboard::EMPTY,
        near: Bitboard::EMPTY,
        goal: Bitboard::EMPTY,
    };

    /// The enemy piece on `w` (not a hobbled pawn), against `us`'s king
    /// on `king`; `gains` are our pieces holding its side's checkers.
    fn new(
        pos: &Position,
        stacks: &Stacks,
        w: Square,
        us: Color,
        king: Square,
        hobbled: bool,
        gains: Bitboard,
    ) -> Walker {
        let board = pos.board();
        let them = us.other();
        let piece = board.piece_at(w).unwrap_or(Piece { color: them, role: Role::Pawn });
        let (own, opp) = (stacks.get(w, them), stacks.get(w, us));
        let gait = match piece.role {
            _ if hobbled => Gait::PawnLike,
            Role::Pawn => Gait::Pawn,
            Role::Knight | Role::King => Gait::Leaper,
            _ => Gait::Slider,
        };
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(them);
        let attacks = match gait {
            Gait::Slider | Gait::Leaper => pos.piece_attacks(w, piece, occupied),
            Gait::Pawn | Gait::PawnLike => attacks::pawn_attacks(them, w) & pos.mask(),
        };
        let mut walker = Walker {
            square: w,
            piece,
            gait,
            base: own.saturating_sub(opp),
            most: 0,
            attacks,
            dests: Bitboard::EMPTY,
            near: Bitboard::EMPTY,
            goal: Bitboard::EMPTY,
        };
        walker.dests = match gait {
            Gait::Slider | Gait::Leaper => attacks & !theirs,
            Gait::Pawn | Gait::PawnLike => attacks & ours | walker.pushes(pos, occupied),
        };
        // The checkers it has on a destination holding one of our pieces.
        let budget = |sq: Square| (own + stacks.get(sq, them)).saturating_sub(opp + stacks.get(sq, us));
        walker.most = gains.into_iter().map(budget).fold(walker.base, u32::max);
        let blocked = theirs.without(w);
        walker.near = spread(Bitboard::from_square(king), walker.base, blocked);
        let loaded = ours & stacks.loaded();
        walker.goal = walker.near & !loaded;
        for sq in loaded {
            if walks_to(sq, budget(sq), blocked, king) {
                walker.goal.add(sq);
            }
        }
        walker
    }

    /// Where the mover's piece leaving `from` (carrying `carried` of its
    /// own checkers) must arrive so that this walker does not reach the
    /// king: everywhere if its leaving lets the walker reach nothing; else
    /// the walker's square (taking it), or a square that stops each
    /// destination it would reach the king from: between a slider and
    /// that square, on a pawn's push squares up to it, or the square
    /// itself when the piece's own checkers there cancel enough of the
    /// walker's. Arrivals on [`Safety::touchy`] squares are not answered
    /// for (they are followed move by move).
    fn stops(&self, pos: &Position, from: Square, carried: u32, theirs: Bitboard, king: Square) -> Bitboard {
        let occupied = pos.board().occupied().without(from);
        let dests = match self.gait {
            Gait::Slider if self.attacks.contains(from) => {
                pos.piece_attacks(self.square, self.piece, occupied) & !theirs
            }
            Gait::Slider | Gait::Leaper => self.dests,
            Gait::Pawn | Gait::PawnLike => self.dests.without(from) | self.pushes(pos, occupied),
        };
        let goal = self.goal.without(from) | self.near & Bitboard::from_square(from);
        let reached = dests & goal;
        if reached.is_empty() {
            return Bitboard::FULL;
        }
        let blocked = theirs.without(self.square);
        let mut stops = Bitboard::FULL;
        for d in reached {
            let mut stop = match self.gait {
                Gait::Slider => attacks::between(self.square, d),
                Gait::Leaper => Bitboard::EMPTY,
                // A push square (empty) is stopped on it or before it; a
                // capture square holds our piece already.
                Gait::Pawn | Gait::PawnLike if occupied.contains(d) => Bitboard::EMPTY,
                Gait::Pawn | Gait::PawnLike => attacks::between(self.square, d).with(d),
            };
            let sliding = matches!(self.gait, Gait::Slider | Gait::Leaper);
            if sliding && carried > 0 && !walks_to(d, self.base.saturating_sub(carried), blocked, king) {
                stop.add(d);
            }
            stops &= stop;
        }
        stops.with(self.square)
    }

    /// The squares ahead of a pawn-like walker it could push to (a bound:
    /// whatever stands there).
    fn push_squares(&self, pos: &Position) -> Bitboard {
        let forward = self.piece.color.fold_wb(8, -8);
        let one = self.square.offset(forward);
        let two = one.and_then(|sq| sq.offset(forward)).filter(|_| self.gait == Gait::Pawn);
        one.into_iter().chain(two).fold(Bitboard::EMPTY, |set, sq| set.with(sq)) & pos.mask()
    }

    /// The pushes of a pawn-like walker with the given occupancy: one
    /// square ahead, and for an unhobbled pawn on its first rank two.
    fn pushes(&self, pos: &Position, occupied: Bitboard) -> Bitboard {
        let empty = !occupied & pos.mask();
        let forward = self.piece.color.fold_wb(8, -8);
        let Some(one) = self.square.offset(forward).filter(|&sq| empty.contains(sq)) else {
            return Bitboard::EMPTY;
        };
        let mut pushes = Bitboard::from_square(one);
        let geometry = pos.geometry();
        if self.gait == Gait::Pawn
            && geometry.double_step
            && Some(self.square.rank()) == geometry.pawn_rank(self.piece.color)
        {
            if let Some(two) = one.offset(forward).filter(|&sq| empty.contains(sq)) {
                pushes.add(two);
            }
        }
        pushes
    }

    /// Our pieces (not the king) whose leaving may bring this walker to
    /// its goal: a slider's first pieces on lines that lead on into the
    /// goal; a piece on a pawn's push squares; a loaded piece on a
    /// destination in `near` (the square it leaves holds no checkers to
    /// cancel the walker's).
    fn risky(&self, pos: &Position, stacks: &Stacks, us: Color, king: Square) -> Bitboard {
        let board = pos.board();
        let ours = board.by_color(us).without(king);
        let mut risky = Bitboard::EMPTY;
        match self.gait {
            Gait::Slider | Gait::Leaper => {
                risky |= self.dests & ours & stacks.loaded() & self.near;
            }
            Gait::Pawn | Gait::PawnLike => {
                let pushes = self.push_squares(pos);
                // With our pieces gone from the push squares: those it could then reach.
                let opened = self.pushes(pos, board.occupied() & !ours) & !self.dests;
                if opened.intersects(self.near) {
                    risky |= pushes & ours;
                }
            }
        }
        if self.gait == Gait::Slider {
            let first = self.attacks & ours;
            if first.any() {
                let through = pos.piece_attacks(self.square, self.piece, board.occupied() & !first)
                    & !self.attacks
                    & !board.by_color(us.other());
                for f in first {
                    if (through & attacks::ray(self.square, f)).intersects(self.goal) {
                        risky.add(f);
                    }
                }
            }
        }
        risky
    }

    /// The squares where the arrival of our piece may bring this walker to
    /// its goal: the enemy pieces within its steps of the king (taking one
    /// makes a new destination and opens a path), and for a pawn-like
    /// walker its capture squares in `near` (a new destination), with the
    /// double steps whose en passant square is one of them.
    fn touchy(&self, pos: &Position, us: Color, king: Square) -> Bitboard {
        let theirs = pos.board().by_color(us.other());
        let mut touchy = theirs & within(king, self.most);
        if matches!(self.gait, Gait::Pawn | Gait::PawnLike) {
            let open = self.attacks & self.near;
            touchy |= open;
            if self.gait == Gait::Pawn {
                touchy |= open.shift(us.fold_wb(8, -8));
            }
        }
        touchy
    }
}

/// The squares of `set` and those up to `steps` king steps on, never
/// stepping on from a `blocked` square. Out from a set of destinations
/// it bounds where the steps go (a step may end on a blocked square);
/// out from a target it is exactly the set of squares whose steps reach
/// the target without stepping onto a blocked square (see [`walks_to`]).
fn spread(mut set: Bitboard, steps: u32, blocked: Bitboard) -> Bitboard {
    for _ in 0..steps {
        let next = set | one_step_around(set & !blocked);
        if next == set {
            break;
        }
        set = next;
    }
    set
}

/// The pieces of `color` attacking `target` with the given occupancy, in
/// the orthodox sense for the unhobbled, like pawns for the hobbled that
/// are not pawns (a hobbled pawn does not move at all).
fn extended_attackers(pos: &Position, hobbled: Bitboard, target: Square, color: Color, occupied: Bitboard) -> Bitboard {
    let board = pos.board();
    pos.attackers_to(target, color, occupied) & !hobbled
        | hobbled & occupied & !board.pawns() & attacks::pawn_attacks(color.other(), target)
}

/// The squares within `n` king steps of `sq`: a box of files and ranks
/// (looked up: the legality tests ask for it at every candidate move).
fn within(sq: Square, n: u32) -> Bitboard {
    Bitboard(WITHIN[sq as usize][n.min(7) as usize])
}

/// [`within`] for every square and 0 to 7 steps.
static WITHIN: [[u64; 8]; 64] = within_table();

const fn within_table() -> [[u64; 8]; 64] {
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut n = 0;
        while n < 8 {
            table[sq][n] = within_box(sq as u32, n as u32);
            n += 1;
        }
        sq += 1;
    }
    table
}

/// The box of files and ranks within `n` (at most 7) steps of square `sq`.
const fn within_box(sq: u32, n: u32) -> u64 {
    let (file, rank) = (sq % 8, sq / 8);
    let low = file.saturating_sub(n);
    let high = if file + n > 7 { 7 } else { file + n };
    let files = (((1u64 << (high - low + 1)) - 1) << low) * 0x0101_0101_0101_0101;
    let low = rank.saturating_sub(n);
    let high = if rank + n > 7 { 7 } else { rank + n };
    let ranks = (u64::MAX >> (8 * (7 - high + low))) << (8 * low);
    files & ranks
}

/// A plain move of the mover's piece (see [`Safety`]): a regular move or a
/// booster step from `from` to `to`, capturing what stands there.
#[derive(Clone, Copy)]
pub struct Plain {
    pub from: Square,
    pub to: Square,
    /// The mover's own checkers under the piece once it stands on `to`.
    pub carried: u32,
    /// The en passant square the move opens (a regular double step).
    pub ep: Option<Square>,
}

/// [`walker_reaches`] on the board a plain move leaves, without making
/// it: the enemy piece on `w` walks to `target` after one of its regular
/// moves there, with its checkers plus those it captures, less those that
/// cancel. The mover's piece is taken off `from` and, if `arrival` says
/// so, put on a square with its own checkers; `en_passant` is the square
/// a double step opens.
///
/// Only destinations in `worth` are walked from (those within the most
/// steps the walker could have of `target`).
#[allow(clippy::too_many_arguments)]
fn walker_reaches_moved(
    pos: &Position,
    stacks: &Stacks,
    w: Square,
    from: Square,
    arrival: Option<(Square, u32)>,
    en_passant: Option<Square>,
    target: Square,
    worth: Bitboard,
) -> bool {
    let board = pos.board();
    let Some(piece) = board.piece_at(w) else { return false };
    let color = piece.color;
    let us = color.other();
    let placed = arrival.map_or(Bitboard::EMPTY, |(to, _)| Bitboard::from_square(to));
    let occupied = board.occupied().without(from) | placed;
    let ours = board.by_color(us).without(from) | placed;
    let theirs = board.by_color(color) & !placed;
    // The checkers under a square after the move: the mover's piece
    // carries its own, the square it left holds none.
    let under = |sq: Square, c: Color| match arrival {
        Some((to, carried)) if sq == to => {
            if c == us {
                carried
            } else {
                0
            }
        }
        _ if sq == from => 0,
        _ => stacks.get(sq, c),
    };
    let empty = !occupied & pos.mask();
    let forward: i32 = color.fold_wb(8, -8);
    let one = w.offset(forward).filter(|&s| empty.contains(s));
    let captures = attacks::pawn_attacks(color, w) & ours & pos.mask();
    let hobbled = stacks.get(w, us) > 0;
    let mut ep = None;
    let dests = match (piece.role, hobbled) {
        (Role::Pawn, true) => return false,
        (_, true) => captures | one.map_or(Bitboard::EMPTY, Bitboard::from_square),
        (Role::Pawn, false) => {
            let mut dests = captures;
            if let Some(one) = one {
                dests.add(one);
                if pos.geometry().double_step && Some(w.rank()) == pos.geometry().pawn_rank(color) {
                    if let Some(two) = one.offset(forward).filter(|&s| empty.contains(s)) {
                        dests.add(two);
                    }
                }
            }
            ep = en_passant.filter(|&e| empty.contains(e) && attacks::pawn_attacks(color, w).contains(e));
            dests
        }
        (_, false) => pos.piece_attacks(w, piece, occupied) & !theirs,
    };
    let own = stacks.get(w, color);
    let opp_here = stacks.get(w, us);
    let blocked = theirs.without(w);
    let walks = |to: Square, victim: Square| {
        let total_own = own + under(victim, color);
        let total_opp = opp_here + under(victim, us);
        walks_to(to, total_own.saturating_sub(total_opp), blocked, target)
    };
    let double_stepped = arrival.map_or(from, |(to, _)| to);
    (dests & worth).into_iter().any(|d| walks(d, d))
        || ep.is_some_and(|e| worth.contains(e) && walks(e, double_stepped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The box of `within` is the king-step neighbourhood, step by step.
    #[test]
    fn within_is_the_squares_n_king_steps_away() {
        for sq in Square::ALL {
            let mut set = Bitboard::from_square(sq);
            for n in 0..9 {
                assert_eq!(within(sq, n), set, "{sq} {n}");
                set = one_step_around(set);
            }
        }
    }
}
