//! The server's shared state: every game in memory (its referee behind a
//! per-game lock, its seats and tokens, its change channel) and the store.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use chesskit_ai::Player;
use chesskit_core::{DynGame, Seat, TableAction, Viewer};
use chesskit_games::VariantInfo;
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::{broadcast, Mutex};

use crate::error::ApiError;
use crate::store::{Database, PgStore, Store, StoredGame};
use crate::token::same_token;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// Played from the creator's browser.
    Human,
    /// Left for a friend, who joins by the invite link.
    Open,
    /// Played by the server through `chesskit_ai::player_for_level`.
    Computer(String),
}

impl SeatKind {
    /// Read `"human"`, `"open"`, `"computer"` or `"computer:LEVEL"`; the
    /// level must be one the ai crate knows.
    pub fn parse(text: &str) -> Result<SeatKind, String> {
        match text {
            "human" => Ok(SeatKind::Human),
            "open" => Ok(SeatKind::Open),
            "computer" => Ok(SeatKind::Computer(String::new())),
            _ => match text.strip_prefix("computer:") {
                Some("") => Err("seat kind \"computer:\" names no level (use computer or computer:LEVEL)".to_string()),
                Some(level) => {
                    chesskit_ai::player_for_level(level, 0)?;
                    Ok(SeatKind::Computer(level.to_string()))
                }
                None => Err(format!("unknown seat kind {text:?} (use human, open, computer or computer:LEVEL)")),
            },
        }
    }

    pub fn is_computer(&self) -> bool {
        matches!(self, SeatKind::Computer(_))
    }
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatKind::Human => f.write_str("human"),
            SeatKind::Open => f.write_str("open"),
            SeatKind::Computer(level) if level.is_empty() => f.write_str("computer"),
            SeatKind::Computer(level) => write!(f, "computer:{level}"),
        }
    }
}

/// One seat of a game: its name from the rules, who plays it, and the
/// token that proves it (none for computer seats).
#[derive(Clone, Debug)]
pub struct SeatSlot {
    pub name: String,
    /// Who was to play it when the game was stored.
    stored_kind: SeatKind,
    /// The computer that took the seat since, left open in a lobby game
    /// (see [`GameEntry::fill_with_computer`]): once set, it stays.
    filled: std::sync::OnceLock<SeatKind>,
    pub token: Option<String>,
}

impl SeatSlot {
    /// Who plays the seat now.
    pub fn kind(&self) -> &SeatKind {
        self.filled.get().unwrap_or(&self.stored_kind)
    }

    /// The token that proves the seat; none once a computer plays it.
    fn live_token(&self) -> Option<&str> {
        self.token.as_deref().filter(|_| !self.kind().is_computer())
    }
}

/// A view serialised once and shared by every reply and connection that
/// sends it (the acting seat's reply and its WebSocket, several spectators).
#[derive(Clone, Debug)]
pub struct ViewJson(Arc<RawValue>);

impl Serialize for ViewJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_ref().serialize(serializer)
    }
}

impl ViewJson {
    /// Its length in bytes.
    pub fn byte_len(&self) -> usize {
        self.0.get().len()
    }
}

/// The views and changes of one game's current version already
/// serialised, so that the replies and sockets that send the same one
/// share it. Kept within a budget of bytes per game and per process: a
/// client may ask for the change since any version it likes, and every
/// answer kept until the next action (1000 chat lines, then `since=0..1000`:
/// +162 MiB before the budget) would let one client fill the memory. Past
/// the budget an answer is made and sent, and not kept.
#[derive(Default)]
struct ViewCache {
    /// By viewer and whether the viewer may abort (which changes when a seat joins).
    views: HashMap<(Viewer, bool), ViewJson>,
    /// By viewer, whether the viewer may abort, and the version told from.
    changes: HashMap<(Viewer, bool, usize), Option<ViewJson>>,
    /// The bytes kept, counted in [`CACHED_BYTES`] too.
    bytes: usize,
}

/// What one game keeps of its serialised views.
pub const CACHE_BYTES_PER_GAME: usize = 512 * 1024;
/// What the whole process keeps of serialised views.
pub const CACHE_BYTES_PER_PROCESS: usize = 64 * 1024 * 1024;
/// The bytes every game's [`ViewCache`] keeps now.
static CACHED_BYTES: AtomicUsize = AtomicUsize::new(0);
/// What a cache entry costs besides its text (keys, map slot, Arc header).
const ENTRY_OVERHEAD: usize = 96;

impl ViewCache {
    /// Count `len` more bytes if both budgets allow them.
    fn admit(&mut self, len: usize) -> bool {
        let cost = len + ENTRY_OVERHEAD;
        if self.bytes + cost > CACHE_BYTES_PER_GAME {
            return false;
        }
        let taken = CACHED_BYTES.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |total| {
            (total + cost <= CACHE_BYTES_PER_PROCESS).then_some(total + cost)
        });
        if taken.is_err() {
            return false;
        }
        self.bytes += cost;
        true
    }

    fn clear(&mut self) {
        self.views.clear();
        self.changes.clear();
        CACHED_BYTES.fetch_sub(std::mem::take(&mut self.bytes), Ordering::Relaxed);
    }
}

impl Drop for ViewCache {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The bytes of serialised views all games keep now (see [`ViewCache`]).
pub fn cached_view_bytes() -> usize {
    CACHED_BYTES.load(Ordering::Relaxed)
}

/// The mutable part of a game, behind its lock.
pub struct Live {
    game: Box<dyn DynGame>,
    /// The views and changes of the current version already serialised.
    cache: ViewCache,
    /// The computer player of each computer seat, made on first use.
    pub players: Vec<Option<Box<dyn Player>>>,
    /// Whether a task is playing the computer seats now (at most one per game).
    pub driving: bool,
}

impl Live {
    pub fn new(game: Box<dyn DynGame>, seats: usize) -> Live {
        Live { game, cache: ViewCache::default(), players: (0..seats).map(|_| None).collect(), driving: false }
    }

    pub fn game(&self) -> &dyn DynGame {
        &*self.game
    }

    /// The number of actions so far.
    pub fn version(&self) -> usize {
        self.game.record().actions.len()
    }

    /// The number of actions in the log that are not table chat: a
    /// computer's decision stays good while only people talk.
    pub fn moves_version(&self) -> usize {
        self.version() - self.game.chat_lines()
    }

    /// Apply an action read back from the store (another server took it):
    /// at its own time and with its stored finding, as when it was taken,
    /// so no search runs again. On error nothing changes.
    pub fn apply_stored(&mut self, action: &chesskit_core::ActionRecord) -> Result<(), chesskit_core::RuleError> {
        off_the_runtime(|| self.game.apply_record(action))?;
        self.cache.clear();
        Ok(())
    }

    /// Put another game state in place: the copy an action was applied to
    /// and stored from (see `room::act_now`).
    pub fn replace(&mut self, game: Box<dyn DynGame>) {
        self.game = game;
        self.cache.clear();
    }

    /// The view of `viewer` now, serialised; "abort" is offered only if
    /// `may_abort` (see [`GameEntry::view`]).
    /// A game whose clock runs shows its time left `now` (ms since the
    /// game began), so its view is made afresh each time.
    fn view(&mut self, viewer: Viewer, may_abort: bool, now: u64) -> Result<ViewJson, ApiError> {
        if self.game.deadline().is_some() {
            let game = self.game.at_time(now);
            return off_the_runtime(|| serialise_view(&*game, viewer, may_abort));
        }
        if let Some(view) = self.cache.views.get(&(viewer, may_abort)) {
            return Ok(view.clone());
        }
        let view = off_the_runtime(|| serialise_view(&*self.game, viewer, may_abort))?;
        if self.cache.admit(view.byte_len()) {
            self.cache.views.insert((viewer, may_abort), view.clone());
        }
        Ok(view)
    }

    /// The change of `viewer`'s view since version `since`, serialised (see
    /// [`DynGame::view_since`]); None when it cannot be told as a change.
    /// A running clock's time left is `now`'s, as in [`Live::view`].
    fn view_since(
        &mut self,
        viewer: Viewer,
        may_abort: bool,
        since: usize,
        now: u64,
    ) -> Result<Option<ViewJson>, ApiError> {
        if self.game.deadline().is_some() {
            let game = self.game.at_time(now);
            return off_the_runtime(|| serialise_view_since(&*game, viewer, may_abort, since));
        }
        if let Some(change) = self.cache.changes.get(&(viewer, may_abort, since)) {
            return Ok(change.clone());
        }
        let change = off_the_runtime(|| serialise_view_since(&*self.game, viewer, may_abort, since))?;
        if self.cache.admit(change.as_ref().map_or(0, ViewJson::byte_len)) {
            self.cache.changes.insert((viewer, may_abort, since), change.clone());
        }
        Ok(change)
    }
}

/// Run a game's own work (applying an action, building a view) where it
/// cannot stall the server. Most actions take microseconds, but some rules
/// search: the end of a Chess Golf hole proves the puzzle's optimum, which
/// can take seconds. On the server's multi-threaded runtime the worker
/// thread hands its other tasks to a fresh thread meanwhile, so every other
/// game and request goes on; elsewhere (a single-threaded test runtime, no
/// runtime) the work simply runs.
pub fn off_the_runtime<T>(work: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

/// `game`'s view for `viewer`, without "abort" unless `may_abort`, serialised.
pub fn serialise_view(game: &dyn DynGame, viewer: Viewer, may_abort: bool) -> Result<ViewJson, ApiError> {
    serialise(game.view(viewer), may_abort)
}

/// `game`'s view for `viewer` as a change since version `since`, without
/// "abort" unless `may_abort`, serialised; None when it is no change.
pub fn serialise_view_since(
    game: &dyn DynGame,
    viewer: Viewer,
    may_abort: bool,
    since: usize,
) -> Result<Option<ViewJson>, ApiError> {
    game.view_since(viewer, since).map(|view| serialise(view, may_abort)).transpose()
}

fn serialise(mut view: chesskit_core::View, may_abort: bool) -> Result<ViewJson, ApiError> {
    if !may_abort {
        view.session_actions.retain(|a| a != TableAction::Abort.text());
    }
    let raw = serde_json::value::to_raw_value(&view)
        .map_err(|e| ApiError::Internal(format!("cannot serialise a view: {e}")))?;
    Ok(ViewJson(Arc::from(raw)))
}

/// A viewer's view of one version: whole, or as the change `from` the
/// version the viewer holds (its log and chat hold only what was added
/// since; see [`DynGame::view_since`]).
#[derive(Clone, Debug)]
pub struct Update {
    pub from: Option<usize>,
    pub version: usize,
    pub view: ViewJson,
}

/// The change sent when a seat's player first comes (not a version).
pub const JOINED: usize = usize::MAX;

/// One game in memory.
pub struct GameEntry {
    pub id: String,
    pub variant: String,
    pub title: &'static str,
    pub created: i64,
    /// Unix seconds of the last accepted action, or `created`.
    updated: AtomicI64,
    pub hidden_information: bool,
    pub seats: Vec<SeatSlot>,
    pub live: Mutex<Live>,
    /// Held by the action being applied and stored, so that a game's
    /// actions take their turn one at a time (a fair queue) while `live`
    /// stays free for readers: the rules may take seconds (see
    /// `room::act_now`). Every change to an owned game's `live` is made
    /// holding it.
    pub acting: Mutex<()>,
    /// Tells every WebSocket of this game that the game changed: the new
    /// version, or [`JOINED`] when a seat's player came for the first time.
    pub changes: broadcast::Sender<usize>,
    /// Per seat: whether a client has shown this seat's token (fetched a
    /// view, connected a WebSocket, had an action accepted). Kept in memory
    /// only: after a restart a seat counts as joined if it has an action in
    /// the stored log, and otherwise once its client reconnects (the browser
    /// client does so on its own).
    joined: Vec<AtomicBool>,
    /// Whether this process owns the game: takes its actions, plays its
    /// computers, watches its clock. Always with SQLite; with PostgreSQL
    /// once this process holds the game's lock (see `cluster`), and from
    /// then on: a process that loses its locks stops.
    owned: AtomicBool,
    /// Where the owning process was last found (with PostgreSQL, for a game
    /// this process does not own): asking the database costs a scan of
    /// every lock held, one per live game, so the answer is kept until a
    /// forward to it fails (see `cluster::forward`).
    pub owner_hint: std::sync::Mutex<Option<String>>,
    /// When somebody last looked at the game (a view, its summary, a
    /// socket), in [`GameEntry::game_ms`]: a game of computers alone
    /// pauses while nobody watches it.
    watched: AtomicU64,
    /// The analysis of the game's deal, once somebody asked for it after
    /// the end (see `crate::analysis`): the search runs once per game in
    /// memory, and every later request reads the answer.
    pub analysis: tokio::sync::OnceCell<Arc<chesskit_ai::Analysis>>,
}

/// How long after the last look a game of computers alone plays on
/// without a socket open on it (a page that polls looks more often).
const WATCHED_FOR_MS: u64 = 30_000;

/// A seat as `GET /api/games/{id}` and the view response describe it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
pub struct SeatSummary {
    pub seat: Seat,
    pub name: String,
    pub kind: String,
    /// For human and open seats: whether the seat's player has joined
    /// (see [`GameEntry::join`]). Absent for computer seats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<bool>,
}

impl GameEntry {
    pub fn new(stored: &StoredGame, game: Box<dyn DynGame>, hidden_information: bool) -> Result<GameEntry, String> {
        let names = game.seats();
        if stored.seat_kinds.len() != names.len() || stored.seat_tokens.len() != names.len() {
            return Err(format!(
                "game {} has {} seats but {} kinds and {} tokens stored",
                stored.id,
                names.len(),
                stored.seat_kinds.len(),
                stored.seat_tokens.len()
            ));
        }
        let seats = names
            .into_iter()
            .zip(&stored.seat_kinds)
            .zip(&stored.seat_tokens)
            .map(|((info, kind), token)| {
                Ok(SeatSlot {
                    name: info.name,
                    stored_kind: SeatKind::parse(kind)?,
                    filled: std::sync::OnceLock::new(),
                    token: token.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| format!("game {}: {e}", stored.id))?;
        let (changes, _) = broadcast::channel(16);
        Ok(GameEntry {
            id: stored.id.clone(),
            variant: stored.record.variant.clone(),
            title: game.title(),
            created: stored.created,
            updated: AtomicI64::new(stored.updated),
            hidden_information,
            live: Mutex::new(Live::new(game, seats.len())),
            acting: Mutex::new(()),
            // A seat with an accepted action had joined: that much survives a restart.
            joined: (0..seats.len())
                .map(|seat| AtomicBool::new(stored.record.actions.iter().any(|a| a.seat == seat)))
                .collect(),
            seats,
            changes,
            owned: AtomicBool::new(true),
            owner_hint: std::sync::Mutex::new(None),
            watched: AtomicU64::new(0),
            analysis: tokio::sync::OnceCell::new(),
        })
    }

    /// Record that a client holding `seat`'s token has come: it fetched a
    /// view, connected or acted. Called only after the token was checked.
    /// A seat's first coming changes what the others may do (nobody may
    /// abort a game once everyone is here), so their sockets are told.
    pub fn join(&self, seat: Seat) {
        if let Some(joined) = self.joined.get(seat) {
            if !joined.swap(true, Ordering::Relaxed) {
                // No receiver is fine: nobody is watching.
                let _ = self.changes.send(JOINED);
            }
        }
    }

    /// Let a computer of `level` play `seat`, an open seat nobody took:
    /// false (and nothing changed) if the seat is not open now. Its token
    /// proves nothing from then on. The caller stores the change first.
    pub fn fill_with_computer(&self, seat: Seat, level: SeatKind) -> bool {
        let Some(slot) = self.seats.get(seat) else { return false };
        if *slot.kind() != SeatKind::Open || !level.is_computer() {
            return false;
        }
        let filled = slot.filled.set(level).is_ok();
        if filled {
            // The seats' kinds changed: every page redraws them.
            let _ = self.changes.send(JOINED);
        }
        filled
    }

    /// Note that somebody is looking at the game now.
    pub fn watch(&self) {
        self.watched.fetch_max(self.game_ms(), Ordering::Relaxed);
    }

    /// Whether anybody follows the game: a socket is open on it, or it
    /// was looked at lately (see [`GameEntry::watch`]).
    pub fn watched_lately(&self) -> bool {
        self.changes.receiver_count() > 0 || self.unwatched_ms() < WATCHED_FOR_MS
    }

    /// Milliseconds since somebody last looked at the game.
    fn unwatched_ms(&self) -> u64 {
        self.game_ms().saturating_sub(self.watched.load(Ordering::Relaxed))
    }

    /// Whether nothing has used the game for `idle`: no action, no look,
    /// no socket open, no computer thinking and no clock running. Called
    /// with the game table locked, so no request can pick the entry up
    /// meanwhile; one that holds it already keeps it in use.
    fn idle_for(self: &Arc<Self>, idle: Duration) -> bool {
        if Arc::strong_count(self) > 1 || self.changes.receiver_count() > 0 {
            return false;
        }
        let Ok(live) = self.live.try_lock() else { return false };
        let unused = crate::store::unix_now().saturating_sub(self.updated()) >= idle.as_secs() as i64
            && self.unwatched_ms() >= idle.as_millis() as u64;
        unused && !live.driving && live.game().deadline().is_none()
    }

    /// Whether this process owns the game (see [`GameEntry::owned`]'s field).
    pub fn owned(&self) -> bool {
        self.owned.load(Ordering::Acquire)
    }

    /// Record whether this process owns the game.
    pub fn set_owned(&self, owned: bool) {
        self.owned.store(owned, Ordering::Release);
    }

    /// Unix seconds of the last accepted action, or of the creation.
    pub fn updated(&self) -> i64 {
        self.updated.load(Ordering::Relaxed)
    }

    /// Note an action accepted (and stored) at `at`, unix seconds.
    pub fn touch(&self, at: i64) {
        self.updated.fetch_max(at, Ordering::Relaxed);
    }

    /// Whether `seat` may abort `game` now: the log allows it (some other
    /// side has not acted, see [`DynGame::abort_waits_for`]) and one of
    /// the seats it waits for is a person's seat whose player has never
    /// come. A game against a computer, or one whose players are all
    /// here, is resigned or drawn, not aborted.
    pub fn may_abort(&self, game: &dyn DynGame, seat: Seat) -> bool {
        self.seats.get(seat).is_some_and(|slot| !slot.kind().is_computer())
            && game.abort_waits_for(seat).into_iter().any(|other| self.joined(other) == Some(false))
    }

    /// Now, in milliseconds since the game was created: the time stamped
    /// on its actions, which its clock (if it has one) runs by.
    pub fn game_ms(&self) -> u64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        now.saturating_sub(u64::try_from(self.created).unwrap_or(0) * 1000)
    }

    /// Whether the view of `viewer` offers "abort" now.
    pub fn viewer_may_abort(&self, live: &Live, viewer: Viewer) -> bool {
        viewer.seat().is_some_and(|seat| self.may_abort(live.game(), seat))
    }

    /// What `viewer` needs to hold the view of `live`'s version: the change
    /// since the version `since` it holds when that can be told, else the
    /// whole view (for a first load, or `since` ahead of the game).
    pub fn update(&self, live: &mut Live, viewer: Viewer, since: Option<usize>) -> Result<Update, ApiError> {
        let may_abort = self.viewer_may_abort(live, viewer);
        let version = live.version();
        let now = self.game_ms();
        if let Some(from) = since.filter(|&from| from <= version) {
            if let Some(view) = live.view_since(viewer, may_abort, from, now)? {
                return Ok(Update { from: Some(from), version, view });
            }
        }
        Ok(Update { from: None, version, view: live.view(viewer, may_abort, now)? })
    }

    /// Whether `seat`'s player has joined; None for a computer seat.
    pub fn joined(&self, seat: Seat) -> Option<bool> {
        let slot = self.seats.get(seat)?;
        if slot.kind().is_computer() {
            return None;
        }
        self.joined.get(seat).map(|j| j.load(Ordering::Relaxed))
    }

    /// Every seat: its name, kind and, for people, whether they have joined.
    pub fn seat_summaries(&self) -> Vec<SeatSummary> {
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, slot)| SeatSummary {
                seat,
                name: slot.name.clone(),
                kind: slot.kind().to_string(),
                joined: self.joined(seat),
            })
            .collect()
    }

    /// The seat whose token this is.
    pub fn seat_of(&self, token: &str) -> Option<Seat> {
        // Compare with every seat, so the time taken does not tell which seat matched.
        self.seats.iter().enumerate().fold(None, |found, (seat, slot)| {
            let matches = slot.live_token().is_some_and(|t| same_token(token, t));
            if matches {
                Some(seat)
            } else {
                found
            }
        })
    }

    /// The viewer a request speaks for: the token's seat, or a spectator
    /// when there is no token. A token that is no seat's is refused.
    pub fn viewer(&self, token: Option<&str>) -> Result<Viewer, ApiError> {
        match token {
            None | Some("") => Ok(Viewer::Spectator),
            Some(token) => self.seat_of(token).map(Viewer::Seat).ok_or_else(wrong_token),
        }
    }

    /// The seat an action is taken for: a token is required.
    pub fn acting_seat(&self, token: Option<&str>) -> Result<Seat, ApiError> {
        match token {
            None | Some("") => Err(ApiError::Forbidden("an action needs the token of the seat that takes it".into())),
            Some(token) => self.seat_of(token).ok_or_else(wrong_token),
        }
    }

    /// Whether every seat is a computer's: nobody is waiting to play, and
    /// whoever watches wants to see the moves one by one.
    pub fn only_computers(&self) -> bool {
        self.seats.iter().all(|slot| slot.kind().is_computer())
    }

    /// The computer seats that must act now.
    pub fn computers_to_act(&self, game: &dyn DynGame) -> Vec<Seat> {
        game.to_act()
            .seats()
            .iter()
            .copied()
            .filter(|&s| self.seats.get(s).is_some_and(|slot| slot.kind().is_computer()))
            .collect()
    }
}

fn wrong_token() -> ApiError {
    ApiError::Forbidden("this token belongs to no seat of this game".into())
}

/// Everything the handlers share; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub(crate) games: Arc<RwLock<HashMap<String, Arc<GameEntry>>>>,
    pub(crate) store: Store,
    pub(crate) variants: Arc<Vec<VariantInfo>>,
    pub(crate) web_dir: Arc<PathBuf>,
    /// How long a computer waits before each action in a game with no
    /// person seated, so that a spectator can follow it.
    pub(crate) computer_pace: Duration,
    /// The limits and what enforces them (see [`crate::limits`]).
    pub(crate) guard: Arc<crate::limits::Guard>,
    /// The analyses searched since the server started (a cached answer
    /// is not searched again; see `crate::analysis`).
    pub(crate) analyses_searched: Arc<AtomicU64>,
    /// The lobby's lists, kept for a moment (see [`crate::listcache`]).
    pub(crate) lobby_lists: Arc<crate::listcache::ListCache>,
}

/// The limits' enforcer, as the request extractors of [`crate::limits`]
/// find it without knowing this state.
impl axum::extract::FromRef<AppState> for Arc<crate::limits::Guard> {
    fn from_ref(state: &AppState) -> Self {
        state.guard.clone()
    }
}

/// Every stored game, replayed. One game that no longer replays (a rules
/// fix changed what is legal) must not keep the others from being played.
fn restore_all(stored: &[StoredGame], variants: &[VariantInfo]) -> HashMap<String, Arc<GameEntry>> {
    let mut games = HashMap::new();
    for game in stored {
        match restore(game, variants) {
            Ok(entry) => {
                games.insert(entry.id.clone(), Arc::new(entry));
            }
            Err(e) => eprintln!("chesskit: game {} is not restored: {e}", game.id),
        }
    }
    games
}

impl AppState {
    /// Open the store `db` and, with SQLite, restore every game by
    /// replaying its log; nothing moves yet (see
    /// [`AppState::open_database`], which sets the games in motion). With
    /// PostgreSQL no game is loaded now, and the commits the other servers
    /// announce come on the receiver.
    pub(crate) async fn load(
        db: &Database,
        web_dir: PathBuf,
        computer_pace: Duration,
        advertise: &str,
    ) -> Result<(AppState, Option<tokio::sync::mpsc::UnboundedReceiver<crate::store::postgres::Notice>>), String> {
        let variants = Arc::new(chesskit_games::variants());
        let (store, games, notices) = match db {
            Database::Postgres(url) => {
                let (store, notices) = PgStore::open(url, advertise).await?;
                (Store::Postgres(store), HashMap::new(), Some(notices))
            }
            Database::Sqlite(path) => {
                let path = path.clone();
                let (store, stored) = tokio::task::spawn_blocking(move || Store::open(&path))
                    .await
                    .map_err(|e| format!("the storage set-up failed: {e}"))??;
                (store, restore_all(&stored, &variants), None)
            }
        };
        let state = AppState {
            games: Arc::new(RwLock::new(games)),
            store,
            variants,
            web_dir: Arc::new(web_dir),
            computer_pace,
            guard: Arc::default(),
            analyses_searched: Arc::default(),
            lobby_lists: Arc::default(),
        };
        Ok((state, notices))
    }

    /// This state with other limits than [`crate::limits::Limits::default`].
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> AppState {
        self.guard = Arc::new(crate::limits::Guard::new(limits));
        self
    }

    /// Resolves with the reason when the store can no longer guarantee this
    /// process's ownership of its games (PostgreSQL: a connection was
    /// lost); never with SQLite.
    pub async fn lost(&self) -> String {
        match self.store.postgres() {
            Some(store) => store.lost().await,
            None => std::future::pending().await,
        }
    }

    /// Let the games unused for the limits' `idle_game` leave memory, now
    /// and then, for as long as the server runs: each is read back from
    /// the store when next asked for (see `cluster::game`).
    pub(crate) fn sweep_idle_games(&self) {
        let state = self.clone();
        let idle = self.guard.limits.idle_game;
        let every = (idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                state.drop_idle_games(idle);
            }
        });
    }

    /// Drop the games unused for `idle`.
    fn drop_idle_games(&self, idle: Duration) {
        if let Ok(mut games) = self.games.write() {
            games.retain(|_, entry| !entry.idle_for(idle));
        }
    }

    /// The number of analyses searched since the server started: each
    /// game's deal is searched once, whoever asks and however often.
    pub fn analyses_searched(&self) -> u64 {
        self.analyses_searched.load(Ordering::Relaxed)
    }

    /// The number of games in memory.
    pub fn game_count(&self) -> usize {
        self.games.read().map(|g| g.len()).unwrap_or(0)
    }

    pub(crate) fn all_games(&self) -> Vec<Arc<GameEntry>> {
        self.games.read().map(|g| g.values().cloned().collect()).unwrap_or_default()
    }

    /// Game `id` in memory (public for tests that watch a game's locks).
    pub fn game(&self, id: &str) -> Result<Arc<GameEntry>, ApiError> {
        let games = self.games.read().map_err(|_| ApiError::Internal("the game table lock is poisoned".into()))?;
        games.get(id).cloned().ok_or_else(|| ApiError::NotFound(format!("no game with id {id:?}")))
    }

    /// Put `entry` in memory unless its game is there already; the one in memory.
    pub(crate) fn insert_if_absent(&self, entry: Arc<GameEntry>) -> Result<Arc<GameEntry>, ApiError> {
        let mut games = self.games.write().map_err(|_| ApiError::Internal("the game table lock is poisoned".into()))?;
        Ok(games.entry(entry.id.clone()).or_insert(entry).clone())
    }

    pub(crate) fn insert(&self, entry: Arc<GameEntry>) -> Result<(), ApiError> {
        let mut games = self.games.write().map_err(|_| ApiError::Internal("the game table lock is poisoned".into()))?;
        games.insert(entry.id.clone(), entry);
        Ok(())
    }

    pub(crate) fn variant(&self, name: &str) -> Option<&VariantInfo> {
        self.variants.iter().find(|v| v.name == name)
    }
}

pub(crate) fn restore(stored: &StoredGame, variants: &[VariantInfo]) -> Result<GameEntry, String> {
    let game = chesskit_games::replay(&stored.record).map_err(|e| e.to_string())?;
    let hidden = variants.iter().find(|v| v.name == stored.record.variant).is_some_and(|v| v.hidden_information);
    GameEntry::new(stored, game, hidden)
}

#[cfg(test)]
mod tests {
    use super::off_the_runtime;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A slow rule (a Golf proof) must not hold up the rest of the server:
    /// with a single worker thread, the slow work waits for a message that
    /// only another task can send. If the worker stayed blocked, that task
    /// could never run and the wait would time out.
    #[test]
    fn slow_game_work_leaves_the_other_tasks_running() {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let answered = runtime.block_on(async {
            let (tell, heard) = mpsc::channel();
            let slow =
                tokio::spawn(async move { off_the_runtime(|| heard.recv_timeout(Duration::from_secs(10)).is_ok()) });
            // Let the slow task take the only worker first.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let other = tokio::spawn(async move { tell.send(()).unwrap() });
            other.await.unwrap();
            slow.await.unwrap()
        });
        assert!(answered, "the other task never ran while the game work blocked");
    }

    #[test]
    fn outside_a_multi_threaded_runtime_the_work_just_runs() {
        assert_eq!(off_the_runtime(|| 6 * 7), 42);
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        assert_eq!(runtime.block_on(async { off_the_runtime(|| 6 * 7) }), 42);
    }
}
