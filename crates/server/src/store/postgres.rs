//! The shared store: every game's action log in PostgreSQL, for several
//! server processes on one database (docs/deploy.md).
//!
//! Each process keeps two connections:
//!
//! * its *session*, used by one writer task only: it takes every write
//!   waiting, commits them in one transaction (with a `NOTIFY` per game
//!   whose log grew, delivered by PostgreSQL only at the commit) and only
//!   then answers each caller. The same session holds a session-level
//!   advisory lock per game this process owns, and its backend's pid is
//!   what `chesskit_servers` maps to this process's advertised URL. Because
//!   the locks and the writes share one session, no write of a process can
//!   commit after its locks are gone: when the process dies, PostgreSQL
//!   ends the session, rolls back what was not committed and releases the
//!   locks, in that order, so whoever takes a lock next reads a complete
//!   log.
//! * a *reader*, which `LISTEN`s for those notifications and reads games,
//!   new actions and owners.
//!
//! If either connection ends, the store says so ([`PgStore::lost`]): the
//! process no longer holds its games' locks and must stop serving.

use std::collections::BTreeMap;
use std::sync::Arc;

use chesskit_core::{ActionRecord, GameRecord, Options};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_postgres::{AsyncMessage, Client, Config, NoTls, Statement};

use super::{json, Listed, Listing, ListingRow, Op, StoredGame, TakenSeat, MAX_BATCH};

/// The channel on which each commit names the games whose logs grew.
pub const CHANNEL: &str = "chesskit_games";

/// Taken (for one transaction) while a process creates the tables, so that
/// two processes starting together do not both try.
const SCHEMA_LOCK: i64 = 7163086753864837492; // "chesskit" in ASCII

/// The tables. `chesskit_games` and `chesskit_actions` hold what SQLite's
/// `games` and `actions` hold; `chesskit_servers` maps the backend pid of
/// each live process's session to the URL it advertises.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS chesskit_games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    options     TEXT NOT NULL,     -- JSON object
    seed        BIGINT NOT NULL,   -- the u64 seed's bits as i64
    position    TEXT,              -- NULL: the variant's own start
    seat_kinds  TEXT NOT NULL,     -- JSON array: \"human\", \"open\", \"computer:LEVEL\"
    seat_tokens TEXT NOT NULL,     -- JSON array: a token or null per seat
    created     BIGINT NOT NULL    -- unix seconds
);
CREATE TABLE IF NOT EXISTS chesskit_actions (
    game_id TEXT NOT NULL REFERENCES chesskit_games(id),
    idx     INTEGER NOT NULL,      -- 0-based position in the game's log
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,         -- canonical action text
    at      BIGINT,                -- unix seconds when taken
    ms      BIGINT,                -- ms since the game began
    found   TEXT,                  -- the referee's finding, if the action searched
    PRIMARY KEY (game_id, idx)
);
-- Tables made before findings were kept: those actions search again on replay.
ALTER TABLE chesskit_actions ADD COLUMN IF NOT EXISTS found TEXT;
CREATE TABLE IF NOT EXISTS chesskit_lobby (
    game    TEXT PRIMARY KEY REFERENCES chesskit_games(id),
    creator TEXT NOT NULL,         -- the name its creator chose
    seats   INTEGER NOT NULL,      -- the game's number of seats
    names   TEXT NOT NULL,         -- JSON array: the seats' names
    created BIGINT NOT NULL,       -- unix seconds
    over    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS chesskit_lobby_by_time ON chesskit_lobby (over, created);
CREATE TABLE IF NOT EXISTS chesskit_lobby_seats (
    game   TEXT NOT NULL REFERENCES chesskit_lobby(game),
    seat   INTEGER NOT NULL,
    player TEXT NOT NULL,          -- the name its player chose, or the computer's
    PRIMARY KEY (game, seat)       -- one player a seat: a second taker is refused
);
CREATE TABLE IF NOT EXISTS chesskit_servers (
    pid     INTEGER PRIMARY KEY,   -- pg_backend_pid() of the process's session
    url     TEXT NOT NULL,         -- where the process takes forwarded actions
    started BIGINT NOT NULL        -- unix seconds
);
";

/// The lobby games of a list, as SQLite's `LISTINGS` reads them (`$1`:
/// the open challenges or the live games; `$2`: the earliest creation
/// listed; `$3`: at most so many; `$4`: only this game, whatever its
/// state, when not NULL), newest first.
const LISTINGS: &str = "
SELECT l.game, g.variant, g.options, l.creator, l.created, g.seat_kinds,
       (SELECT count(*) FROM chesskit_actions a
        WHERE a.game_id = l.game AND a.action <> 'say' AND a.action NOT LIKE 'say %'),
       l.names
FROM chesskit_lobby l JOIN chesskit_games g ON g.id = l.game
WHERE ($4::text IS NOT NULL AND l.game = $4::text)
   OR ($4::text IS NULL AND NOT l.over AND l.created >= $2::int8
       AND ((SELECT count(*) FROM chesskit_lobby_seats s WHERE s.game = l.game) < l.seats) = $1::bool)
ORDER BY l.created DESC, l.game
LIMIT $3::int8";

/// A commit another process (or this one) announced: `game`'s log now has
/// `version` actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub game: String,
    pub version: usize,
}

/// An action read back from the log, with the unix seconds it was taken.
#[derive(Clone, Debug)]
pub struct StoredAction {
    pub record: ActionRecord,
    pub at: Option<i64>,
}

enum Job {
    Write { op: Op, done: oneshot::Sender<Result<(), String>> },
    Lock { key: i64, done: oneshot::Sender<Result<bool, String>> },
}

/// The handle to the writer task and the reader; cheap to clone.
#[derive(Clone)]
pub struct PgStore {
    jobs: mpsc::UnboundedSender<Job>,
    reader: Arc<Client>,
    lost: watch::Receiver<Option<String>>,
}

impl PgStore {
    /// Connect to `url`, create the tables if missing, record that this
    /// process takes forwarded actions at `advertise`, and listen for
    /// commits. Returns the store and the stream of [`Notice`]s.
    pub async fn open(url: &str, advertise: &str) -> Result<(PgStore, mpsc::UnboundedReceiver<Notice>), String> {
        let shown = without_password(url);
        let config: Config =
            url.parse().map_err(|e| format!("cannot read the database URL {shown}: {}", describe(&e)))?;
        let (lost_tx, lost) = watch::channel(None);
        let lost_tx = Arc::new(lost_tx);

        let (session, connection) =
            config.connect(NoTls).await.map_err(|e| format!("cannot connect to {shown}: {}", describe(&e)))?;
        let on_loss = lost_tx.clone();
        tokio::spawn(async move {
            let why = match connection.await {
                Ok(()) => "the database closed the session".to_string(),
                Err(e) => describe(&e),
            };
            let _ = on_loss.send(Some(format!("lost the PostgreSQL session that holds this server's games: {why}")));
        });
        set_up(&session, advertise)
            .await
            .map_err(|e| format!("cannot set up the database {shown}: {}", describe(&e)))?;
        let statements =
            Statements::prepare(&session).await.map_err(|e| format!("cannot prepare statements: {}", describe(&e)))?;

        let (reader, mut connection) =
            config.connect(NoTls).await.map_err(|e| format!("cannot connect to {shown}: {}", describe(&e)))?;
        let (notices_tx, notices) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let why = loop {
                match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    Some(Ok(AsyncMessage::Notification(n))) => {
                        if let Some(notice) = parse_notice(n.payload()) {
                            // No receiver: the server is shutting down.
                            let _ = notices_tx.send(notice);
                        }
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => break describe(&e),
                    None => break "the database closed the connection".to_string(),
                }
            };
            let _ =
                lost_tx.send(Some(format!("lost the PostgreSQL connection that hears other servers' commits: {why}")));
        });
        reader
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .await
            .map_err(|e| format!("cannot LISTEN: {}", describe(&e)))?;

        let (jobs, queue) = mpsc::unbounded_channel();
        tokio::spawn(writer(session, statements, queue));
        Ok((PgStore { jobs, reader: Arc::new(reader), lost }, notices))
    }

    /// Write `op`; returns once committed.
    pub(super) async fn submit(&self, op: Op) -> Result<(), String> {
        if let Op::Game(game) = &op {
            // The process that creates a game owns it from the start.
            if !self.try_lock(&game.id).await? {
                return Err(format!("another server holds the lock of the new game {}", game.id));
            }
        }
        let (done, answer) = oneshot::channel();
        self.jobs.send(Job::Write { op, done }).map_err(|_| "the storage task has stopped".to_string())?;
        answer.await.map_err(|_| "the storage task stopped before answering".to_string())?
    }

    /// Try to take game `id`'s lock on this process's session: true if this
    /// process holds it now (also if it already did). Never waits for it.
    pub async fn try_lock(&self, id: &str) -> Result<bool, String> {
        let (done, answer) = oneshot::channel();
        self.jobs
            .send(Job::Lock { key: lock_key(id), done })
            .map_err(|_| "the storage task has stopped".to_string())?;
        answer.await.map_err(|_| "the storage task stopped before answering".to_string())?
    }

    /// The URL of the process holding game `id`'s lock, if one does.
    pub async fn owner(&self, id: &str) -> Result<Option<String>, String> {
        let key = lock_key(id) as u64;
        let (high, low) = ((key >> 32) as i64, (key & 0xffff_ffff) as i64);
        let row = self
            .reader
            .query_opt(
                "SELECT s.url FROM pg_locks l JOIN chesskit_servers s ON s.pid = l.pid
                 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                   AND l.classid::bigint = $1 AND l.objid::bigint = $2
                 LIMIT 1",
                &[&high, &low],
            )
            .await
            .map_err(|e| format!("cannot look up the owner of game {id}: {}", describe(&e)))?;
        Ok(row.map(|row| row.get(0)))
    }

    /// Game `id` as stored now, or None if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, String> {
        load_game(&self.reader, id).await
    }

    /// Game `id`'s actions from number `from` (0-based) on, in order.
    pub async fn actions_since(&self, id: &str, from: usize) -> Result<Vec<StoredAction>, String> {
        actions_since(&self.reader, id, from).await
    }

    /// The lobby games `which`, newest first, at most `limit`.
    pub async fn listings(&self, which: Listed, limit: usize) -> Result<Vec<Listing>, String> {
        read_listings(&self.reader, which, limit, None).await
    }

    /// Lobby game `id`, whatever its state.
    pub async fn listing(&self, id: &str) -> Result<Option<Listing>, String> {
        Ok(read_listings(&self.reader, Listed::Live, 1, Some(id)).await?.pop())
    }

    /// Resolves with the reason once a connection is lost (never, while
    /// both are up). The process's locks may be gone: it must stop.
    pub async fn lost(&self) -> String {
        let mut lost = self.lost.clone();
        let why = match lost.wait_for(Option::is_some).await {
            Ok(why) => why.clone().unwrap_or_default(),
            Err(_) => "the storage tasks stopped".to_string(),
        };
        why
    }
}

/// Every stored game with its actions, read through a connection of its
/// own: for checks from outside a running server (the load benchmark).
pub async fn read_games(url: &str) -> Result<Vec<StoredGame>, String> {
    let shown = without_password(url);
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| format!("cannot connect to {shown}: {}", describe(&e)))?;
    tokio::spawn(connection);
    let rows = client
        .query("SELECT id FROM chesskit_games ORDER BY created, id", &[])
        .await
        .map_err(|e| format!("cannot list the games in {shown}: {}", describe(&e)))?;
    let mut games = Vec::with_capacity(rows.len());
    for row in rows {
        let id: String = row.get(0);
        games.extend(load_game(&client, &id).await?);
    }
    Ok(games)
}

/// Game `id` as stored now, or None if there is no such game.
async fn load_game(client: &Client, id: &str) -> Result<Option<StoredGame>, String> {
    let Some(row) = client
        .query_opt(
            "SELECT variant, options, seed, position, seat_kinds, seat_tokens, created
             FROM chesskit_games WHERE id = $1",
            &[&id],
        )
        .await
        .map_err(|e| format!("cannot read game {id}: {}", describe(&e)))?
    else {
        return Ok(None);
    };
    let created: i64 = row.get(6);
    let actions = actions_since(client, id, 0).await?;
    let updated = actions.iter().filter_map(|a| a.at).max().unwrap_or(created).max(created);
    let record = GameRecord {
        variant: row.get(0),
        options: json::<Options>(id, "options", row.get(1))?,
        seed: row.get::<_, i64>(2) as u64,
        position: row.get(3),
        actions: actions.into_iter().map(|a| a.record).collect(),
    };
    Ok(Some(StoredGame {
        id: id.to_string(),
        record,
        seat_kinds: json(id, "seat_kinds", row.get(4))?,
        seat_tokens: json(id, "seat_tokens", row.get(5))?,
        created,
        updated,
    }))
}

/// The lobby games `which` (or only game `only`), with who holds each seat.
async fn read_listings(
    client: &Client,
    which: Listed,
    limit: usize,
    only: Option<&str>,
) -> Result<Vec<Listing>, String> {
    let (open, since, limit) = which.query_parameters(limit);
    let rows = client
        .query(LISTINGS, &[&open, &since, &limit, &only])
        .await
        .map_err(|e| format!("cannot list the lobby: {}", describe(&e)))?;
    let mut listings = Vec::with_capacity(rows.len());
    for row in rows {
        let row = ListingRow {
            id: row.get(0),
            variant: row.get(1),
            options: row.get(2),
            creator: row.get(3),
            created: row.get(4),
            seat_kinds: row.get(5),
            moves: row.get(6),
            names: row.get(7),
        };
        let held = seats_held(client, &row.id).await?;
        listings.push(row.into_listing(held)?);
    }
    Ok(listings)
}

/// The (seat, player) rows of lobby game `id`'s held seats.
async fn seats_held(client: &Client, id: &str) -> Result<Vec<(i64, String)>, String> {
    let rows = client
        .query("SELECT seat, player FROM chesskit_lobby_seats WHERE game = $1", &[&id])
        .await
        .map_err(|e| format!("cannot read the seats of game {id}: {}", describe(&e)))?;
    Ok(rows.iter().map(|row| (i64::from(row.get::<_, i32>(0)), row.get(1))).collect())
}

/// Game `id`'s actions from number `from` (0-based) on, in order.
async fn actions_since(client: &Client, id: &str, from: usize) -> Result<Vec<StoredAction>, String> {
    let from = i32::try_from(from).map_err(|_| format!("game {id}: no action {from}"))?;
    let rows = client
        .query(
            "SELECT idx, seat, action, at, ms, found FROM chesskit_actions WHERE game_id = $1 AND idx >= $2 ORDER BY idx",
            &[&id, &from],
        )
        .await
        .map_err(|e| format!("cannot read the actions of game {id}: {}", describe(&e)))?;
    let mut actions = Vec::with_capacity(rows.len());
    for (expected, row) in (from..).zip(rows) {
        let index: i32 = row.get(0);
        if index != expected {
            return Err(format!("game {id}: action {expected} is missing (found index {index})"));
        }
        let seat = usize::try_from(row.get::<_, i32>(1)).map_err(|_| format!("game {id}: a negative seat"))?;
        let ms = row
            .get::<_, Option<i64>>(4)
            .map(|ms| u64::try_from(ms).map_err(|_| format!("game {id}: negative time {ms} ms")))
            .transpose()?;
        let record = ActionRecord { seat, action: row.get(2), ms, found: row.get(5) };
        actions.push(StoredAction { record, at: row.get(3) });
    }
    Ok(actions)
}

/// Create the tables (one process at a time) and record this process's URL.
async fn set_up(session: &Client, advertise: &str) -> Result<(), tokio_postgres::Error> {
    session.batch_execute(&format!("BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} COMMIT;")).await?;
    // Rows of sessions that are gone (their processes died) are only clutter:
    // a URL counts only joined to a lock its session holds.
    session
        .execute(
            "DELETE FROM chesskit_servers WHERE pid NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)",
            &[],
        )
        .await?;
    session
        .execute(
            "INSERT INTO chesskit_servers (pid, url, started) VALUES (pg_backend_pid(), $1, $2)
             ON CONFLICT (pid) DO UPDATE SET url = EXCLUDED.url, started = EXCLUDED.started",
            &[&advertise, &super::unix_now()],
        )
        .await?;
    Ok(())
}

/// The writer's statements, prepared once.
struct Statements {
    game: Statement,
    actions: Statement,
    notify: Statement,
    lock: Statement,
}

impl Statements {
    async fn prepare(session: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            game: session
                .prepare(
                    "INSERT INTO chesskit_games (id, variant, options, seed, position, seat_kinds, seat_tokens, created)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .await?,
            // Every action of a batch in one statement.
            actions: session
                .prepare(
                    "INSERT INTO chesskit_actions (game_id, idx, seat, action, at, ms, found)
                     SELECT * FROM unnest($1::text[], $2::int4[], $3::int4[], $4::text[], $5::int8[], $6::int8[],
                                          $7::text[])",
                )
                .await?,
            notify: session.prepare(&format!("SELECT pg_notify('{CHANNEL}', p) FROM unnest($1::text[]) p")).await?,
            lock: session.prepare("SELECT pg_try_advisory_lock($1)").await?,
        })
    }
}

/// The writer task: take the lock requests and then every write waiting,
/// the writes in one transaction.
async fn writer(mut session: Client, statements: Statements, mut queue: mpsc::UnboundedReceiver<Job>) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let mut writes = Vec::with_capacity(batch.len());
        for job in batch {
            match job {
                Job::Lock { key, done } => {
                    let result = session
                        .query_one(&statements.lock, &[&key])
                        .await
                        .map(|row| row.get::<_, bool>(0))
                        .map_err(|e| format!("cannot take a game's lock: {}", describe(&e)));
                    let _ = done.send(result);
                }
                Job::Write { op, done } => writes.push((op, done)),
            }
        }
        if writes.is_empty() {
            continue;
        }
        let ops: Vec<&Op> = writes.iter().map(|(op, _)| op).collect();
        let results = match write_all(&mut session, &statements, &ops).await {
            Ok(()) => vec![Ok(()); ops.len()],
            // Something in the batch failed: it was rolled back whole, so
            // write each alone to give each its own answer.
            Err(_) => {
                let mut results = Vec::with_capacity(ops.len());
                for op in &ops {
                    results.push(write_all(&mut session, &statements, &[op]).await.map_err(|e| describe(&e)));
                }
                results
            }
        };
        for ((_, done), result) in writes.into_iter().zip(results) {
            // The caller may have gone; the write stands either way.
            let _ = done.send(result);
        }
    }
}

/// The columns of the actions to insert.
#[derive(Default)]
struct Actions<'a> {
    games: Vec<&'a str>,
    indices: Vec<i32>,
    seats: Vec<i32>,
    texts: Vec<&'a str>,
    ats: Vec<Option<i64>>,
    ms: Vec<Option<i64>>,
    found: Vec<Option<&'a str>>,
}

impl<'a> Actions<'a> {
    /// Action number `index` of `game`, taken at `at` (unix seconds).
    fn push(&mut self, game: &'a str, index: usize, action: &'a ActionRecord, at: i64) {
        self.games.push(game);
        self.indices.push(index as i32);
        self.seats.push(action.seat as i32);
        self.texts.push(&action.action);
        self.ats.push(Some(at));
        self.ms.push(action.ms.map(|ms| ms as i64));
        self.found.push(action.found.as_deref());
    }
}

/// Write `ops` in one transaction, announcing each game's new length: all
/// committed (and announced), or none.
async fn write_all(session: &mut Client, statements: &Statements, ops: &[&Op]) -> Result<(), tokio_postgres::Error> {
    let tx = session.transaction().await?;
    let mut actions = Actions::default();
    let mut grown: BTreeMap<&str, usize> = BTreeMap::new();
    for op in ops {
        match op {
            Op::Game(game) => {
                tx.execute(
                    &statements.game,
                    &[
                        &game.id,
                        &game.record.variant,
                        &to_json(&game.record.options),
                        &(game.record.seed as i64),
                        &game.record.position,
                        &to_json(&game.seat_kinds),
                        &to_json(&game.seat_tokens),
                        &game.created,
                    ],
                )
                .await?;
                // A game stored with actions already taken (an import) has them at its `updated` time.
                for (index, action) in game.record.actions.iter().enumerate() {
                    actions.push(&game.id, index, action, game.updated);
                }
            }
            Op::Action { game, index, record, at } => {
                actions.push(game, *index, record, *at);
                let version = grown.entry(game).or_default();
                *version = (*version).max(index + 1);
            }
            Op::List { game, creator, seat_names, created, taken } => {
                let seats = i32::try_from(seat_names.len()).unwrap_or(i32::MAX);
                tx.execute(
                    "INSERT INTO chesskit_lobby (game, creator, seats, names, created) VALUES ($1, $2, $3, $4, $5)",
                    &[game, creator, &seats, &to_json(seat_names), created],
                )
                .await?;
                for seat in taken {
                    insert_taken(&tx, game, seat).await?;
                }
            }
            Op::Take { game, taken, seat_kinds } => {
                insert_taken(&tx, game, taken).await?;
                if let Some(kinds) = seat_kinds {
                    tx.execute("UPDATE chesskit_games SET seat_kinds = $2 WHERE id = $1", &[game, &to_json(kinds)])
                        .await?;
                }
            }
            Op::Ended { game } => {
                tx.execute("UPDATE chesskit_lobby SET over = TRUE WHERE game = $1", &[game]).await?;
            }
        }
    }
    if !actions.games.is_empty() {
        tx.execute(
            &statements.actions,
            &[
                &actions.games,
                &actions.indices,
                &actions.seats,
                &actions.texts,
                &actions.ats,
                &actions.ms,
                &actions.found,
            ],
        )
        .await?;
    }
    if !grown.is_empty() {
        let payloads: Vec<String> = grown.iter().map(|(game, version)| format!("{version} {game}")).collect();
        tx.execute(&statements.notify, &[&payloads]).await?;
    }
    tx.commit().await
}

/// Record who holds a seat of lobby game `game`; a seat held already is
/// refused by the table's key.
async fn insert_taken(
    tx: &tokio_postgres::Transaction<'_>,
    game: &str,
    taken: &TakenSeat,
) -> Result<(), tokio_postgres::Error> {
    let seat = i32::try_from(taken.seat).unwrap_or(i32::MAX);
    tx.execute(
        "INSERT INTO chesskit_lobby_seats (game, seat, player) VALUES ($1, $2, $3)",
        &[&game, &seat, &taken.player],
    )
    .await?;
    Ok(())
}

/// A database error as PostgreSQL worded it (the error's own text is only
/// "db error" for those), else as the driver does.
fn describe(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => error.to_string(),
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Options, kinds and tokens are plain JSON values: they always serialise.
    serde_json::to_string(value).unwrap_or_default()
}

/// A notification's payload, `"VERSION GAME"`.
fn parse_notice(payload: &str) -> Option<Notice> {
    let (version, game) = payload.split_once(' ')?;
    Some(Notice { game: game.to_string(), version: version.parse().ok()? })
}

/// The advisory lock key of game `id`: its 64-bit FNV-1a hash. Two games
/// with the same key (unlikely) are simply owned by the same process.
pub fn lock_key(id: &str) -> i64 {
    let hash = id
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    hash as i64
}

/// `url` with its password, if any, replaced by `***`, for messages.
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let (authority, tail) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        assert_eq!(without_password("postgres://me:secret@db:5432/chess"), "postgres://me:***@db:5432/chess");
        assert_eq!(without_password("postgres://me@db/chess"), "postgres://me@db/chess");
        assert_eq!(without_password("postgresql://db/chess"), "postgresql://db/chess");
    }

    #[test]
    fn notices_read_back_as_written() {
        assert_eq!(parse_notice("12 abcDEF-_123"), Some(Notice { game: "abcDEF-_123".into(), version: 12 }));
        assert_eq!(parse_notice("x abc"), None);
        assert_eq!(parse_notice("12"), None);
    }

    #[test]
    fn lock_keys_are_fnv1a() {
        // FNV-1a's published test value for "a".
        assert_eq!(lock_key("a") as u64, 0xaf63_dc4c_8601_ec8c);
        assert_ne!(lock_key("abc"), lock_key("abd"));
    }
}
