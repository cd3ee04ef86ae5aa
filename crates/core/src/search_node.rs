//! The game as the computer's search walks it ([`SearchNode`]): the typed
//! game without its session, its actions addressed by their place in the
//! list, and a 64-bit key, so that no action is written or read as text
//! inside the search tree and no node carries a record of the game.
//!
//! A search makes a child for every action it tries, so a child must not
//! cost an allocation: [`SearchNode::child_into`] writes the game after an
//! action into a node the search keeps for that ply (its own slots, one
//! per child it holds at once), with `clone_from`, which reuses the
//! slot's lists and the game's own vectors where the game's `Clone`
//! writes a `clone_from`. Chosen over the two other ways
//! (docs/dev/engine-speed.md has the measurements): a search generic over
//! the node type cannot be reached through `DynGame` (a generic method is
//! not object safe, and crates/ai names no game), and an undo per game
//! would be a second copy of every game's rules to keep right, for a copy
//! that costs 2% of a chess node once it reuses its allocations.

use std::any::Any;
use std::hash::{Hash, Hasher};

use crate::game::{Game, Seat, ToAct, Viewer};
use crate::view::View;

/// One action of a [`SearchNode`], as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchAction {
    /// The action's identity across positions (a hash of the typed
    /// action), for tables of actions that caused cuts.
    pub id: u64,
    /// Whether it changes the balance at once ([`Game::is_noisy`]).
    pub noisy: bool,
}

/// A game position in a search. Object safe, so that one search serves
/// every game; the typed game stays inside.
pub trait SearchNode: Send {
    /// Who acts, or the game's outcome.
    fn to_act(&self) -> ToAct;
    /// The first seat to act, None when the game is over
    /// ([`Game::first_to_act`]): asked at every node, so it builds no list.
    fn first_to_act(&self) -> Option<Seat>;
    /// The legal actions of `seat`, in the order of
    /// [`crate::DynGame::search_actions`]; kept, so that
    /// [`SearchNode::child`] can take one by its place.
    fn actions(&mut self, seat: Seat) -> &[SearchAction];
    /// How many legal actions `seat` has: the list [`SearchNode::actions`]
    /// gives, made and kept, without the hash of each action, which only a
    /// node that orders its actions needs.
    fn action_count(&mut self, seat: Seat) -> usize;
    /// Lists `seat`'s noisy actions alone ([`Game::noisy_actions_into`]),
    /// all that quiescence searches, and writes their places in that list
    /// into `into`: the quiet actions are neither hashed nor, where the
    /// game can tell the noisy ones apart, listed.
    fn noisy_actions_into(&mut self, seat: Seat, into: &mut Vec<usize>);
    /// Lists the actions quiescence plays to finish `seat`'s turn
    /// ([`Game::quiescence_rest_of_turn_into`]) and writes their places in
    /// that list into `into`, as [`SearchNode::noisy_actions_into`] does.
    fn quiescence_rest_of_turn_into(&mut self, seat: Seat, into: &mut Vec<usize>);
    /// The game after the action at `index` of the last list made for
    /// `seat` ([`SearchNode::actions`], [`SearchNode::action_count`] or
    /// [`SearchNode::noisy_actions_into`]); None if there is no such
    /// action or the rules refuse it.
    fn child(&self, seat: Seat, index: usize) -> Option<Box<dyn SearchNode>>;
    /// [`SearchNode::child`] written into `slot`, reusing its allocations
    /// when it holds a node of the same game (a slot the search keeps per
    /// ply); false, with `slot` still a valid node, when there is no such
    /// action or the rules refuse it.
    fn child_into(&self, seat: Seat, index: usize, slot: &mut Box<dyn SearchNode>) -> bool;
    /// The node as [`Any`], so that [`SearchNode::child_into`] can tell a
    /// slot of its own game.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The position's key ([`Game::position_hash`], or a hash of the
    /// position text where the game has none).
    fn key(&self) -> u64;
    /// The game's static estimate for `seat` ([`Game::heuristic`]).
    fn heuristic(&self, seat: Seat) -> Option<f64>;
    /// What `viewer` sees of the board and the seats, without the log: what
    /// a count of material reads when the game has no estimate.
    fn board_view(&self, viewer: Viewer) -> View;
    /// The text of the action at `index` of the last list, for the edges
    /// of the search (the answer it gives).
    fn action_text(&self, index: usize) -> Option<String>;
    /// The material the action at `index` of the last list wins in the
    /// exchange on its square ([`Game::exchange_value`]); None where the
    /// game does not tell.
    fn exchange_value(&self, index: usize) -> Option<f64>;
    /// Whether the seat to act must answer a threat at once ([`Game::in_check`]).
    fn in_check(&self) -> bool;
    /// Whether the search may prune on a pass here ([`Game::may_pass_in_search`]).
    fn may_pass(&self) -> bool;
    /// The game after the seat to act passes ([`Game::pass_in_search`])
    /// written into `slot` as [`SearchNode::child_into`] writes a child;
    /// false, with `slot` still a valid node, where the game allows no pass.
    fn pass_into(&self, slot: &mut Box<dyn SearchNode>) -> bool;
    /// The game after the seat to act passes, as a new node; None where
    /// the game allows no pass.
    fn pass(&self) -> Option<Box<dyn SearchNode>>;
}

/// A [`SearchNode`] over a typed game.
pub(crate) struct TypedNode<G: Game> {
    game: G,
    /// The seat whose actions are listed, and the actions: all of them,
    /// or only those quiescence plays when `partial`.
    listed_for: Option<Seat>,
    partial: bool,
    actions: Vec<G::Action>,
    /// What the search knows of each listed action, worked out when it is
    /// first asked for ([`SearchNode::actions`]): empty until then.
    listed: Vec<SearchAction>,
    /// The game's own descriptions of the whole list, where it keeps them
    /// ([`Game::kept_search_actions`]): `listed` is not worked out then.
    kept: Option<&'static [SearchAction]>,
}

impl<G: Game> TypedNode<G> {
    pub(crate) fn new(game: G) -> TypedNode<G> {
        TypedNode { game, listed_for: None, partial: false, actions: Vec::new(), listed: Vec::new(), kept: None }
    }

    /// Marks the list the game just wrote as `seat`'s partial one, and
    /// writes the places of its actions into `into`.
    fn listed_partly(&mut self, seat: Seat, into: &mut Vec<usize>) {
        self.listed.clear();
        self.kept = None;
        self.listed_for = Some(seat);
        self.partial = true;
        into.extend(0..self.actions.len());
    }

    /// Lists `seat`'s actions unless they are listed already; their
    /// descriptions ([`SearchAction`]) wait until the search orders them.
    fn list(&mut self, seat: Seat) {
        if self.listed_for != Some(seat) || self.partial {
            self.game.legal_actions_into(seat, &mut self.actions);
            self.listed.clear();
            self.listed_for = Some(seat);
            self.partial = false;
            self.kept = self.game.kept_search_actions(seat).filter(|kept| kept.len() == self.actions.len());
        }
    }
}

impl<G: Game> SearchNode for TypedNode<G> {
    fn to_act(&self) -> ToAct {
        self.game.to_act()
    }

    fn first_to_act(&self) -> Option<Seat> {
        self.game.first_to_act()
    }

    fn actions(&mut self, seat: Seat) -> &[SearchAction] {
        self.list(seat);
        if let Some(kept) = self.kept {
            return kept;
        }
        if self.listed.len() != self.actions.len() {
            let game = &self.game;
            self.listed.extend(self.actions.iter().map(|action| describe(game, action)));
        }
        &self.listed
    }

    fn action_count(&mut self, seat: Seat) -> usize {
        self.list(seat);
        self.actions.len()
    }

    fn noisy_actions_into(&mut self, seat: Seat, into: &mut Vec<usize>) {
        self.game.noisy_actions_into(seat, &mut self.actions);
        self.listed_partly(seat, into);
    }

    fn quiescence_rest_of_turn_into(&mut self, seat: Seat, into: &mut Vec<usize>) {
        self.game.quiescence_rest_of_turn_into(seat, &mut self.actions);
        self.listed_partly(seat, into);
    }

    fn child(&self, seat: Seat, index: usize) -> Option<Box<dyn SearchNode>> {
        if self.listed_for != Some(seat) {
            return None;
        }
        let action = self.actions.get(index)?;
        let mut game = self.game.clone();
        game.apply(seat, action).ok()?;
        Some(Box::new(TypedNode::new(game)))
    }

    fn child_into(&self, seat: Seat, index: usize, slot: &mut Box<dyn SearchNode>) -> bool {
        if self.listed_for != Some(seat) {
            return false;
        }
        let Some(action) = self.actions.get(index) else { return false };
        let Some(node) = slot.as_any_mut().downcast_mut::<TypedNode<G>>() else {
            return self.child(seat, index).map(|child| *slot = child).is_some();
        };
        node.game.clone_from(&self.game);
        node.listed_for = None;
        // Refused, the game is left as it was: a copy of this one.
        node.game.apply(seat, action).is_ok()
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn key(&self) -> u64 {
        self.game.position_hash().unwrap_or_else(|| hash_of(&self.game.position()))
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        self.game.heuristic(seat)
    }

    fn board_view(&self, viewer: Viewer) -> View {
        View { seats: self.game.seats(), ..self.game.view(viewer) }
    }

    fn action_text(&self, index: usize) -> Option<String> {
        self.actions.get(index).map(ToString::to_string)
    }

    fn exchange_value(&self, index: usize) -> Option<f64> {
        self.game.exchange_value(self.actions.get(index)?)
    }

    fn in_check(&self) -> bool {
        self.game.in_check()
    }

    fn may_pass(&self) -> bool {
        self.game.may_pass_in_search()
    }

    fn pass_into(&self, slot: &mut Box<dyn SearchNode>) -> bool {
        if !self.game.may_pass_in_search() {
            return false;
        }
        let Some(node) = slot.as_any_mut().downcast_mut::<TypedNode<G>>() else {
            return self.pass().map(|passed| *slot = passed).is_some();
        };
        node.game.clone_from(&self.game);
        node.listed_for = None;
        // Refused, the game is left as it was: a copy of this one.
        node.game.pass_in_search()
    }

    fn pass(&self) -> Option<Box<dyn SearchNode>> {
        let mut game = self.game.clone();
        game.pass_in_search().then(|| Box::new(TypedNode::new(game)) as Box<dyn SearchNode>)
    }
}

/// What the search knows of `game`'s legal `action`: its hash and whether
/// it is noisy.
pub fn describe<G: Game>(game: &G, action: &G::Action) -> SearchAction {
    SearchAction { id: hash_of(action), noisy: game.is_noisy(action) }
}

/// A fixed hash (the same in every run, so that a node budget gives the
/// same choice every time), by [`FastHasher`]: it runs for every action
/// of every node searched, and a game's [`Game::position_hash`] uses it
/// for the state beside its board's Zobrist key.
pub fn hash_of<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = FastHasher::default();
    value.hash(&mut hasher);
    mix64(hasher.finish())
}

/// A multiply-and-rotate hasher (the one rustc uses for its own tables):
/// a few instructions a word where SipHash takes tens. Not proof against
/// chosen keys, which a search's own positions and actions are not; the
/// result goes through [`mix64`] to spread it over all 64 bits.
#[derive(Default)]
struct FastHasher(u64);

impl FastHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        let rest = words.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit value for each input,
/// for keys built of several parts (a game's extra state, the seat to
/// act) and for the Zobrist terms shakmaty's tables do not cover.
pub fn mix64(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
