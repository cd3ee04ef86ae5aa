//! Which of the mover's zombies can matter for completing the turn, so that
//! the search for a legal completion (`Table::can_complete`) tries the moves
//! of those zombies only, and stays exact.
//!
//! Trying every subset and order of a horde's moves costs about
//! (moves per zombie + 1)^zombies. But most zombies of a horde cannot change
//! whether the turn can be completed: a knight wandering on the far side of
//! the board neither shields the king nor frees the way for a move that
//! does. This module finds the *free* zombies, whose moves the search may
//! leave out, in three steps.
//!
//! **1. The guarded squares.** The king's safety (during the turn and at its
//! end, risen burials and destroyed zombies included) is judged on the
//! squares where the king may stand this turn: its square, and while the
//! regular move is still to come, its neighbours and (with a castling right)
//! its back rank. An opponent's piece can attack one of those squares only
//! from a square it stands on now or may rise on (any burial of the mover;
//! a pawn that would promote counts as a queen and a knight), along the
//! squares between. The *guarded* squares are those attacker squares and
//! the squares between them and the king's squares. Whether the king is in
//! check, on any board this turn can reach, depends only on what stands on
//! the guarded squares, and on where the king is.
//!
//! **2. What a piece depends on and what it touches.** Whether a piece may
//! make a move depends on the squares it could move to or through (its
//! attacks on an empty board, a pawn's pushes and captures, the victim of
//! an en passant capture): its *dependencies*. A move changes its origin
//! (emptied, and a burial there rises at the end), its destination (now
//! holding the zombie, the victim gone) and an en passant victim's square.
//! Only the first and the last can ever *enable* another move: putting one
//! of the mover's pieces on a square never lets another piece of the mover
//! move where it could not (it blocks a path, or takes the place of a
//! victim the other piece could have captured, or occupies an en passant
//! square).
//!
//! **3. The closure.** A zombie is *searched* when one of its moves could
//! touch a guarded square, or when leaving its square (or capturing en
//! passant) could enable the regular move or a move of a searched zombie.
//! The rest are free.
//!
//! **Why leaving the free zombies still is exact.** Take any legal
//! completion of the turn and drop the moves of the free zombies. A free
//! zombie's move touched no guarded square, so every check of the king
//! gives the same answer as before, and so does the final one, where the
//! zombie, now idle, is destroyed off a square that is not guarded either.
//! Every remaining move is still possible: a free zombie never enabled it,
//! and its absence from its destination only leaves paths freer. So a
//! completion exists iff one exists in which the free zombies stay still,
//! which is what the search looks for. One exception: with the "zombie
//! turn" option, a free zombie's move may be the whole turn. Keeping only
//! the first free zombie move of such a completion shows that this case
//! needs one free move from the very start and nothing else
//! (`Table::free_zombie_turn`).
//!
//! The argument holds at every table, so the search finds the free zombies
//! again at each table it reaches: once the regular move is made, the
//! zombies that could only have made room for it are free too.
//!
//! **Inert regular moves.** For the same reasons, the regular moves that
//! touch no guarded square and none that a searched zombie depends on (and
//! do not move the king) all lead to tables that complete alike: the search
//! tries the first of them only (`Horde::is_inert`).
//!
//! **Two passes.** The regular move may be made by any piece that is not a
//! zombie, so "could enable the regular move" pulls in every zombie standing
//! on the path of any of those pieces. A first, *quick* pass counts only the
//! regular pieces that can touch a guarded square (the king included): a
//! completion it finds is a real one. Only when it finds none does the
//! *exact* pass, with every regular piece, decide.

use chesskit_core::chess::{Bitboard, Move, Piece, Role, Square};
use shakmaty::attacks;

use super::turn::{Burials, Table};

/// How the regular move counts in the closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// Only the regular pieces that can touch a guarded square (and the
    /// king): quick, and a completion found is real.
    Quick,
    /// Every regular piece: no completion is missed.
    Exact,
}

/// What the search needs to know at one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Horde {
    /// The mover's idle zombies whose moves the search may leave out.
    pub free: Bitboard,
    /// The guarded squares and those the searched zombies' moves depend on:
    /// a regular move touching none of them (and not the king's) is *inert*.
    pub relevant: Bitboard,
}

impl Horde {
    /// Whether the regular move `m` is inert: it cannot change the king's
    /// safety, nor enable or block a searched zombie. All inert moves lead
    /// to tables that complete alike (the pieces left to move are the same,
    /// and so is every square they and the king's safety depend on), so the
    /// search tries one of them only.
    pub fn is_inert(&self, table: &Table, m: Move) -> bool {
        let Some(from) = m.from() else { return false };
        if m.role() == Role::King || table.zombies.contains(from) {
            return false;
        }
        let mut touched = Bitboard::from_square(from).with(m.to());
        if let Move::EnPassant { to, .. } = m {
            touched.add(Square::from_coords(to.file(), from.rank()));
        }
        !touched.intersects(self.relevant)
    }
}

/// The free zombies at `table`, and what the others depend on.
pub fn analyse(table: &Table, burials: &Burials, pass: Pass) -> Horde {
    let guarded = guarded_squares(table, burials);
    let idle = table.idle_zombies();
    let mut depended_on = regular_dependencies(table, guarded, pass);
    let mut searched = Bitboard::EMPTY;
    let mut relevant = guarded;
    loop {
        let mut grew = false;
        for square in idle & !searched {
            let Some(piece) = table.board().piece_at(square) else { continue };
            let dependencies = dependencies(table, square, piece);
            if dependencies.with(square).intersects(guarded) || enablers(table, square, piece).intersects(depended_on) {
                searched.add(square);
                depended_on |= dependencies;
                relevant |= dependencies;
                grew = true;
            }
        }
        if !grew {
            return Horde { free: idle & !searched, relevant };
        }
    }
}

/// The mover's idle zombies whose moves the search may leave out.
#[cfg(test)]
pub fn free_zombies(table: &Table, burials: &Burials, pass: Pass) -> Bitboard {
    analyse(table, burials, pass).free
}

/// The squares whose contents may decide whether the mover's king is in
/// check anywhere this turn: every square from which an opponent's piece,
/// standing or rising, could attack a square the king may stand on, and
/// the squares between.
pub fn guarded_squares(table: &Table, burials: &Burials) -> Bitboard {
    let board = table.board();
    let us = table.us();
    let them = us.other();
    let Some(king) = board.king_of(us) else { return Bitboard::EMPTY };
    let mut kings = Bitboard::from_square(king);
    if !table.regular_done {
        kings |= attacks::king_attacks(king);
        if has_castling_right(table) {
            kings |= Bitboard::from_rank(us.backrank());
        }
    }
    let standing = board.by_color(them).into_iter().filter_map(|sq| {
        let piece = board.piece_at(sq)?;
        Some((sq, attacks::attacks(sq, piece, Bitboard::EMPTY)))
    });
    let rising = burials.iter().map(|(&sq, &role)| {
        let reach = if role == Role::Pawn && sq.rank() == us.backrank() {
            // It rises and promotes to a piece its owner will choose.
            attacks::queen_attacks(sq, Bitboard::EMPTY) | attacks::knight_attacks(sq)
        } else {
            attacks::attacks(sq, role.of(them), Bitboard::EMPTY)
        };
        (sq, reach)
    });
    let mut guarded = Bitboard::EMPTY;
    for (from, reach) in standing.chain(rising) {
        for target in reach & kings {
            guarded |= attacks::between(from, target).with(from);
        }
    }
    guarded
}

/// Whether the mover may still castle this turn (a right and the regular move to come).
fn has_castling_right(table: &Table) -> bool {
    let us = table.us();
    !table.regular_done && (table.pos.castling_rooks() & Bitboard::from_rank(us.backrank())).any()
}

/// The squares whose contents decide the moves of the regular pieces the
/// pass counts.
fn regular_dependencies(table: &Table, guarded: Bitboard, pass: Pass) -> Bitboard {
    if table.regular_done {
        return Bitboard::EMPTY;
    }
    let board = table.board();
    let regular = board.by_color(table.us()) & !table.zombies;
    let mut depended_on = Bitboard::EMPTY;
    for square in regular {
        let Some(piece) = board.piece_at(square) else { continue };
        let dependencies = dependencies(table, square, piece);
        let counts = match pass {
            Pass::Exact => true,
            Pass::Quick => piece.role == Role::King || dependencies.with(square).intersects(guarded),
        };
        if counts {
            depended_on |= dependencies;
        }
    }
    depended_on
}

/// The squares whose contents decide which moves the piece on `from` may
/// make, on any board this turn can reach: where it could go or pass on an
/// empty board, a pawn's pushes and captures, an en passant victim, and for
/// the king the squares castling crosses.
pub fn dependencies(table: &Table, from: Square, piece: Piece) -> Bitboard {
    match piece.role {
        Role::Pawn => {
            let forward = piece.color.fold_wb(8, -8);
            let mut squares = attacks::pawn_attacks(piece.color, from);
            if let Some(one) = from.offset(forward) {
                squares.add(one);
                if let Some(two) = one.offset(forward) {
                    squares.add(two);
                }
            }
            squares | enablers(table, from, piece).without(from)
        }
        Role::King if has_castling_right(table) => {
            attacks::king_attacks(from) | Bitboard::from_rank(piece.color.backrank())
        }
        _ => attacks::attacks(from, piece, Bitboard::EMPTY),
    }
}

/// The squares a move of the piece on `from` may empty: its own, and the
/// square of a pawn it may capture en passant.
fn enablers(table: &Table, from: Square, piece: Piece) -> Bitboard {
    let mut squares = Bitboard::from_square(from);
    if piece.role == Role::Pawn {
        if let Some(ep) = table.pos.ep_square() {
            if attacks::pawn_attacks(piece.color, from).contains(ep) {
                squares.add(Square::from_coords(ep.file(), from.rank()));
            }
        }
    }
    squares
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use chesskit_core::chess::{Board, Color, File, Geometry, Position, Rank};
    use chesskit_core::rng::GameRng;
    use proptest::prelude::*;

    use super::super::turn::{DeadEnds, TurnRules};
    use super::*;

    /// A random small position of the mover's turn: both kings, a few
    /// pieces of each side, up to four zombies of the mover (one maybe
    /// already moved), burials of the mover (some that would promote),
    /// castling rights and an en passant square now and then.
    fn random_table(rng: &mut GameRng) -> (Table, Burials, bool) {
        let us = if rng.chance(0.5) { Color::White } else { Color::Black };
        let them = us.other();
        let mut board = Board::empty();
        let mut free: Vec<Square> = Square::ALL.to_vec();
        rng.shuffle(&mut free);
        let king = if rng.chance(0.6) {
            *rng.choose(&[Square::A1, Square::H1, Square::E1, Square::E1, Square::E1, Square::A8]).unwrap()
        } else {
            free[0]
        };
        let king = if us == Color::Black { king.flip_vertical() } else { king };
        free.retain(|&sq| sq != king);
        board.set_piece_at(king, us.king());
        let their_king = *free.iter().find(|&&sq| !attacks::king_attacks(king).contains(sq)).unwrap();
        free.retain(|&sq| sq != their_king);
        board.set_piece_at(their_king, them.king());
        let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
        let near = attacks::king_attacks(king) | attacks::knight_attacks(king);
        let mut zombies = Bitboard::EMPTY;
        let zombie_count = rng.below(5);
        for i in 0..zombie_count {
            let role = *rng.choose(&[Role::Pawn, Role::Knight, Role::Knight, Role::Bishop, Role::Rook]).unwrap();
            // Half of the zombies stand next to the king, where they shield it.
            let square = if i % 2 == 0 {
                let spots: Vec<Square> = (near & !board.occupied()).into_iter().filter(|&sq| fits(role, sq)).collect();
                rng.choose(&spots).copied().or_else(|| take(&mut free, role))
            } else {
                take(&mut free, role)
            };
            let Some(square) = square else { continue };
            free.retain(|&sq| sq != square);
            board.set_piece_at(square, role.of(us));
            zombies.add(square);
        }
        for _ in 0..rng.below(3) {
            let role = *rng.choose(&roles).unwrap();
            if let Some(square) = take(&mut free, role) {
                board.set_piece_at(square, role.of(us));
            }
        }
        for _ in 0..1 + rng.below(4) {
            let role =
                *rng.choose(&[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Rook, Role::Queen]).unwrap();
            if let Some(square) = take(&mut free, role) {
                board.set_piece_at(square, role.of(them));
            }
        }
        let mut burials = Burials::new();
        let ours: Vec<Square> = board.by_color(us).into_iter().collect();
        for _ in 0..rng.below(3) {
            let square = *rng.choose(&ours).unwrap();
            // A pawn buried under the back rank rises and promotes.
            let role = if square.rank() == us.backrank() && rng.chance(0.5) {
                Role::Pawn
            } else {
                *rng.choose(&roles).unwrap()
            };
            burials.insert(square, role);
        }
        let mut castling = Bitboard::EMPTY;
        if king == Square::from_coords(File::E, us.backrank()) {
            for corner in [File::A, File::H] {
                let rook = Square::from_coords(corner, us.backrank());
                if rng.chance(0.7) && !board.occupied().contains(rook) {
                    board.set_piece_at(rook, us.rook());
                    castling.add(rook);
                }
            }
        }
        // An en passant square behind an opponent's pawn that just advanced two squares.
        let ep = board.by_piece(them.pawn()).into_iter().find_map(|pawn| {
            let rank_ok = pawn.rank() == them.fold_wb(Rank::Fourth, Rank::Fifth);
            let behind = pawn.offset(them.fold_wb(-8, 8))?;
            (rank_ok && !board.occupied().contains(behind) && rng.chance(0.8)).then_some(behind)
        });
        let pos = Position::from_parts(board, us, castling, ep, 0, 1, Geometry::ORTHODOX);
        let mut table = Table::new(pos, zombies);
        // Sometimes a zombie of the mover has already moved.
        if rng.chance(0.2) {
            if let Some(&m) = rng
                .choose(&table.candidate_moves().into_iter().filter(|m| table.is_zombie_move(*m)).collect::<Vec<_>>())
            {
                table.play(m);
            }
        }
        (table, burials, rng.chance(0.3))
    }

    /// Pawns stand off the first and last ranks.
    fn fits(role: Role, square: Square) -> bool {
        role != Role::Pawn || !matches!(square.rank(), Rank::First | Rank::Eighth)
    }

    /// The first free square that fits a piece of `role`, taken.
    fn take(free: &mut Vec<Square>, role: Role) -> Option<Square> {
        let index = free.iter().position(|&sq| fits(role, sq))?;
        Some(free.remove(index))
    }

    /// The new answer equals the exhaustive one at `table` and after each
    /// step that keeps the king safe.
    fn agrees_with_brute_force(table: &Table, burials: &Burials, zombie_turn: bool) {
        let rules = TurnRules { burials, zombie_turn };
        let mut tables = vec![table.clone()];
        for m in table.candidate_moves() {
            let mut next = table.clone();
            next.play(m);
            if next.king_safe(burials, false) {
                tables.push(next);
            }
        }
        let (mut dead_ends, mut brute_dead_ends) = (DeadEnds::new(), HashSet::new());
        for t in tables {
            let fast = t.can_complete(rules, &mut dead_ends);
            let slow = t.can_complete_by_brute_force(rules, &mut brute_dead_ends);
            assert_eq!(fast, slow, "{t:?}\nburials {burials:?}, zombie turn {zombie_turn}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// `can_complete` equals the exhaustive search on random small positions.
        #[test]
        fn completion_equals_the_exhaustive_search(seed in any::<u64>()) {
            let mut rng = GameRng::from_seed(seed);
            let (table, burials, zombie_turn) = random_table(&mut rng);
            agrees_with_brute_force(&table, &burials, zombie_turn);
        }
    }

    /// A table read from a text position, with the mover's burials.
    fn table_of(text: &str) -> (Table, Burials) {
        let parts = super::super::text::read(text).unwrap_or_else(|e| panic!("{e}"));
        let burials = parts.burials[super::super::seat_of(parts.table.us())];
        (parts.table, burials)
    }

    fn legal_texts(table: &Table, burials: &Burials) -> Vec<String> {
        let rules = TurnRules { burials, zombie_turn: false };
        table.legal_moves(rules).into_iter().map(|m| shakmaty::uci::UciMove::from_standard(m).to_string()).collect()
    }

    /// The horde of the bug report: the idle zombie knight on b1 shields the
    /// king from the rook on h1, and only Rg7-g1 saves it. The six other
    /// knights are free: only the knight on d7, which could make way for the
    /// rook along the seventh rank, is searched.
    #[test]
    fn the_reported_horde_searches_two_zombies() {
        let (table, burials) = table_of("7k/3N{z}2R1/2N{z}1N{z}3/3N{z}1N{z}2/4N{z}3/pp6/PP6/KN{z}5r w - - 0 1");
        let free = free_zombies(&table, &burials, Pass::Exact);
        assert_eq!(table.idle_zombies() & !free, Bitboard::from_square(Square::B1).with(Square::D7));
        let legal = legal_texts(&table, &burials);
        assert!(legal.contains(&"g7g1".to_string()), "{legal:?}");
        assert!(!legal.contains(&"a2b3".to_string()), "{legal:?}");
        let regular: Vec<&String> = legal.iter().filter(|m| ["a2", "b2", "g7", "a1"].contains(&&m[..2])).collect();
        assert_eq!(regular, vec!["g7g1"]);
        assert!(!legal.iter().any(|m| m.starts_with("b1")), "the shield may not move");
    }

    /// The only fix is the regular move Rg7-g1, whose path a zombie on g4
    /// blocks: that zombie must make way first, so it is searched.
    #[test]
    fn a_zombie_that_makes_way_for_the_saving_move_is_searched() {
        let text = "7k/6R1/8/8/6N{z}1/pp6/PP6/KN{z}5r w - - 0 1";
        let (table, burials) = table_of(text);
        assert!(free_zombies(&table, &burials, Pass::Exact).is_empty());
        agrees_with_brute_force(&table, &burials, false);
        let legal = legal_texts(&table, &burials);
        assert!(!legal.contains(&"g7g1".to_string()) && legal.contains(&"g4e5".to_string()), "{legal:?}");
    }

    /// An en passant capture by a zombie pawn removes the black pawn on d5
    /// that blocks Ba8xh1, the only fix: the zombie is searched for the
    /// square it empties by capturing, not only for its own.
    #[test]
    fn a_zombie_that_captures_en_passant_out_of_the_way_is_searched() {
        let text = "B6k/8/8/3pP{z}3/8/pp6/PP6/KN{z}5r w - d6 0 1";
        let (table, burials) = table_of(text);
        let rules = TurnRules { burials: &burials, zombie_turn: false };
        assert!(table.can_complete(rules, &mut DeadEnds::new()));
        assert!(free_zombies(&table, &burials, Pass::Exact).is_empty());
        agrees_with_brute_force(&table, &burials, false);
        assert!(legal_texts(&table, &burials).contains(&"e5d6".to_string()));
    }

    /// Castling is the only way out, and then the zombie pawn on g3 must step
    /// to g4 to keep shielding g1 from the rook on g8: g1 is a square the
    /// king may reach this turn, so the file is guarded.
    #[test]
    fn a_zombie_that_shields_the_square_the_king_castles_to_is_searched() {
        let text = "k5r1/8/8/8/1b6/4ppP{z}b/1n1N{z}2N{z}1/2nnK2R w K - 0 1";
        let (table, burials) = table_of(text);
        assert!(!free_zombies(&table, &burials, Pass::Exact).contains(Square::G3));
        agrees_with_brute_force(&table, &burials, false);
        let legal = legal_texts(&table, &burials);
        let regular: Vec<&String> = legal.iter().filter(|m| m.starts_with("e1") || m.starts_with("h1")).collect();
        assert_eq!(regular, vec!["e1g1"], "{legal:?}");
    }

    /// A burial that would rise as a rook on the king's file makes the
    /// zombie standing on it matter, though nothing attacks the king now.
    #[test]
    fn a_zombie_on_a_burial_that_would_check_is_searched() {
        let text = "7k/8/8/8/8/8/4N{z}3/4K3 w - - 0 1\nwhite burials: e2=R";
        let (table, burials) = table_of(text);
        assert!(!free_zombies(&table, &burials, Pass::Exact).contains(Square::E2));
        agrees_with_brute_force(&table, &burials, false);
    }
}
