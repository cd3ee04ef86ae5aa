//! The embedded store: every game's action log in one SQLite file.
//!
//! One connection, owned by a dedicated writer thread. Writes arrive on a
//! channel; the thread takes every write waiting and commits them in one
//! transaction, then answers each. A caller is told "stored" only after its
//! transaction has committed (WAL, `synchronous=FULL`: the commit is on disk),
//! so an acknowledged action survives `kill -9` and a power cut alike, while
//! a thousand games share one fsync.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};

use chesskit_core::{ActionRecord, GameRecord, Options};

use super::{json, Listed, Listing, ListingRow, Op, StoredGame, TakenSeat, MAX_BATCH};
use rusqlite::{params, Connection, TransactionBehavior};
use tokio::sync::oneshot;

/// The schema version kept in `PRAGMA user_version`.
///
/// 1: the first schema. 2: `actions.at`, the time each action was taken
/// (older actions have none). 3: `actions.ms`, the time of the action in
/// milliseconds since the game began, as the game's clock reads it (the
/// [`ActionRecord`]'s `ms`; older actions have none). 4: `actions.found`,
/// the referee's finding (the [`ActionRecord`]'s `found`: what a search
/// the action started concluded; older actions have none). 5: the lobby's
/// tables, `lobby` and `lobby_seats` (older games are in no lobby).
const SCHEMA_VERSION: i64 = 5;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    options     TEXT NOT NULL,     -- JSON object
    seed        INTEGER NOT NULL,  -- the u64 seed's bits as i64
    position    TEXT,              -- NULL: the variant's own start
    seat_kinds  TEXT NOT NULL,     -- JSON array: \"human\", \"open\", \"computer:LEVEL\"
    seat_tokens TEXT NOT NULL,     -- JSON array: a token or null per seat
    created     INTEGER NOT NULL   -- unix seconds
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx     INTEGER NOT NULL,      -- 0-based position in the game's log
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,         -- canonical action text
    at      INTEGER,               -- unix seconds when taken (NULL before schema 2)
    ms      INTEGER,               -- ms since the game began (NULL before schema 3)
    found   TEXT,                  -- the referee's finding, if the action searched (NULL before schema 4)
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS lobby (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    creator TEXT NOT NULL,         -- the name its creator chose
    seats   INTEGER NOT NULL,      -- the game's number of seats
    names   TEXT NOT NULL,         -- JSON array: the seats' names
    created INTEGER NOT NULL,      -- unix seconds
    over    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS lobby_by_time ON lobby (over, created);
CREATE TABLE IF NOT EXISTS lobby_seats (
    game   TEXT NOT NULL REFERENCES lobby(game),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL,          -- the name its player chose, or the computer's
    PRIMARY KEY (game, seat)       -- one player a seat: a second taker is refused
) WITHOUT ROWID;
";

/// The lobby games of a list (`?1`: 1 for the open challenges, 0 for the
/// live games; `?2`: the earliest creation listed; `?3`: at most so many;
/// `?4`: only this game, whatever its state, when not NULL), newest first.
const LISTINGS: &str = "
SELECT l.game, g.variant, g.options, l.creator, l.created, g.seat_kinds,
       (SELECT count(*) FROM actions a WHERE a.game_id = l.game AND a.action <> 'say' AND a.action NOT LIKE 'say %'),
       l.names
FROM lobby l JOIN games g ON g.id = l.game
WHERE (?4 IS NOT NULL AND l.game = ?4)
   OR (?4 IS NULL AND l.over = 0 AND l.created >= ?2
       AND ((SELECT count(*) FROM lobby_seats s WHERE s.game = l.game) < l.seats) = (?1 = 1))
ORDER BY l.created DESC, l.game
LIMIT ?3";

struct Job {
    op: Op,
    done: oneshot::Sender<Result<(), String>>,
}

/// The lobby games `which` (or only game `only`), with who holds each seat.
fn read_listings(conn: &Connection, which: Listed, limit: usize, only: Option<&str>) -> Result<Vec<Listing>, String> {
    let mut stmt = conn.prepare_cached(LISTINGS).map_err(sql)?;
    let (open, since, limit) = which.query_parameters(limit);
    let rows = stmt
        .query_map(params![open, since, limit, only], |row| {
            Ok(ListingRow {
                id: row.get(0)?,
                variant: row.get(1)?,
                options: row.get(2)?,
                creator: row.get(3)?,
                created: row.get(4)?,
                seat_kinds: row.get(5)?,
                moves: row.get(6)?,
                names: row.get(7)?,
            })
        })
        .map_err(sql)?;
    rows.map(|row| {
        let row = row.map_err(sql)?;
        let held = seats_held(conn, &row.id)?;
        row.into_listing(held)
    })
    .collect()
}

/// The (seat, player) rows of lobby game `id`'s held seats.
fn seats_held(conn: &Connection, id: &str) -> Result<Vec<(i64, String)>, String> {
    let mut stmt = conn.prepare_cached("SELECT seat, player FROM lobby_seats WHERE game = ?1").map_err(sql)?;
    let rows = stmt.query_map([id], |row| Ok((row.get(0)?, row.get(1)?))).map_err(sql)?;
    rows.collect::<Result<_, _>>().map_err(sql)
}

/// The handle to the writer thread; cheap to clone. The thread ends when
/// the last handle is dropped.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<Job>,
    /// The database file, read through connections of their own when a
    /// game that left memory is asked for again (WAL lets them read while
    /// the writer writes).
    path: Arc<PathBuf>,
}

impl SqliteStore {
    /// Open (or create) the database, load every game, and start the writer.
    /// Blocking: call it from a blocking context.
    pub fn open(path: &Path) -> Result<(SqliteStore, Vec<StoredGame>), String> {
        let lock = lock_database(path)?;
        let conn = Connection::open(path).map_err(|e| format!("cannot open database {}: {e}", path.display()))?;
        configure(&conn).map_err(|e| format!("cannot set up database {}: {e}", path.display()))?;
        let games = load(&conn).map_err(|e| format!("cannot read database {}: {e}", path.display()))?;
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("chesskit-store".to_string())
            .spawn(move || writer(conn, queue, lock))
            .map_err(|e| format!("cannot start the storage thread: {e}"))?;
        Ok((SqliteStore { jobs, path: Arc::new(path.to_path_buf()) }, games))
    }

    /// Game `id` as stored now, or None if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, String> {
        let (path, id) = (self.path.clone(), id.to_string());
        tokio::task::spawn_blocking(move || {
            let conn = Connection::open_with_flags(&*path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            let mut games = load_where(&conn, Some(&id)).map_err(|e| format!("cannot read game {id}: {e}"))?;
            Ok(games.pop())
        })
        .await
        .map_err(|e| format!("the read task failed: {e}"))?
    }

    /// The lobby games `which`, newest first, at most `limit`.
    pub async fn listings(&self, which: Listed, limit: usize) -> Result<Vec<Listing>, String> {
        self.read(move |conn| read_listings(conn, which, limit, None)).await
    }

    /// Lobby game `id`, whatever its state.
    pub async fn listing(&self, id: &str) -> Result<Option<Listing>, String> {
        let id = id.to_string();
        self.read(move |conn| Ok(read_listings(conn, Listed::Live, 1, Some(&id))?.pop())).await
    }

    /// Run `query` on a read-only connection of its own, on a blocking thread.
    async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || {
            let conn = Connection::open_with_flags(&*path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            query(&conn)
        })
        .await
        .map_err(|e| format!("the read task failed: {e}"))?
    }

    /// Write `op`; returns once committed.
    pub(super) async fn submit(&self, op: Op) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.jobs.send(Job { op, done }).map_err(|_| "the storage thread has stopped".to_string())?;
        answer.await.map_err(|_| "the storage thread stopped before answering".to_string())?
    }
}

/// Take the lock file `<db>.lock`, so that two servers never write the same
/// database. The operating system releases it when the process dies, also
/// by `kill -9`.
fn lock_database(path: &Path) -> Result<File, String> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    let file = File::create(&lock_path).map_err(|e| format!("cannot create lock file {}: {e}", lock_path.display()))?;
    // A server of this process that is just shutting down may hold it a moment longer.
    for _ in 0..50 {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(std::time::Duration::from_millis(40)),
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("cannot lock {}: {e}", lock_path.display()));
            }
        }
    }
    Err(format!("another chesskit server is using {} (it holds {})", path.display(), lock_path.display()))
}

fn configure(conn: &Connection) -> Result<(), String> {
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0)).map_err(sql)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(format!("the database refused WAL mode (got {mode})"));
    }
    conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=5000;").map_err(sql)?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0)).map_err(sql)?;
    if version > SCHEMA_VERSION {
        return Err(format!("the database has schema version {version}, newer than this chesskit's {SCHEMA_VERSION}"));
    }
    conn.execute_batch(SCHEMA).map_err(sql)?;
    if version == 1 {
        // Schema 1 had no action times: the column is added, empty for the old actions.
        conn.execute_batch("ALTER TABLE actions ADD COLUMN at INTEGER").map_err(sql)?;
    }
    if (1..=2).contains(&version) {
        // Nor game-clock times before schema 3.
        conn.execute_batch("ALTER TABLE actions ADD COLUMN ms INTEGER").map_err(sql)?;
    }
    if (1..=3).contains(&version) {
        // Nor findings before schema 4: those actions search again on replay.
        conn.execute_batch("ALTER TABLE actions ADD COLUMN found TEXT").map_err(sql)?;
    }
    conn.execute_batch(&format!("PRAGMA user_version={SCHEMA_VERSION}")).map_err(sql)
}

fn sql(error: rusqlite::Error) -> String {
    error.to_string()
}

type Row = (String, String, String, i64, Option<String>, String, String, i64);

/// Every stored game with its actions in order.
fn load(conn: &Connection) -> Result<Vec<StoredGame>, String> {
    load_where(conn, None)
}

/// Every stored game, or with `only` the game of that id (if stored).
fn load_where(conn: &Connection, only: Option<&str>) -> Result<Vec<StoredGame>, String> {
    let mut actions: HashMap<String, Vec<(i64, ActionRecord)>> = HashMap::new();
    let mut last_time: HashMap<String, i64> = HashMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT game_id, idx, seat, action, at, ms, found FROM actions WHERE ?1 IS NULL OR game_id = ?1 \
             ORDER BY game_id, idx",
        )
        .map_err(sql)?;
    let rows = stmt
        .query_map([only], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, Option<i64>>(4)?,
                row.get::<_, Option<i64>>(5)?,
                row.get::<_, Option<String>>(6)?,
            ))
        })
        .map_err(sql)?;
    for row in rows {
        let (game, index, seat, action, at, ms, found) = row.map_err(sql)?;
        let ms =
            ms.map(|ms| u64::try_from(ms).map_err(|_| format!("game {game}: negative time {ms} ms"))).transpose()?;
        let seat = usize::try_from(seat).map_err(|_| format!("game {game}: negative seat {seat}"))?;
        if let Some(at) = at {
            let last = last_time.entry(game.clone()).or_insert(at);
            *last = (*last).max(at);
        }
        actions.entry(game).or_default().push((index, ActionRecord { seat, action, ms, found }));
    }
    let mut stmt = conn
        .prepare(
            "SELECT id, variant, options, seed, position, seat_kinds, seat_tokens, created FROM games \
             WHERE ?1 IS NULL OR id = ?1 ORDER BY created, id",
        )
        .map_err(sql)?;
    let rows = stmt
        .query_map([only], |row| -> rusqlite::Result<Row> {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?))
        })
        .map_err(sql)?;
    let mut games = Vec::new();
    for row in rows {
        let (id, variant, options, seed, position, kinds, tokens, created) = row.map_err(sql)?;
        let options: Options = json(&id, "options", &options)?;
        let mut log = actions.remove(&id).unwrap_or_default();
        log.sort_by_key(|(index, _)| *index);
        for (expected, (index, _)) in log.iter().enumerate() {
            if *index != expected as i64 {
                return Err(format!("game {id}: action {expected} is missing (found index {index})"));
            }
        }
        let record = GameRecord {
            variant,
            options,
            seed: seed as u64,
            position,
            actions: log.into_iter().map(|(_, a)| a).collect(),
        };
        games.push(StoredGame {
            seat_kinds: json(&id, "seat_kinds", &kinds)?,
            seat_tokens: json(&id, "seat_tokens", &tokens)?,
            updated: last_time.get(&id).copied().unwrap_or(created).max(created),
            id,
            record,
            created,
        });
    }
    Ok(games)
}

/// The writer thread: batch every waiting write into one transaction.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Job>, _lock: File) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let ops: Vec<&Op> = batch.iter().map(|job| &job.op).collect();
        let results = match write_all(&mut conn, &ops) {
            Ok(()) => vec![Ok(()); ops.len()],
            // Something in the batch failed: it was rolled back whole, so
            // write each job alone to give each its own answer.
            Err(_) => ops.iter().map(|op| write_all(&mut conn, &[op]).map_err(|e| e.to_string())).collect(),
        };
        for (job, result) in batch.into_iter().zip(results) {
            // The caller may have gone; the write stands either way.
            let _ = job.done.send(result);
        }
    }
}

/// Write `ops` in one transaction: all committed, or none.
fn write_all(conn: &mut Connection, ops: &[&Op]) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for op in ops {
        write(&tx, op)?;
    }
    tx.commit()
}

fn write(conn: &Connection, op: &Op) -> rusqlite::Result<()> {
    match op {
        Op::Game(game) => {
            conn.prepare_cached(
                "INSERT INTO games (id, variant, options, seed, position, seat_kinds, seat_tokens, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                game.id,
                game.record.variant,
                to_json(&game.record.options)?,
                game.record.seed as i64,
                game.record.position,
                to_json(&game.seat_kinds)?,
                to_json(&game.seat_tokens)?,
                game.created,
            ])?;
            // A game stored with actions already taken (an import) has them at its `updated` time.
            for (index, action) in game.record.actions.iter().enumerate() {
                insert_action(conn, &game.id, index, action, game.updated)?;
            }
        }
        Op::Action { game, index, record, at } => insert_action(conn, game, *index, record, *at)?,
        Op::List { game, creator, seat_names, created, taken } => {
            conn.prepare_cached(
                "INSERT INTO lobby (game, creator, seats, names, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![game, creator, seat_names.len() as i64, to_json(seat_names)?, created])?;
            for seat in taken {
                insert_taken(conn, game, seat)?;
            }
        }
        Op::Take { game, taken, seat_kinds } => {
            insert_taken(conn, game, taken)?;
            if let Some(kinds) = seat_kinds {
                conn.prepare_cached("UPDATE games SET seat_kinds = ?2 WHERE id = ?1")?
                    .execute(params![game, to_json(kinds)?])?;
            }
        }
        Op::Ended { game } => {
            conn.prepare_cached("UPDATE lobby SET over = 1 WHERE game = ?1")?.execute([game])?;
        }
    }
    Ok(())
}

/// Record who holds a seat of lobby game `game`; a seat held already is
/// refused by the table's key.
fn insert_taken(conn: &Connection, game: &str, taken: &TakenSeat) -> rusqlite::Result<()> {
    conn.prepare_cached("INSERT INTO lobby_seats (game, seat, player) VALUES (?1, ?2, ?3)")?.execute(params![
        game,
        taken.seat as i64,
        taken.player
    ])?;
    Ok(())
}

/// Insert action number `index` of `game`, taken at `at` (unix seconds).
fn insert_action(conn: &Connection, game: &str, index: usize, action: &ActionRecord, at: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO actions (game_id, idx, seat, action, at, ms, found) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        game,
        index as i64,
        action.seat as i64,
        action.action,
        at,
        action.ms.map(|ms| ms as i64),
        action.found
    ])?;
    Ok(())
}

fn to_json<T: serde::Serialize>(value: &T) -> rusqlite::Result<String> {
    serde_json::to_string(value).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

/// Every stored game, read through a separate read-only connection: for
/// checks from outside a running server (tests, the load benchmark).
pub fn read_games(path: &Path) -> Result<Vec<StoredGame>, String> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    load(&conn).map_err(|e| format!("cannot read {}: {e}", path.display()))
}
