//! chesskit-core: what every Chess Kit game shares.
//!
//! * [`game`]: the [`Game`](game::Game) trait, the referee every game implements,
//!   and the object-safe [`DynGame`](session::DynGame) that servers and tools use.
//! * [`view`]: the generic view a client draws without knowing the game.
//! * [`chess`]: board geometry on any board mask, orthodox and Chess960 rules,
//!   FEN, UCI, SAN and PGN.
//! * [`cards`]: the Appendix A deck of playing cards.
//! * [`perft`]: the tree of actions of any game counted through its referee.
//! * [`rng`]: the seeded generator every game keeps in its state.
//!
//! ```
//! use chesskit_core::chess::{Position, perft};
//! let start = Position::startpos();
//! assert_eq!(perft(&start, 3), 8902);
//! ```

#![forbid(unsafe_code)]

pub mod cards;
pub mod chess;
pub mod game;
pub mod options;
pub mod pace;
pub mod perft;
pub mod rng;
pub mod search_node;
pub mod session;
pub mod view;

pub use game::{Clocked, Game, GameAction, GameError, Outcome, RuleError, ScoreOrder, Seat, SeatInfo, ToAct, Viewer};
pub use options::Options;
pub use rng::GameRng;
pub use search_node::{SearchAction, SearchNode};
pub use session::{ActionRecord, ChatLine, DynGame, GameRecord, Session, TableAction};
pub use view::View;
