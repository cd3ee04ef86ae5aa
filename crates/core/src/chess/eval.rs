//! A static evaluation of a chess board, in pawns, for the computer
//! players' search. It adds up what a shallow search cannot see for itself
//! on a board with no side to move: material; where each piece stands
//! (piece-square tables, one for the middlegame and one for the endgame,
//! blended by how much material is left); how freely the pieces move; how
//! safe each king is; passed pawns; the bishop pair; rooks on open files;
//! and, far ahead in material, a hunt of the bare king. Every game played
//! on a chess board starts from it and adds what its rules make valuable.
//!
//! The terms are summed in centipawns from White's side as [`Tapered`]
//! pairs and turned into pawns once, at the end: the search calls this at
//! every node, so it works on bitboards and allocates nothing, and it reads
//! the material and piece-square sums a [`Position`] keeps up to date as
//! pieces move ([`PieceSums`]) instead of counting them again.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use crate::chess::Position;

/// What a piece is worth, in pawns.
pub const fn role_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.2,
        Role::Bishop => 3.3,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// The position's board from `color`'s side, in pawns: positive when
/// `color` stands better. The two sides always see opposite scores. The
/// same value as [`evaluate_board`], from the sums the position keeps.
pub fn evaluate(pos: &Position, color: Color) -> f64 {
    let sums = pos.piece_sums();
    debug_assert_eq!(sums, PieceSums::count(pos.board()), "the position's sums drifted from its board");
    evaluate_with_sums(pos.board(), sums, color)
}

/// [`evaluate`] for a bare board, counting its pieces first: for boards
/// that belong to no [`Position`].
pub fn evaluate_board(board: &Board, color: Color) -> f64 {
    evaluate_with_sums(board, PieceSums::count(board), color)
}

fn evaluate_with_sums(board: &Board, sums: PieceSums, color: Color) -> f64 {
    let for_white = f64::from(centipawns_for_white(board, sums)) / 100.0;
    let hunt = king_hunt(board, color, sums) - king_hunt(board, !color, sums);
    color.fold_wb(for_white, -for_white) + hunt
}

/// A board's material and piece-square table sums: what a piece adds where
/// it stands, the same whatever else is on the board. So a [`Position`]
/// keeps them, adding and taking away each piece as it is put down and
/// lifted, and the evaluation reads them instead of visiting every piece
/// at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceSums {
    /// Material and table entries, White's minus Black's, in centipawns.
    placement: Tapered,
    /// Each side's material in centipawns, by `Color as usize`: the king hunt's
    /// quick test of whether a side is far enough ahead.
    material: [i32; 2],
    /// The pieces other than pawns and kings, weighed for [`PieceSums::phase`].
    phase_weight: i32,
}

impl PieceSums {
    /// The sums of the pieces on `board`, counted one by one (kind by kind,
    /// which finds each piece's kind without asking the board).
    pub fn count(board: &Board) -> PieceSums {
        let mut sums = PieceSums::default();
        for piece in Color::ALL.into_iter().flat_map(|color| Role::ALL.map(|role| role.of(color))) {
            for square in board.by_piece(piece) {
                sums.add(piece, square);
            }
        }
        sums
    }

    /// `piece` put down on `square`.
    #[inline]
    pub(crate) fn add(&mut self, piece: Piece, square: Square) {
        let role = piece.role as usize - 1;
        self.placement += PLACEMENT[piece.color as usize][role][square as usize];
        self.material[piece.color as usize] += WORTH[role];
        self.phase_weight += PHASE_WEIGHT[role];
    }

    /// `piece` lifted from `square`.
    #[inline]
    pub(crate) fn remove(&mut self, piece: Piece, square: Square) {
        let role = piece.role as usize - 1;
        self.placement = self.placement - PLACEMENT[piece.color as usize][role][square as usize];
        self.material[piece.color as usize] -= WORTH[role];
        self.phase_weight -= PHASE_WEIGHT[role];
    }

    /// How far the game is from its ending, 0 to [`FULL_PHASE`], by the
    /// pieces other than pawns and kings on the board: knights and bishops
    /// count one, rooks two, queens four. More (promotions) counts as a
    /// full middlegame.
    fn phase(self) -> i32 {
        self.phase_weight.min(FULL_PHASE)
    }
}

/// [`role_value`] in centipawns, by `Role as usize - 1`.
const WORTH: [i32; 6] = {
    let mut worth = [0; 6];
    let mut role = 0;
    while role < 6 {
        worth[role] = (role_value(Role::ALL[role]) * 100.0) as i32;
        role += 1;
    }
    worth
};

/// What each role weighs toward the phase, by `Role as usize - 1`.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Material and table entries of each piece on each square from White's
/// side (Black's pieces negative), by `Color as usize`, `Role as usize - 1`
/// and square: what [`PieceSums`] adds and takes away at every move,
/// worked out once. The tables are drawn from White's side with the eighth
/// rank on top, as a diagram reads, so White's pieces look them up mirrored
/// (square ^ 56) and Black's as they stand.
static PLACEMENT: [[[Tapered; 64]; 6]; 2] = {
    let tables: [(&[i16; 64], &[i16; 64]); 6] = [
        (&PAWN_MG, &PAWN_EG),
        (&KNIGHT_MG, &KNIGHT_EG),
        (&BISHOP_MG, &BISHOP_EG),
        (&ROOK_MG, &ROOK_EG),
        (&QUEEN_MG, &QUEEN_EG),
        (&KING_MG, &KING_EG),
    ];
    let mut placement = [[[Tapered::new(0, 0); 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let (worth, (mg, eg)) = (WORTH[role], tables[role]);
        let mut square = 0;
        while square < 64 {
            let (white, black) = (square ^ 56, square);
            placement[Color::White as usize][role][square] =
                Tapered::new(worth + mg[white] as i32, worth + eg[white] as i32);
            placement[Color::Black as usize][role][square] =
                Tapered::new(-(worth + mg[black] as i32), -(worth + eg[black] as i32));
            square += 1;
        }
        role += 1;
    }
    placement
};

/// A middlegame and an endgame value of one term, in centipawns: most
/// things are worth differently with queens and rooks on than in an ending
/// (a king hides in the middlegame and fights in the endgame; a passed
/// pawn grows in worth as pieces come off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Tapered {
    mg: i32,
    eg: i32,
}

impl Tapered {
    const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    /// The term `times` over (a count of squares, of pawns).
    fn times(self, times: i32) -> Tapered {
        Tapered::new(self.mg * times, self.eg * times)
    }

    /// The blend at `phase` (0 = bare ending, [`FULL_PHASE`] = all pieces on).
    fn blend(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (FULL_PHASE - phase)) / FULL_PHASE
    }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    fn add(self, other: Tapered) -> Tapered {
        Tapered::new(self.mg + other.mg, self.eg + other.eg)
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, other: Tapered) -> Tapered {
        Tapered::new(self.mg - other.mg, self.eg - other.eg)
    }
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, other: Tapered) {
        *self = *self + other;
    }
}

/// The phase of the starting position ([`PieceSums::phase`]).
const FULL_PHASE: i32 = 24;

/// Everything but the king hunt, White's terms minus Black's, blended by
/// the phase, in centipawns, with the material and table sums `sums` keeps.
fn centipawns_for_white(board: &Board, sums: PieceSums) -> i32 {
    let terms = sums.placement + side_terms(board, Color::White) - side_terms(board, Color::Black);
    terms.blend(sums.phase())
}

/// `color`'s terms past material and tables: how its pieces move and bear
/// on the other king, its pawns, and its own king's shelter.
fn side_terms(board: &Board, color: Color) -> Tapered {
    activity(board, color)
        + passed_pawns(board, color)
        + rooks_on_open_files(board, color)
        + bishop_pair(board, color)
        + pawn_shield(board, color)
}

/// Per square a piece could move to, past its usual count: a piece with
/// more squares has more threats and escapes.
const MOBILITY_KNIGHT: Tapered = Tapered::new(4, 4);
const MOBILITY_BISHOP: Tapered = Tapered::new(5, 5);
const MOBILITY_ROOK: Tapered = Tapered::new(2, 4);
const MOBILITY_QUEEN: Tapered = Tapered::new(1, 2);

/// What a piece's attacks on the squares around the other king weigh,
/// per square, toward [`KING_DANGER`].
const fn king_attack_weight(role: Role) -> i32 {
    match role {
        Role::Knight | Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 5,
        Role::Pawn | Role::King => 0,
    }
}

/// Mobility and attack on the other king, together since both come from
/// the same attack sets (pseudo-legal, by bitboards: legality is the
/// search's business). A square counts for mobility unless an own piece
/// stands there or an enemy pawn guards it. Role by role, so that each
/// role's weights are constants in its loop.
fn activity(board: &Board, color: Color) -> Tapered {
    let occupied = board.occupied();
    let enemy_pawn_guard = pawn_guard(board, !color);
    let free = !(board.by_color(color) | enemy_pawn_guard);
    let zone = board.king_of(!color).map_or(Bitboard::EMPTY, |king| king_attacks(king).with(king));
    let mut reach = Reach::new(free, zone);
    let ours = |role: Role| board.by_piece(role.of(color));
    for square in ours(Role::Knight) {
        reach.add(Role::Knight, knight_attacks(square));
    }
    for square in ours(Role::Bishop) {
        reach.add(Role::Bishop, bishop_attacks(square, occupied));
    }
    for square in ours(Role::Rook) {
        reach.add(Role::Rook, rook_attacks(square, occupied));
    }
    for square in ours(Role::Queen) {
        reach.add(Role::Queen, queen_attacks(square, occupied));
    }
    reach.terms()
}

/// The attack sets of one side's pieces, summed as [`activity`] weighs
/// them.
struct Reach {
    free: Bitboard,
    zone: Bitboard,
    mobility: Tapered,
    attackers: i32,
    danger: i32,
}

impl Reach {
    fn new(free: Bitboard, zone: Bitboard) -> Reach {
        Reach { free, zone, mobility: Tapered::default(), attackers: 0, danger: 0 }
    }

    /// A piece of `role` (knight, bishop, rook or queen) attacking `attacks`.
    #[inline(always)]
    fn add(&mut self, role: Role, attacks: Bitboard) {
        let (weight, usual) = mobility_weight(role);
        self.mobility += weight.times((attacks & self.free).count() as i32 - usual);
        let near_king = attacks & self.zone;
        if near_king.any() {
            self.attackers += 1;
            self.danger += king_attack_weight(role) * near_king.count() as i32;
        }
    }

    fn terms(&self) -> Tapered {
        self.mobility + Tapered::new(king_danger(self.attackers, self.danger), 0)
    }
}

/// A role's weight per square it could move to, and the count of squares
/// a piece of it usually has (none for pawns and kings, which do not count).
const fn mobility_weight(role: Role) -> (Tapered, i32) {
    match role {
        Role::Knight => (MOBILITY_KNIGHT, 4),
        Role::Bishop => (MOBILITY_BISHOP, 6),
        Role::Rook => (MOBILITY_ROOK, 6),
        Role::Queen => (MOBILITY_QUEEN, 12),
        Role::Pawn | Role::King => (Tapered::new(0, 0), 0),
    }
}

/// The squares `color`'s pawns attack: all pawns at once, shifted
/// diagonally forward (a pawn on the a- or h-file attacks one way only).
fn pawn_guard(board: &Board, color: Color) -> Bitboard {
    let pawns = board.by_piece(Role::Pawn.of(color)).0;
    let (west, east) = (pawns & !FILE_A, pawns & !FILE_H);
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// `set` and the squares one file either side of it.
fn with_neighbour_files(set: u64) -> u64 {
    set | ((set & !FILE_H) << 1) | ((set & !FILE_A) >> 1)
}

/// The bonus for bearing on the other king: nothing for one attacker
/// (a lone piece rarely mates), then growing with the square of the
/// weighted attacks, as attacks that combine are what break a king open.
/// A middlegame term: without queens a king can take care of itself.
fn king_danger(attackers: i32, danger: i32) -> i32 {
    if attackers < 2 {
        return 0;
    }
    (danger * danger / 2).min(KING_DANGER)
}

/// The most the attack on a king may be worth, in centipawns.
const KING_DANGER: i32 = 400;

/// A passed pawn's bonus by its rank from its own side (index 0 = first
/// rank): it grows steeply as the pawn nears promotion, and more in the
/// endgame, where few pieces are left to stop it.
const PASSED_PAWN: [Tapered; 8] = [
    Tapered::new(0, 0),
    Tapered::new(0, 5),
    Tapered::new(5, 10),
    Tapered::new(10, 20),
    Tapered::new(20, 40),
    Tapered::new(35, 70),
    Tapered::new(60, 110),
    Tapered::new(0, 0),
];

/// `color`'s passed pawns: no enemy pawn ahead on its file or the files
/// beside it, so no pawn can stop or take it on its way. Found for all
/// pawns at once: the squares behind each enemy pawn (from `color`'s side,
/// in front of it from its own), on its file and the files beside it, are
/// the squares where a pawn of `color` is not passed.
fn passed_pawns(board: &Board, color: Color) -> Tapered {
    let passed = board.by_piece(Role::Pawn.of(color)) & !Bitboard(stopped_squares(board, color));
    let mut sum = Tapered::default();
    for square in passed {
        let rank = color.fold_wb(square.rank(), square.rank().flip_vertical()).to_usize();
        sum += PASSED_PAWN[rank];
    }
    sum
}

/// The squares where a pawn of `color` has an enemy pawn ahead of it on its
/// file or a file beside it.
fn stopped_squares(board: &Board, color: Color) -> u64 {
    let enemy = board.by_piece(Role::Pawn.of(!color)).0;
    let mut behind = match color {
        Color::White => enemy >> 8,
        Color::Black => enemy << 8,
    };
    for shift in [8, 16, 32] {
        behind |= match color {
            Color::White => behind >> shift,
            Color::Black => behind << shift,
        };
    }
    with_neighbour_files(behind)
}

/// A rook on a file with no pawns, or none of its own, bears down it.
const ROOK_OPEN_FILE: Tapered = Tapered::new(20, 8);
const ROOK_HALF_OPEN_FILE: Tapered = Tapered::new(10, 5);

/// `color`'s rooks on open and half-open files.
fn rooks_on_open_files(board: &Board, color: Color) -> Tapered {
    let own_pawns = board.by_piece(Role::Pawn.of(color));
    let mut sum = Tapered::default();
    for square in board.by_piece(Role::Rook.of(color)) {
        let file = Bitboard::from_file(square.file());
        if (file & board.pawns()).is_empty() {
            sum += ROOK_OPEN_FILE;
        } else if (file & own_pawns).is_empty() {
            sum += ROOK_HALF_OPEN_FILE;
        }
    }
    sum
}

/// Two bishops cover both colours of squares, which one bishop and a
/// knight cannot; the pair is worth more as the board opens up.
const BISHOP_PAIR: Tapered = Tapered::new(25, 45);

fn bishop_pair(board: &Board, color: Color) -> Tapered {
    if board.by_piece(Role::Bishop.of(color)).more_than_one() {
        BISHOP_PAIR
    } else {
        Tapered::default()
    }
}

/// Per own pawn one rank and two ranks in front of the king, on its file
/// or the files beside it, and per such file with no own pawn at all ahead
/// of the king (a file open toward it). Middlegame terms: in the endgame the
/// king leaves its shelter.
const SHIELD_NEAR: i32 = 12;
const SHIELD_FAR: i32 = 6;
const SHIELD_OPEN_FILE: i32 = -15;

/// The shelter of `color`'s king: its pawns in front of it.
fn pawn_shield(board: &Board, color: Color) -> Tapered {
    let Some(king) = board.king_of(color) else { return Tapered::default() };
    let own_pawns = board.by_piece(Role::Pawn.of(color));
    let shelter = &SHELTERS[color as usize][king as usize];
    let open_files = shelter.files & !files_of(own_pawns & shelter.front);
    let mg = SHIELD_NEAR * (own_pawns & shelter.near).count() as i32
        + SHIELD_FAR * (own_pawns & shelter.far).count() as i32
        + SHIELD_OPEN_FILE * open_files.count_ones() as i32;
    Tapered::new(mg, 0)
}

/// The files holding a square of `set`, one bit each (the a-file lowest).
fn files_of(set: Bitboard) -> u8 {
    let mut files = set.0;
    files |= files >> 32;
    files |= files >> 16;
    files |= files >> 8;
    files as u8
}

/// Where a king's shelter lies: on its file and the files beside it, the
/// rank in front of it, the rank after that, and every square ahead.
#[derive(Clone, Copy)]
struct Shelter {
    near: Bitboard,
    far: Bitboard,
    front: Bitboard,
    /// The king's file and the files beside it, one bit each (the a-file lowest).
    files: u8,
}

/// The shelter of a king of each colour on each square, by `Color as
/// usize` and square, worked out once: [`pawn_shield`] asks at every node.
static SHELTERS: [[Shelter; 64]; 2] = {
    let empty = Shelter { near: Bitboard(0), far: Bitboard(0), front: Bitboard(0), files: 0 };
    let mut shelters = [[empty; 64]; 2];
    let mut square = 0;
    while square < 64 {
        let (file, rank) = (square % 8, square / 8);
        let files = (0b111u16 << file >> 1) as u8;
        let mut on_files = 0u64;
        let mut f = 0;
        while f < 8 {
            if files & (1 << f) != 0 {
                on_files |= FILE_A << f;
            }
            f += 1;
        }
        shelters[Color::White as usize][square] = Shelter {
            near: Bitboard(on_files & rank_at(rank as i32 + 1)),
            far: Bitboard(on_files & rank_at(rank as i32 + 2)),
            front: Bitboard(on_files & if rank == 7 { 0 } else { !0u64 << (8 * (rank + 1)) }),
            files,
        };
        shelters[Color::Black as usize][square] = Shelter {
            near: Bitboard(on_files & rank_at(rank as i32 - 1)),
            far: Bitboard(on_files & rank_at(rank as i32 - 2)),
            front: Bitboard(on_files & ((1u64 << (8 * rank)) - 1)),
            files,
        };
        square += 1;
    }
    shelters
};

/// The squares of rank `rank` (0 = the first), none off the board.
const fn rank_at(rank: i32) -> u64 {
    if rank >= 0 && rank < 8 {
        0xff << (8 * rank)
    } else {
        0
    }
}

/// `color`'s material in pawns, for the king hunt.
fn material_in_pawns(board: &Board, color: Color) -> f64 {
    Role::ALL.iter().map(|&role| role_value(role) * board.by_piece(role.of(color)).count() as f64).sum()
}

/// Material ahead (in pawns) from which a side hunts the other king.
const HUNT_LEAD: f64 = 4.0;
/// The most the hunted side may keep (in pawns: a rook) for the hunt to
/// be on; with more, a king walking up the board would be in danger.
const HUNT_PREY_MATERIAL: f64 = 5.0;

/// The bonus of `color` for driving a nearly bare king: its king to the
/// edge and the hunter's king close to it, where mates are. Without it a
/// shallow search, far ahead but with no mate in sight, finds every move
/// alike and shuffles until the fifty-move rule draws a won game.
fn king_hunt(board: &Board, color: Color, sums: PieceSums) -> f64 {
    if !may_hunt(sums, color) {
        return 0.0;
    }
    let (own, prey) = (material_in_pawns(board, color), material_in_pawns(board, !color));
    if own - prey < HUNT_LEAD || prey > HUNT_PREY_MATERIAL {
        return 0.0;
    }
    let (Some(hunter), Some(hunted)) = (board.king_of(color), board.king_of(!color)) else { return 0.0 };
    let kings_apart = f64::from(hunter.distance(hunted));
    0.3 * (3.0 - centrality(hunted)) + 0.1 * (7.0 - kings_apart)
}

/// Whether the material sums leave the hunt possible: a quick test in
/// whole centipawns, with a margin so that it never refuses a hunt the
/// test in pawns (sums of fractions, as the hunt has always been judged)
/// would allow; that test decides the rest.
fn may_hunt(sums: PieceSums, color: Color) -> bool {
    let (own, prey) = (sums.material[color as usize], sums.material[!color as usize]);
    const MARGIN: i32 = 10;
    own - prey >= (HUNT_LEAD * 100.0) as i32 - MARGIN && prey <= (HUNT_PREY_MATERIAL * 100.0) as i32 + MARGIN
}

/// 0 on the rim to 3 in the four centre squares.
fn centrality(square: Square) -> f64 {
    let distance = |x: u32| if x < 4 { 3 - x } else { x - 4 };
    let file = distance(u32::from(square.file()));
    let rank = distance(u32::from(square.rank()));
    f64::from(3 - file.max(rank))
}

// The piece-square tables, in centipawns, drawn from White's side as a
// diagram reads: the eighth rank on top, the a-file on the left. Our own
// values, in the spirit of the published tables of open engines: knights
// and bishops toward the centre and off the rim, pawns forward in the
// centre, rooks to the seventh rank, the king sheltered behind its pawns in
// the middlegame and in the centre in the endgame.

#[rustfmt::skip]
const PAWN_MG: [i16; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     40,  45,  50,  55,  55,  50,  45,  40,
     12,  16,  22,  28,  28,  22,  16,  12,
      2,   6,  10,  22,  22,  10,   6,   2,
     -4,   0,   6,  18,  18,   4,   0,  -4,
     -2,   2,   0,   6,   6,  -2,   4,  -2,
     -4,   4,   4, -14, -14,   8,   8,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_EG: [i16; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     70,  70,  65,  60,  60,  65,  70,  70,
     40,  40,  35,  30,  30,  35,  40,  40,
     20,  18,  14,  10,  10,  14,  18,  20,
     10,   8,   4,   2,   2,   4,   8,  10,
      4,   4,   0,   2,   2,   0,   4,   4,
      6,   6,   4,   6,   6,   4,   6,   6,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT_MG: [i16; 64] = [
    -50, -30, -20, -20, -20, -20, -30, -50,
    -30, -10,   5,  10,  10,   5, -10, -30,
    -20,   5,  15,  20,  20,  15,   5, -20,
    -20,   5,  15,  22,  22,  15,   5, -20,
    -20,   0,  12,  18,  18,  12,   0, -20,
    -25,   0,  10,  10,  10,  10,   0, -25,
    -35, -15,   0,   2,   2,   0, -15, -35,
    -55, -30, -25, -20, -20, -25, -30, -55,
];

#[rustfmt::skip]
const KNIGHT_EG: [i16; 64] = [
    -40, -25, -15, -12, -12, -15, -25, -40,
    -25, -10,   0,   5,   5,   0, -10, -25,
    -15,   0,  10,  14,  14,  10,   0, -15,
    -12,   5,  14,  18,  18,  14,   5, -12,
    -12,   5,  14,  18,  18,  14,   5, -12,
    -15,   0,  10,  14,  14,  10,   0, -15,
    -25, -10,   0,   5,   5,   0, -10, -25,
    -40, -25, -15, -12, -12, -15, -25, -40,
];

#[rustfmt::skip]
const BISHOP_MG: [i16; 64] = [
    -15,  -8,  -8,  -8,  -8,  -8,  -8, -15,
     -8,   0,   0,   0,   0,   0,   0,  -8,
     -6,   6,   8,  10,  10,   8,   6,  -6,
     -6,   4,  10,  12,  12,  10,   4,  -6,
     -6,   6,  10,  12,  12,  10,   6,  -6,
     -4,  10,  10,  10,  10,  10,  10,  -4,
     -6,  12,   4,   6,   6,   4,  12,  -6,
    -15,  -6, -10,  -6,  -6, -10,  -6, -15,
];

#[rustfmt::skip]
const BISHOP_EG: [i16; 64] = [
    -12,  -8,  -6,  -4,  -4,  -6,  -8, -12,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -4,   2,   6,   8,   8,   6,   2,  -4,
     -4,   2,   6,   8,   8,   6,   2,  -4,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -8,  -2,   0,   2,   2,   0,  -2,  -8,
    -12,  -8,  -6,  -4,  -4,  -6,  -8, -12,
];

#[rustfmt::skip]
const ROOK_MG: [i16; 64] = [
      8,  10,  10,  12,  12,  10,  10,   8,
     18,  22,  22,  22,  22,  22,  22,  18,
     -4,   0,   2,   4,   4,   2,   0,  -4,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -8,  -4,   0,   2,   2,   0,  -4,  -8,
     -4,  -2,   2,   8,   8,   4,  -2,  -4,
];

#[rustfmt::skip]
const ROOK_EG: [i16; 64] = [
      6,   6,   6,   6,   6,   6,   6,   6,
     12,  12,  12,  12,  12,  12,  12,  12,
      4,   4,   4,   4,   4,   4,   4,   4,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
     -4,  -2,   0,   0,   0,   0,  -2,  -4,
];

#[rustfmt::skip]
const QUEEN_MG: [i16; 64] = [
    -15,  -8,  -6,  -4,  -4,  -6,  -8, -15,
     -8,  -2,   0,   0,   0,   0,  -2,  -8,
     -6,   0,   4,   4,   4,   4,   0,  -6,
     -4,   0,   4,   5,   5,   4,   0,  -4,
     -4,   0,   4,   5,   5,   4,   0,  -4,
     -6,   2,   4,   4,   4,   4,   2,  -6,
     -8,   0,   2,   2,   2,   0,   0,  -8,
    -15,  -8,  -6,   0,  -4,  -6,  -8, -15,
];

#[rustfmt::skip]
const QUEEN_EG: [i16; 64] = [
    -20, -10,  -8,  -5,  -5,  -8, -10, -20,
    -10,   0,   4,   6,   6,   4,   0, -10,
     -8,   4,  10,  12,  12,  10,   4,  -8,
     -5,   6,  12,  16,  16,  12,   6,  -5,
     -5,   6,  12,  16,  16,  12,   6,  -5,
     -8,   4,  10,  12,  12,  10,   4,  -8,
    -10,   0,   4,   6,   6,   4,   0, -10,
    -20, -10,  -8,  -5,  -5,  -8, -10, -20,
];

#[rustfmt::skip]
const KING_MG: [i16; 64] = [
    -40, -45, -50, -55, -55, -50, -45, -40,
    -40, -45, -50, -55, -55, -50, -45, -40,
    -40, -45, -50, -55, -55, -50, -45, -40,
    -35, -40, -45, -50, -50, -45, -40, -35,
    -25, -30, -35, -40, -40, -35, -30, -25,
    -12, -18, -20, -25, -25, -20, -18, -12,
     10,  10,  -5, -15, -15,  -5,  12,  12,
     18,  28,   8, -10,   0,   5,  30,  20,
];

#[rustfmt::skip]
const KING_EG: [i16; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -20,   5,  20,  28,  28,  20,   5, -20,
    -20,   5,  20,  28,  28,  20,   5, -20,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;
    use shakmaty::attacks::pawn_attacks;

    fn board(placement: &str) -> Board {
        placement.parse().expect("a valid board")
    }

    fn white(placement: &str) -> f64 {
        evaluate_board(&board(placement), Color::White)
    }

    /// The same board with the colours swapped and the ranks mirrored:
    /// Black's view of it must be White's view of the original.
    fn mirrored(placement: &str) -> Board {
        let mut mirrored = board(placement);
        mirrored.flip_vertical();
        mirrored.swap_colors();
        mirrored
    }

    #[test]
    fn the_start_is_even_and_a_missing_queen_costs_about_nine() {
        let start = Position::startpos();
        assert!(evaluate_board(start.board(), Color::White).abs() < 1e-9);
        let without_queen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let lead = white(without_queen);
        assert!((8.5..9.5).contains(&lead), "{lead}");
        assert!((evaluate_board(&board(without_queen), Color::Black) + lead).abs() < 1e-9, "opposite scores");
    }

    #[test]
    fn both_colours_are_judged_alike() {
        for placement in [
            "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R",
            "6k1/5ppp/8/1P6/8/8/r4PPP/3R2K1",
            "2kr3r/ppp2ppp/2n5/4q3/8/2P2Q2/PP3PPP/R4RK1",
        ] {
            let own = white(placement);
            let theirs = evaluate_board(&mirrored(placement), Color::Black);
            assert!((own - theirs).abs() < 1e-9, "{placement}: {own} against {theirs}");
        }
    }

    #[test]
    fn far_ahead_a_side_drives_the_bare_king_to_the_edge() {
        // King and queen against a king: the lone king in the corner, with
        // the other king near, is worth more to the side with the queen.
        assert!(white("k7/8/1K6/8/8/8/8/7Q") > white("8/8/8/3k4/8/8/8/K6Q") + 0.5);
        // An even game knows no hunt.
        assert!(white("k7/8/1K6/8/8/8/8/7q") < -8.0);
    }

    #[test]
    fn a_centre_knight_beats_a_rim_knight() {
        assert!(white("4k3/8/8/8/3N4/8/8/4K3") > white("4k3/8/8/8/N7/8/8/4K3"));
    }

    #[test]
    fn the_phase_runs_from_all_pieces_on_to_bare_kings() {
        let phase = |board: &Board| PieceSums::count(board).phase();
        assert_eq!(phase(Position::startpos().board()), FULL_PHASE);
        assert_eq!(phase(&board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3")), 0);
        assert_eq!(phase(&board("3qk3/8/8/8/8/8/8/2R1K3")), 6);
        assert_eq!(Tapered::new(100, 0).blend(12), 50, "half-way, half of each");
    }

    #[test]
    fn the_king_shelters_in_the_middlegame_and_centralises_in_the_endgame() {
        // Queens and rooks on: the castled king beats the king in the centre.
        let castled = "r2q1rk1/ppp2ppp/8/8/8/8/PPP2PPP/R2Q1RK1";
        let centred = "r2q1rk1/ppp2ppp/8/8/3K4/8/PPP2PPP/R2Q1R2";
        assert!(white(castled) > white(centred) + 0.5);
        // Pawns only: the king in the centre beats the king in the corner.
        assert!(white("6k1/ppp2ppp/8/8/3K4/8/PPP2PPP/8") > white("6k1/ppp2ppp/8/8/8/8/PPP2PPP/6K1"));
    }

    #[test]
    fn mobility_a_piece_with_more_squares_is_worth_more() {
        // The same bishop on the same square, shut in by its own pawns or free.
        let shut_in = "4k3/8/8/8/8/8/1P1P4/2B1K3";
        let free = "4k3/8/8/8/8/1P1P4/8/2B1K3";
        assert_eq!(activity(&board(shut_in), Color::White), MOBILITY_BISHOP.times(-6), "six below the usual count");
        assert_eq!(activity(&board(free), Color::White), MOBILITY_BISHOP.times(7 - 6), "a1-a3 and d2-h6");
        assert!(white(free) > white(shut_in));
        // A square an enemy pawn guards is no square to go to.
        let guarded = "4k3/8/8/8/3p4/1P1P4/8/2B1K3";
        assert!(activity(&board(guarded), Color::White).mg < activity(&board(free), Color::White).mg);
    }

    #[test]
    fn king_safety_the_pawn_shield_counts_in_the_middlegame() {
        let shielded = "r2q1rk1/ppp2ppp/8/8/8/8/PPP2PPP/R2Q1RK1";
        let stripped = "r2q1rk1/ppp2ppp/8/8/8/5PPP/PPP5/R2Q1RK1";
        assert!(pawn_shield(&board(shielded), Color::White).mg > pawn_shield(&board(stripped), Color::White).mg);
        let open = "r2q1rk1/ppp2ppp/8/8/8/8/PPP5/R2Q1RK1";
        assert_eq!(pawn_shield(&board(open), Color::White).mg, 3 * SHIELD_OPEN_FILE, "three files open to the king");
        assert!(white(shielded) > white(open));
    }

    #[test]
    fn king_safety_pieces_bearing_on_the_king_are_worth_more_together() {
        // The queen and the knight both bear on the squares around the black
        // king, or the queen alone with the knight elsewhere.
        let attacking = "6k1/5ppp/8/6N1/8/3Q4/5PPP/6K1";
        let one_attacker = "6k1/5ppp/8/8/8/2NQ4/5PPP/6K1";
        let zone_of = |b: &Board| {
            let king = b.king_of(Color::Black).unwrap();
            king_attacks(king).with(king)
        };
        let b = board(attacking);
        assert!((knight_attacks(Square::G5) & zone_of(&b)).any(), "the knight bears on the king");
        assert!(activity(&b, Color::White).mg > activity(&board(one_attacker), Color::White).mg);
        assert_eq!(king_danger(1, 20), 0, "a lone attacker is no attack");
        assert_eq!(king_danger(3, 200), KING_DANGER, "the attack is capped");
    }

    #[test]
    fn passed_pawns_count_more_the_further_they_have_come_and_more_in_the_endgame() {
        let on_the_fourth = passed_pawns(&board("4k3/8/8/8/4P3/8/8/4K3"), Color::White);
        let on_the_sixth = passed_pawns(&board("4k3/8/4P3/8/8/8/8/4K3"), Color::White);
        assert!(on_the_sixth.mg > on_the_fourth.mg && on_the_sixth.eg > on_the_fourth.eg);
        assert!(on_the_sixth.eg > on_the_sixth.mg);
        // A black pawn ahead on the next file stops it being passed; one behind does not.
        assert_eq!(passed_pawns(&board("4k3/3p4/4P3/8/8/8/8/4K3"), Color::White), Tapered::default());
        assert_eq!(passed_pawns(&board("4k3/8/4P3/3p4/8/8/8/4K3"), Color::White), on_the_sixth);
        // Black's pawns run the other way.
        assert_eq!(passed_pawns(&board("4k3/8/8/8/4p3/8/8/4K3"), Color::Black), PASSED_PAWN[4]);
    }

    #[test]
    fn the_bishop_pair_is_worth_more_than_bishop_and_knight() {
        assert_eq!(bishop_pair(&board("4k3/8/8/8/8/8/8/2B1KB2"), Color::White), BISHOP_PAIR);
        assert_eq!(bishop_pair(&board("4k3/8/8/8/8/8/8/2B1KN2"), Color::White), Tapered::default());
    }

    #[test]
    fn rooks_on_open_files_bear_down_them() {
        assert_eq!(rooks_on_open_files(&board("4k3/p7/8/8/8/8/P7/3RK3"), Color::White), ROOK_OPEN_FILE);
        assert_eq!(rooks_on_open_files(&board("4k3/3p4/8/8/8/8/P7/3RK3"), Color::White), ROOK_HALF_OPEN_FILE);
        assert_eq!(rooks_on_open_files(&board("4k3/3p4/8/8/8/8/3P4/3RK3"), Color::White), Tapered::default());
        assert!(white("4k3/p7/8/8/8/8/P7/3RK3") > white("4k3/p7/8/8/8/8/P7/R3K3"));
    }

    /// Positions along seeded random games from a few starts (castling both
    /// ways, en passant, promotions, Chess960's king beside its rook), with
    /// pieces put down and lifted outside moves now and then as variants do
    /// (a zombie rising, a piece taken off, a direct edit of the board).
    fn positions_of_random_games(games: u64, plies: usize) -> Vec<Position> {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2P3k1/8/8/8/8/1p4K1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
        ];
        let mut positions = Vec::new();
        for seed in 0..games {
            let mut rng = GameRng::from_seed(seed);
            let mut pos = crate::chess::parse_fen(starts[seed as usize % starts.len()]).expect("a valid start");
            for _ in 0..plies {
                positions.push(pos.clone());
                edit_outside_moves(&mut pos, &mut rng);
                let moves = pos.legal_moves();
                let Some(&m) = rng.choose(&moves) else { break };
                pos.play_unchecked(m);
            }
        }
        positions
    }

    /// Now and then a piece put down, lifted, or moved by a direct edit of
    /// the board, never a king (the moves must stay orthodox).
    fn edit_outside_moves(pos: &mut Position, rng: &mut GameRng) {
        let square = Square::new(rng.below(64) as u32);
        if pos.board().role_at(square) == Some(Role::King) || pos.ep_square().is_some() {
            return;
        }
        let role = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen][rng.below(4)];
        let piece = role.of(if rng.chance(0.5) { Color::White } else { Color::Black });
        match rng.below(20) {
            0 => pos.set_piece_at(square, piece),
            1 => drop(pos.remove_piece_at(square)),
            2 => pos.board_mut().set_piece_at(square, piece),
            _ => {}
        }
        pos.set_castling_rooks(pos.castling_rooks() & pos.board().rooks());
    }

    #[test]
    fn the_sums_a_position_keeps_equal_a_recount_after_every_move_and_edit() {
        let positions = positions_of_random_games(40, 120);
        assert!(positions.len() > 2000, "{}", positions.len());
        for pos in &positions {
            assert_eq!(pos.piece_sums(), PieceSums::count(pos.board()), "{pos:?}");
            let recounted = crate::chess::Position::from_parts(
                pos.board().clone(),
                pos.turn(),
                pos.castling_rooks(),
                pos.ep_square(),
                pos.halfmoves(),
                pos.fullmoves(),
                *pos.geometry(),
            );
            assert_eq!(pos.zobrist(), recounted.zobrist(), "{pos:?}");
            for color in Color::ALL {
                assert_eq!(evaluate(pos, color), evaluate_board(pos.board(), color), "{pos:?}");
            }
        }
    }

    /// The evaluation as it was before the sums were kept and the pawn
    /// terms found set-wise: material and tables piece by piece, each pawn's
    /// attacks and path looked at alone, material in pawns for the hunt.
    mod old_formula {
        use super::*;
        use shakmaty::File;

        /// A piece's table entries, middlegame and endgame, for where it stands.
        /// The tables are drawn from White's side with the eighth rank on top, as
        /// a diagram reads; Black's pieces look them up mirrored.
        pub fn square_bonus(role: Role, color: Color, square: Square) -> (i32, i32) {
            let index = color.fold_wb(square.flip_vertical(), square).to_usize();
            let (mg, eg) = match role {
                Role::Pawn => (&PAWN_MG, &PAWN_EG),
                Role::Knight => (&KNIGHT_MG, &KNIGHT_EG),
                Role::Bishop => (&BISHOP_MG, &BISHOP_EG),
                Role::Rook => (&ROOK_MG, &ROOK_EG),
                Role::Queen => (&QUEEN_MG, &QUEEN_EG),
                Role::King => (&KING_MG, &KING_EG),
            };
            (i32::from(mg[index]), i32::from(eg[index]))
        }

        pub fn placement(board: &Board, color: Color) -> Tapered {
            let mut sum = Tapered::default();
            for role in Role::ALL {
                let worth = (role_value(role) * 100.0) as i32;
                for square in board.by_piece(role.of(color)) {
                    let (mg, eg) = square_bonus(role, color, square);
                    sum += Tapered::new(worth + mg, worth + eg);
                }
            }
            sum
        }

        pub fn phase(board: &Board) -> i32 {
            let minors = (board.knights() | board.bishops()).count() as i32;
            let rooks = board.rooks().count() as i32;
            let queens = board.queens().count() as i32;
            (minors + 2 * rooks + 4 * queens).min(FULL_PHASE)
        }

        pub fn pawn_guard(board: &Board, color: Color) -> Bitboard {
            let pawns = board.by_piece(Role::Pawn.of(color));
            pawns.into_iter().fold(Bitboard::EMPTY, |guard, square| guard | pawn_attacks(color, square))
        }

        pub fn passed_pawns(board: &Board, color: Color) -> Tapered {
            let enemy_pawns = board.by_piece(Role::Pawn.of(!color));
            let mut sum = Tapered::default();
            for square in board.by_piece(Role::Pawn.of(color)) {
                let path = ranks_ahead(square, color) & file_and_neighbours(square.file());
                if (path & enemy_pawns).is_empty() {
                    let rank = color.fold_wb(square.rank(), square.rank().flip_vertical()).to_usize();
                    sum += PASSED_PAWN[rank];
                }
            }
            sum
        }

        /// The files next to a file and the file itself.
        pub fn file_and_neighbours(file: File) -> Bitboard {
            let own = Bitboard::from_file(file);
            let east = file.offset(1).map_or(Bitboard::EMPTY, Bitboard::from_file);
            let west = file.offset(-1).map_or(Bitboard::EMPTY, Bitboard::from_file);
            own | east | west
        }

        /// The squares ahead of `square` from `color`'s side, on all ranks.
        pub fn ranks_ahead(square: Square, color: Color) -> Bitboard {
            let rank = square.rank().to_u32();
            match color {
                Color::White if rank == 7 => Bitboard::EMPTY,
                Color::White => Bitboard(!0u64 << (8 * (rank + 1))),
                Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
            }
        }

        /// Mobility and attack on the other king, piece by piece in one
        /// loop over the roles.
        pub fn activity(board: &Board, color: Color) -> Tapered {
            let occupied = board.occupied();
            let own = board.by_color(color);
            let enemy_pawn_guard = pawn_guard(board, !color);
            let free = !(own | enemy_pawn_guard);
            let zone = board.king_of(!color).map_or(Bitboard::EMPTY, |king| king_attacks(king).with(king));
            let (mut sum, mut attackers, mut danger) = (Tapered::default(), 0, 0);
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                for square in board.by_piece(role.of(color)) {
                    let (reach, weight, usual) = match role {
                        Role::Knight => (knight_attacks(square), MOBILITY_KNIGHT, 4),
                        Role::Bishop => (bishop_attacks(square, occupied), MOBILITY_BISHOP, 6),
                        Role::Rook => (rook_attacks(square, occupied), MOBILITY_ROOK, 6),
                        _ => (queen_attacks(square, occupied), MOBILITY_QUEEN, 12),
                    };
                    sum += weight.times((reach & free).count() as i32 - usual);
                    let near_king = reach & zone;
                    if near_king.any() {
                        attackers += 1;
                        danger += king_attack_weight(role) * near_king.count() as i32;
                    }
                }
            }
            sum + Tapered::new(king_danger(attackers, danger), 0)
        }

        /// The king's shelter, its ranks and files found square by square.
        pub fn pawn_shield(board: &Board, color: Color) -> Tapered {
            let Some(king) = board.king_of(color) else { return Tapered::default() };
            let own_pawns = board.by_piece(Role::Pawn.of(color));
            let files = file_and_neighbours(king.file());
            let rank_ahead = |steps: i32| {
                king.rank().offset(color.fold_wb(steps, -steps)).map_or(Bitboard::EMPTY, Bitboard::from_rank)
            };
            let (near, far) = (files & rank_ahead(1), files & rank_ahead(2));
            let front = files & ranks_ahead(king, color);
            let mut mg =
                SHIELD_NEAR * (own_pawns & near).count() as i32 + SHIELD_FAR * (own_pawns & far).count() as i32;
            for file in [king.file().offset(-1), Some(king.file()), king.file().offset(1)].into_iter().flatten() {
                if (Bitboard::from_file(file) & front & own_pawns).is_empty() {
                    mg += SHIELD_OPEN_FILE;
                }
            }
            Tapered::new(mg, 0)
        }

        pub fn king_hunt(board: &Board, color: Color) -> f64 {
            let (own, prey) = (material_in_pawns(board, color), material_in_pawns(board, !color));
            if own - prey < HUNT_LEAD || prey > HUNT_PREY_MATERIAL {
                return 0.0;
            }
            let (Some(hunter), Some(hunted)) = (board.king_of(color), board.king_of(!color)) else { return 0.0 };
            0.3 * (3.0 - centrality(hunted)) + 0.1 * (7.0 - f64::from(hunter.distance(hunted)))
        }
    }

    #[test]
    fn the_kept_sums_and_set_wise_pawn_terms_give_the_old_formulas_values() {
        let mut positions = positions_of_random_games(40, 120);
        // Endings where one side hunts the other's king, and where it nearly does.
        for fen in
            ["k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "k7/1n6/1K6/8/8/8/8/3R3Q w - - 0 1", "k7/8/1K6/8/8/8/4P3/2N1N3 w - - 0 1"]
        {
            positions.push(crate::chess::parse_fen(fen).unwrap());
        }
        let mut hunts = 0;
        for pos in &positions {
            let board = pos.board();
            let (white, black) =
                (old_formula::placement(board, Color::White), old_formula::placement(board, Color::Black));
            assert_eq!(pos.piece_sums().placement, white - black, "{pos:?}");
            assert_eq!(pos.piece_sums().phase(), old_formula::phase(board), "{pos:?}");
            for color in Color::ALL {
                assert_eq!(pawn_guard(board, color), old_formula::pawn_guard(board, color), "{pos:?}");
                assert_eq!(passed_pawns(board, color), old_formula::passed_pawns(board, color), "{pos:?}");
                assert_eq!(activity(board, color), old_formula::activity(board, color), "{pos:?}");
                assert_eq!(pawn_shield(board, color), old_formula::pawn_shield(board, color), "{pos:?}");
                let hunt = king_hunt(board, color, pos.piece_sums());
                assert_eq!(hunt, old_formula::king_hunt(board, color), "{pos:?}");
                hunts += usize::from(hunt != 0.0);
            }
        }
        assert!(hunts >= 2, "hunts were among them: {hunts}");
    }
}
