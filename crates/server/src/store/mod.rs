//! Storage: every game's action log (docs/architecture.md: a game is its variant,
//! options, seed, starting position and actions), in one of two stores
//! behind one interface, [`Store`]:
//!
//! * [`sqlite`], the embedded default: one file, one server process, every
//!   game loaded at start.
//! * [`postgres`], a database server shared by several server processes:
//!   games are loaded when asked for, each process holds a lock per game it
//!   owns, and each commit is announced to the others (see docs/deploy.md
//!   and the server's `cluster` module).
//!
//! Either way writes are batched (every write waiting goes into one
//! transaction) and a caller is told "stored" only after its transaction
//! has committed, so an acknowledged action survives `kill -9`.

pub mod postgres;
pub mod sqlite;

use std::path::{Path, PathBuf};

use chesskit_core::{ActionRecord, GameRecord};

pub use postgres::PgStore;
pub use sqlite::{read_games, SqliteStore};

/// Now in unix seconds, as the stores record when things happened.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Writes taken into one transaction at most.
const MAX_BATCH: usize = 4096;

/// A game as stored: its record and its seats.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub id: String,
    pub record: GameRecord,
    pub seat_kinds: Vec<String>,
    pub seat_tokens: Vec<Option<String>>,
    pub created: i64,
    /// Unix seconds of the last action with a time, else `created`. Not
    /// written with the game: derived from its actions when loaded.
    pub updated: i64,
}

/// A seat of a lobby game that somebody holds: the creator's own seats,
/// computers, and the seats strangers took (docs/api.md, "The lobby").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakenSeat {
    pub seat: usize,
    /// The name its player chose, or the computer's ("Computer (level4)").
    pub player: String,
}

/// A game of the lobby as the store lists it: an open challenge, or a game
/// whose seats are all held and which is still being played.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    pub id: String,
    pub variant: String,
    pub options: serde_json::Value,
    /// The name of who opened the challenge.
    pub creator: String,
    /// Unix seconds when it was opened.
    pub created: i64,
    /// The seats' names from the rules ("White", "Black").
    pub seat_names: Vec<String>,
    pub seat_kinds: Vec<String>,
    /// Who holds each seat, by the name they chose; None for a free seat.
    pub players: Vec<Option<String>>,
    /// The actions so far that are not chat lines.
    pub moves: usize,
}

/// Which lobby games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    /// Open challenges opened at or after these unix seconds, with a seat free.
    Challenges { since: i64 },
    /// Games every seat of which is held, not over.
    Live,
}

impl Listed {
    /// The first three parameters of both stores' `LISTINGS` query:
    /// whether the open challenges (or else the live games) are read, the
    /// earliest creation listed, and at most how many.
    fn query_parameters(self, limit: usize) -> (bool, i64, i64) {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        match self {
            Listed::Challenges { since } => (true, since, limit),
            Listed::Live => (false, i64::MIN, limit),
        }
    }
}

/// One row of both stores' `LISTINGS` query, its JSON columns as stored.
struct ListingRow {
    id: String,
    variant: String,
    options: String,
    creator: String,
    created: i64,
    seat_kinds: String,
    moves: i64,
    names: String,
}

impl ListingRow {
    /// The lobby game this row lists, its seats held as `held` says: the
    /// (seat, player) rows of the lobby's seats table for it.
    fn into_listing(self, held: Vec<(i64, String)>) -> Result<Listing, String> {
        let seat_kinds: Vec<String> = json(&self.id, "seat_kinds", &self.seat_kinds)?;
        let mut players = vec![None; seat_kinds.len()];
        for (seat, player) in held {
            if let Some(slot) = usize::try_from(seat).ok().and_then(|seat| players.get_mut(seat)) {
                *slot = Some(player);
            }
        }
        Ok(Listing {
            options: json(&self.id, "options", &self.options)?,
            seat_names: json(&self.id, "names", &self.names)?,
            moves: usize::try_from(self.moves).unwrap_or(0),
            seat_kinds,
            players,
            id: self.id,
            variant: self.variant,
            creator: self.creator,
            created: self.created,
        })
    }
}

/// A JSON column of game `id` read back, or an error that names both.
fn json<T: serde::de::DeserializeOwned>(id: &str, column: &str, text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("game {id}: bad {column} {text:?}: {e}"))
}

/// One write.
enum Op {
    Game(Box<StoredGame>),
    /// `game` opened as a challenge by `creator`, with seats of these
    /// names, of which `taken` are held from the start.
    List {
        game: String,
        creator: String,
        seat_names: Vec<String>,
        created: i64,
        taken: Vec<TakenSeat>,
    },
    /// A seat of a lobby game taken; with `seat_kinds`, by a computer, and
    /// the game's seat kinds become these. Refused if the seat is held.
    Take {
        game: String,
        taken: TakenSeat,
        seat_kinds: Option<Vec<String>>,
    },
    /// `game` is over: it leaves the lobby's lists (a game not listed is
    /// unaffected).
    Ended {
        game: String,
    },
    /// Action number `index` of `game`, taken at `at` (unix seconds).
    Action {
        game: String,
        index: usize,
        record: ActionRecord,
        at: i64,
    },
}

/// Where the games are kept, as `chesskit serve --db` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL, `postgres://user:password@host:port/db`.
    Postgres(String),
}

impl Database {
    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything else is a SQLite file.
    pub fn parse(text: &Path) -> Database {
        match text.to_str() {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Database::Postgres(url.to_string())
            }
            _ => Database::Sqlite(text.to_path_buf()),
        }
    }

    /// How to name it in messages: a URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => postgres::without_password(url),
        }
    }
}

/// The store a server writes to; cheap to clone.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

impl Store {
    /// Open (or create) the SQLite database at `path`, load every game, and
    /// start the writer. Blocking: call it from a blocking context.
    pub fn open(path: &Path) -> Result<(Store, Vec<StoredGame>), String> {
        SqliteStore::open(path).map(|(store, games)| (Store::Sqlite(store), games))
    }

    /// Store a new game; returns once committed.
    pub async fn insert_game(&self, game: StoredGame) -> Result<(), String> {
        self.submit(Op::Game(Box::new(game))).await
    }

    /// Append action number `index` (0-based) of a game as its record
    /// holds it (seat, text, the game's `ms` time, the referee's finding),
    /// taken at `at` (unix seconds); returns once committed.
    pub async fn append_action(&self, game: &str, index: usize, record: &ActionRecord, at: i64) -> Result<(), String> {
        self.submit(Op::Action { game: game.to_string(), index, record: record.clone(), at }).await
    }

    /// List `game` in the lobby as `creator`'s open challenge; returns once committed.
    pub async fn list_challenge(
        &self,
        game: &str,
        creator: &str,
        seat_names: Vec<String>,
        created: i64,
        taken: Vec<TakenSeat>,
    ) -> Result<(), String> {
        let (game, creator) = (game.to_string(), creator.to_string());
        self.submit(Op::List { game, creator, seat_names, created, taken }).await
    }

    /// Record that `taken` holds a seat of lobby game `game` (with
    /// `seat_kinds`, a computer now, and these are the game's kinds).
    /// Refused (an error) if somebody holds the seat already, also on
    /// another server: the seat's row is the arbiter.
    pub async fn take_seat(&self, game: &str, taken: TakenSeat, seat_kinds: Option<Vec<String>>) -> Result<(), String> {
        self.submit(Op::Take { game: game.to_string(), taken, seat_kinds }).await
    }

    /// Take `game` off the lobby's lists: it is over.
    pub async fn end_listing(&self, game: &str) -> Result<(), String> {
        self.submit(Op::Ended { game: game.to_string() }).await
    }

    /// The lobby games `which`, newest first, at most `limit`.
    pub async fn listings(&self, which: Listed, limit: usize) -> Result<Vec<Listing>, String> {
        match self {
            Store::Sqlite(store) => store.listings(which, limit).await,
            Store::Postgres(store) => store.listings(which, limit).await,
        }
    }

    /// Lobby game `id` as listed, whatever its state; None if it was never
    /// opened as a challenge.
    pub async fn listing(&self, id: &str) -> Result<Option<Listing>, String> {
        match self {
            Store::Sqlite(store) => store.listing(id).await,
            Store::Postgres(store) => store.listing(id).await,
        }
    }

    async fn submit(&self, op: Op) -> Result<(), String> {
        match self {
            Store::Sqlite(store) => store.submit(op).await,
            Store::Postgres(store) => store.submit(op).await,
        }
    }

    /// Game `id` as stored now, or None if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, String> {
        match self {
            Store::Sqlite(store) => store.load_game(id).await,
            Store::Postgres(store) => store.load_game(id).await,
        }
    }

    /// The shared database, when several processes may serve these games.
    pub fn postgres(&self) -> Option<&PgStore> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(store) => Some(store),
        }
    }
}
