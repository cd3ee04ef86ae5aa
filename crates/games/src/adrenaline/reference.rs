//! A deliberately simple second implementation of the rules, for the
//! perft tests: an array of squares, moves found by trying every
//! from-to pair against the pieces' geometry, and the extended attack by
//! brute force (every regular move of every enemy piece, then every
//! sequence of king steps its checkers pay for, without pruning or
//! memory). It shares nothing with the fast generator but the input.

use chesskit_core::chess::{Color, Role, Square};

use super::turn::{Phase, Table};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Man {
    color: Color,
    role: Role,
    checkers: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum RPhase {
    Regular,
    Extra(usize),
    Checker,
    Over,
}

/// The whole state, square indices 0 (a1) to 63 (h8).
#[derive(Clone, Debug)]
pub struct Ref {
    board: [Option<Man>; 64],
    turn: Color,
    /// Castling rights by rook square: a1, h1, a8, h8.
    rights: [bool; 4],
    ep: Option<usize>,
    phase: RPhase,
    captured: bool,
    next_ep: Option<usize>,
}

const ROOK_SQUARES: [usize; 4] = [0, 7, 56, 63];

fn file(i: usize) -> i32 {
    (i % 8) as i32
}

fn rank(i: usize) -> i32 {
    (i / 8) as i32
}

fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

fn name(i: usize) -> String {
    format!("{}{}", (b'a' + file(i) as u8) as char, rank(i) + 1)
}

fn forward(c: Color) -> i32 {
    if c == Color::White {
        1
    } else {
        -1
    }
}

impl Ref {
    pub fn from_table(t: &Table) -> Ref {
        let mut board = [None; 64];
        for sq in Square::ALL {
            if let Some(p) = t.board().piece_at(sq) {
                board[sq as usize] = Some(Man { color: p.color, role: p.role, checkers: t.stacks.get(sq) });
            }
        }
        let rights = ROOK_SQUARES.map(|i| t.pos.castling_rooks().contains(Square::new(i as u32)));
        Ref {
            board,
            turn: t.pos.turn(),
            rights,
            ep: t.pos.ep_square().map(|s| s as usize),
            phase: match t.phase {
                Phase::Regular => RPhase::Regular,
                Phase::Extra(s) => RPhase::Extra(s as usize),
                Phase::Checker => RPhase::Checker,
                Phase::Over => RPhase::Over,
            },
            captured: t.captured,
            next_ep: t.next_ep.map(|s| s as usize),
        }
    }

    fn king(&self, c: Color) -> Option<usize> {
        (0..64).find(|&i| matches!(self.board[i], Some(m) if m.color == c && m.role == Role::King))
    }

    fn empty_between(&self, a: usize, b: usize) -> bool {
        let (df, dr) = ((file(b) - file(a)).signum(), (rank(b) - rank(a)).signum());
        let (mut f, mut r) = (file(a) + df, rank(a) + dr);
        while (f, r) != (file(b), rank(b)) {
            if self.board[at(f, r).unwrap()].is_some() {
                return false;
            }
            f += df;
            r += dr;
        }
        true
    }

    /// Whether the piece on `from` may make the regular move to `to`
    /// (castling aside), given the en passant square `ep` of its side.
    fn regular_reaches(&self, from: usize, to: usize, ep: Option<usize>) -> bool {
        let Some(man) = self.board[from] else { return false };
        if from == to || matches!(self.board[to], Some(o) if o.color == man.color) {
            return false;
        }
        let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
        let (adf, adr) = (df.abs(), dr.abs());
        match man.role {
            Role::King => adf.max(adr) == 1,
            Role::Knight => (adf, adr) == (1, 2) || (adf, adr) == (2, 1),
            Role::Bishop => adf == adr && self.empty_between(from, to),
            Role::Rook => (df == 0 || dr == 0) && self.empty_between(from, to),
            Role::Queen => (adf == adr || df == 0 || dr == 0) && self.empty_between(from, to),
            Role::Pawn => {
                let fw = forward(man.color);
                let start_rank = if man.color == Color::White { 1 } else { 6 };
                if df == 0 && dr == fw {
                    self.board[to].is_none()
                } else if df == 0 && dr == 2 * fw {
                    rank(from) == start_rank && self.board[to].is_none() && self.empty_between(from, to)
                } else if adf == 1 && dr == fw {
                    self.board[to].is_some() || Some(to) == ep
                } else {
                    false
                }
            }
        }
    }

    /// Play a regular move (not castling) on a copy: checkers come along
    /// and a captured piece's join them. Returns the new state and whether
    /// it captured.
    fn play_regular(&self, from: usize, to: usize, promotion: Option<Role>, ep: Option<usize>) -> (Ref, bool) {
        let mut r = self.clone();
        let man = r.board[from].take().unwrap();
        let mut gained = 0;
        let mut captured = false;
        if let Some(victim) = r.board[to] {
            gained = victim.checkers;
            captured = true;
        }
        if man.role == Role::Pawn && Some(to) == ep && self.board[to].is_none() && file(to) != file(from) {
            let victim_sq = at(file(to), rank(from)).unwrap();
            gained = r.board[victim_sq].take().unwrap().checkers;
            captured = true;
        }
        r.board[to] = Some(Man { role: promotion.unwrap_or(man.role), checkers: man.checkers + gained, ..man });
        for (k, &rook) in ROOK_SQUARES.iter().enumerate() {
            if rook == from || rook == to {
                r.rights[k] = false;
            }
        }
        if man.role == Role::King {
            let base = if man.color == Color::White { 0 } else { 2 };
            r.rights[base] = false;
            r.rights[base + 1] = false;
        }
        r.ep = None;
        r.next_ep = None;
        if man.role == Role::Pawn && (rank(to) - rank(from)).abs() == 2 {
            let behind = at(file(from), (rank(from) + rank(to)) / 2).unwrap();
            let enemy_pawn_beside = [-1, 1].iter().any(|d| {
                at(file(to) + d, rank(to))
                    .is_some_and(|s| matches!(r.board[s], Some(o) if o.color != man.color && o.role == Role::Pawn))
            });
            if enemy_pawn_beside {
                r.next_ep = Some(behind);
            }
        }
        (r, captured)
    }

    /// Brute force: could a piece of `by` capture on `target` in its next
    /// turn, regular move then every sequence of extra king steps?
    fn attacked(&self, target: usize, by: Color, ep: Option<usize>) -> bool {
        for from in 0..64 {
            if !matches!(self.board[from], Some(m) if m.color == by) {
                continue;
            }
            for to in 0..64 {
                if !self.regular_reaches(from, to, ep) {
                    continue;
                }
                if to == target {
                    return true;
                }
                let (after, _) = self.play_regular(from, to, None, ep);
                let budget = after.board[to].unwrap().checkers;
                if after.walk(to, budget, target, by) {
                    return true;
                }
            }
        }
        false
    }

    /// Every sequence of king steps from `at_sq` while checkers last.
    fn walk(&self, at_sq: usize, budget: u32, target: usize, by: Color) -> bool {
        if budget == 0 {
            return false;
        }
        for df in -1..=1 {
            for dr in -1..=1 {
                let Some(n) = at(file(at_sq) + df, rank(at_sq) + dr) else { continue };
                if n == at_sq {
                    continue;
                }
                if n == target {
                    return true;
                }
                let gained = match self.board[n] {
                    Some(m) if m.color == by => continue,
                    Some(m) => m.checkers,
                    None => 0,
                };
                let mut next = self.clone();
                let walker = next.board[at_sq].take().unwrap();
                next.board[n] = Some(walker);
                if next.walk(n, budget - 1 + gained, target, by) {
                    return true;
                }
            }
        }
        false
    }

    fn safe(&self) -> bool {
        match self.king(self.turn) {
            Some(k) => !self.attacked(k, self.turn.other(), self.next_ep),
            None => true,
        }
    }

    fn after_landing(mut self, sq: usize) -> Ref {
        self.phase = if self.board[sq].unwrap().checkers > 0 {
            RPhase::Extra(sq)
        } else if self.captured {
            RPhase::Checker
        } else {
            RPhase::Over
        };
        self
    }

    /// Every action and the state it leads to, legal or not.
    fn candidates(&self) -> Vec<(String, Ref)> {
        let us = self.turn;
        let mut out = Vec::new();
        match self.phase {
            RPhase::Regular => {
                for from in 0..64 {
                    let Some(man) = self.board[from].filter(|m| m.color == us) else { continue };
                    for to in 0..64 {
                        if !self.regular_reaches(from, to, self.ep) {
                            continue;
                        }
                        let last = if us == Color::White { 7 } else { 0 };
                        let promotions: Vec<Option<Role>> = if man.role == Role::Pawn && rank(to) == last {
                            [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(Some).to_vec()
                        } else {
                            vec![None]
                        };
                        for promotion in promotions {
                            let (mut r, captured) = self.play_regular(from, to, promotion, self.ep);
                            r.captured = captured;
                            let text = format!(
                                "{}{}{}",
                                name(from),
                                name(to),
                                promotion.map_or(String::new(), |p| p.char().to_string())
                            );
                            out.push((text, r.after_landing(to)));
                        }
                    }
                    if man.role == Role::King {
                        out.extend(self.castles(from));
                    }
                }
            }
            RPhase::Extra(from) => {
                let man = self.board[from].unwrap();
                for to in 0..64 {
                    if (file(to) - file(from)).abs().max((rank(to) - rank(from)).abs()) != 1 {
                        continue;
                    }
                    if matches!(self.board[to], Some(o) if o.color == us) {
                        continue;
                    }
                    let last = if us == Color::White { 7 } else { 0 };
                    let promotions: Vec<Option<Role>> = if man.role == Role::Pawn && rank(to) == last {
                        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(Some).to_vec()
                    } else {
                        vec![None]
                    };
                    for promotion in promotions {
                        let mut r = self.clone();
                        let gained = r.board[to].map_or(0, |v| v.checkers);
                        r.captured |= r.board[to].is_some();
                        r.board[from] = None;
                        r.board[to] = Some(Man {
                            role: promotion.unwrap_or(man.role),
                            checkers: man.checkers - 1 + gained,
                            ..man
                        });
                        for (k, &rook) in ROOK_SQUARES.iter().enumerate() {
                            if rook == from || rook == to {
                                r.rights[k] = false;
                            }
                        }
                        r.next_ep = None;
                        let text = format!(
                            "step {}{}{}",
                            name(from),
                            name(to),
                            promotion.map_or(String::new(), |p| p.char().to_string())
                        );
                        out.push((text, r.after_landing(to)));
                    }
                }
                let mut stop = self.clone();
                stop.phase = if self.captured { RPhase::Checker } else { RPhase::Over };
                out.push(("stop".to_string(), stop));
            }
            RPhase::Checker => {
                for sq in 0..64 {
                    if matches!(self.board[sq], Some(m) if m.color != us) {
                        let mut r = self.clone();
                        r.board[sq].as_mut().unwrap().checkers += 1;
                        r.phase = RPhase::Over;
                        out.push((format!("checker {}", name(sq)), r));
                    }
                }
            }
            RPhase::Over => {}
        }
        out
    }

    /// Castling by brute force: rights, empty squares between king and
    /// rook, no checkers on either, and each square of the king's path
    /// (start and end included) not attacked with the king standing there.
    fn castles(&self, king: usize) -> Vec<(String, Ref)> {
        let us = self.turn;
        let home = if us == Color::White { 4 } else { 60 };
        let mut out = Vec::new();
        if king != home {
            return out;
        }
        for (k, &rook) in ROOK_SQUARES.iter().enumerate() {
            if !self.rights[k] || rank(rook) != rank(king) {
                continue;
            }
            if !matches!(self.board[rook], Some(m) if m.color == us && m.role == Role::Rook) {
                continue;
            }
            if self.board[king].unwrap().checkers > 0 || self.board[rook].unwrap().checkers > 0 {
                continue;
            }
            if !self.empty_between(king, rook) {
                continue;
            }
            let king_side = rook > king;
            let (king_to, rook_to) = if king_side { (king + 2, king + 1) } else { (king - 2, king - 1) };
            let path: Vec<usize> = if king_side { (king..=king_to).collect() } else { (king_to..=king).collect() };
            let path_safe = path.iter().all(|&sq| {
                let mut r = self.clone();
                let k_man = r.board[king].take().unwrap();
                r.board[rook] = None;
                r.board[sq] = Some(k_man);
                !r.attacked(sq, us.other(), None)
            });
            if !path_safe {
                continue;
            }
            let mut r = self.clone();
            let k_man = r.board[king].take().unwrap();
            let r_man = r.board[rook].take().unwrap();
            r.board[king_to] = Some(k_man);
            r.board[rook_to] = Some(r_man);
            let base = if us == Color::White { 0 } else { 2 };
            r.rights[base] = false;
            r.rights[base + 1] = false;
            r.ep = None;
            r.next_ep = None;
            r.phase = RPhase::Over;
            out.push((format!("{}{}", name(king), name(king_to)), r));
        }
        out
    }

    /// Whether the turn can be finished from here with the king safe after
    /// every action.
    fn can_finish(&self) -> bool {
        if !self.safe() {
            return false;
        }
        match self.phase {
            RPhase::Over => true,
            _ => self.candidates().into_iter().any(|(_, r)| r.can_finish()),
        }
    }

    /// The legal actions and where they lead (the next turn's start once a
    /// turn is over).
    pub fn legal(&self) -> Vec<(String, Ref)> {
        self.candidates()
            .into_iter()
            .filter(|(_, r)| r.can_finish())
            .map(|(text, r)| (text, if r.phase == RPhase::Over { r.next_turn() } else { r }))
            .collect()
    }

    fn next_turn(mut self) -> Ref {
        self.turn = self.turn.other();
        self.ep = self.next_ep.take();
        self.phase = RPhase::Regular;
        self.captured = false;
        self
    }

    /// Leaves of the action tree.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = self.legal();
        if depth == 1 {
            return legal.len() as u64;
        }
        legal.into_iter().map(|(_, r)| r.perft(depth - 1)).sum()
    }
}
