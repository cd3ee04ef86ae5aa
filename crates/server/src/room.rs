//! A game this process owns, in motion: every action, a person's or a
//! computer's or a falling flag's, is applied to the referee, stored, and
//! only then shown to anyone; then the computer seats that must act move,
//! and the clock is watched.

use std::sync::Arc;

use chesskit_core::session::{sides, FLAG};
use chesskit_core::{DynGame, RuleError, Seat, TableAction, Viewer};

use crate::error::ApiError;
use crate::state::{AppState, GameEntry, Live, SeatKind, Update};
use crate::store::{unix_now, StoredGame};
use crate::token::new_token;

/// An accepted and stored action.
pub struct Acted {
    /// The action's canonical text.
    pub action: String,
    /// The number of actions after it (and after a computer's answer to
    /// it: a draw offered to computers is declined at once).
    pub version: usize,
    /// The acting seat's view of that version, when asked for.
    pub view: Option<Update>,
}

/// What the acting client wants besides the acknowledgement.
#[derive(Clone, Copy, Debug)]
pub enum Reply {
    /// Nothing: a WebSocket hears of the change on its own.
    Nothing,
    /// The seat's view, as the change since the version `since` it holds
    /// (see [`GameEntry::update`]), or whole.
    View { since: Option<usize> },
}
/// Apply, store, then put in place and broadcast: nobody sees an action
/// before it is durable, and actions are stored in the order they were
/// applied, for the game's actions wait their turn one at a time
/// ([`GameEntry::acting`]). The action is applied to a copy of the game,
/// off the async runtime and without holding the game's lock, so that
/// the game stays readable at its last stored version while the rules
/// work (the referee of a Chess Golf hole searches for seconds).
/// `expected` refuses a decision made on an older version (counting
/// moves, not chat: see [`Live::moves_version`]).
pub(crate) async fn act_now(
    state: &AppState,
    entry: &Arc<GameEntry>,
    seat: Seat,
    text: &str,
    expected: Option<usize>,
    reply: Reply,
) -> Result<Acted, ApiError> {
    let _turn = entry.acting.lock().await;
    let game = {
        let live = entry.live.lock().await;
        check_before_acting(entry, &live, seat, text, expected)?;
        live.game().clone_box()
    };
    let (mut game, action) = apply_and_store(state, entry, game, seat, text).await?;
    // A draw offered to a side of computers is declined at once: they play on.
    if let Some(computer) = computer_to_answer_offer(entry, &*game) {
        let declined = game.clone_box();
        match apply_and_store(state, entry, declined, computer, TableAction::DeclineDraw.text()).await {
            Ok((after, _)) => game = after,
            Err(e) => e.log(),
        }
    }
    if game.to_act().is_over() {
        end_listing(state, entry).await;
    }
    let mut live = entry.live.lock().await;
    live.replace(game);
    let version = live.version();
    // No receiver is fine: nobody is watching.
    let _ = entry.changes.send(version);
    start_computers(state, entry, &mut live);
    watch_clock(state, entry, live.game());
    let view = match reply {
        Reply::Nothing => None,
        Reply::View { since } => Some(entry.update(&mut live, Viewer::Seat(seat), since)?),
    };
    Ok(Acted { action, version, view })
}

/// Take a game that has just ended off the lobby's lists (a game that is
/// not in the lobby is unaffected). The action stands if this fails (it
/// is stored): the game then stays in the live list, and the log says so.
async fn end_listing(state: &AppState, entry: &GameEntry) {
    if let Err(e) = state.store.end_listing(&entry.id).await {
        eprintln!("chesskit: game {}: still listed in the lobby though over: {e}", entry.id);
    }
    state.lobby_lists.forget();
}

/// What the server asks of an action besides the rules: a computer's
/// decision is for the version it was made on, and an abort also needs
/// someone who has never come.
fn check_before_acting(
    entry: &GameEntry,
    live: &Live,
    seat: Seat,
    text: &str,
    expected: Option<usize>,
) -> Result<(), ApiError> {
    if expected.is_some_and(|v| v != live.moves_version()) {
        return Err(ApiError::Conflict("the game changed while the computer was thinking".into()));
    }
    // The game allows an abort by its log; the server also asks that someone has never come.
    if TableAction::parse(text) == Some(TableAction::Abort)
        && live.game().table_actions(seat).contains(&TableAction::Abort)
        && !entry.may_abort(live.game(), seat)
    {
        return Err(RuleError::illegal(
            "abort",
            "a game is aborted only while another player has never come to it and their side has not acted; \
             resign or offer a draw instead",
        )
        .into());
    }
    Ok(())
}

/// Apply one action to `game`, a copy, on a blocking thread, and store it
/// with the referee's finding if it searched ([`chesskit_core::Game::apply_found`]):
/// the copy with the action, to be put in place, and the action's
/// canonical text. When the rules or the store refuse it, the copy is
/// dropped and nothing has changed.
async fn apply_and_store(
    state: &AppState,
    entry: &GameEntry,
    game: Box<dyn DynGame>,
    seat: Seat,
    text: &str,
) -> Result<(Box<dyn DynGame>, String), ApiError> {
    let (ms, owned_text) = (entry.game_ms(), text.to_string());
    // An action that searches (a Golf hole settled) yields to people's
    // requests once it outlasts an ordinary action (see crate::background).
    let (game, applied) = crate::background::run_demoted_after(ACTION_GRACE, move || {
        let mut game = game;
        let applied = game.apply_at(seat, &owned_text, Some(ms));
        (game, applied)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("game {}: the rules' task failed: {e}", entry.id)))?;
    let action = applied?;
    let index = game.record().actions.len() - 1;
    let now = unix_now();
    if let Err(e) = state.store.append_action(&entry.id, index, &game.record().actions[index], now).await {
        return Err(ApiError::Internal(format!("game {}: action {index} ({action}) was not stored: {e}", entry.id)));
    }
    entry.touch(now);
    Ok((game, action))
}

/// How much processor time an action's rule work may use at the usual
/// priority: far beyond any ordinary action (microseconds), and little
/// enough that a search's start (a Golf hole settled, ten a second under
/// the attack benchmark's `golf`) costs a person's request on the same
/// core about a millisecond at most. 20 ms by the clock at first, which a
/// search used in full at the usual priority; then 5 ms of processor time,
/// under which the `golf` attack still put the person's p99 at about 1.9
/// times its quiet figure.
const ACTION_GRACE: std::time::Duration = std::time::Duration::from_millis(1);

/// If a clock runs in `game`, wake up when its flag falls and record the
/// fall (the `flag` claim, by the seat whose clock ran out), so that a
/// game nobody moves in still ends on time and every viewer is told. A
/// timer whose deadline has moved on (somebody acted) finds no flag down
/// and does nothing: the action that moved it started its own timer.
pub fn watch_clock(state: &AppState, entry: &Arc<GameEntry>, game: &dyn DynGame) {
    let Some(deadline) = game.deadline().filter(|_| entry.owned()) else { return };
    let (state, entry) = (state.clone(), entry.clone());
    tokio::spawn(async move {
        let wait = deadline.saturating_sub(entry.game_ms());
        // A few ms late, so that the flag has surely fallen by the clock's reading.
        tokio::time::sleep(std::time::Duration::from_millis(wait + 5)).await;
        let seat = {
            let live = entry.live.lock().await;
            if live.game().deadline().is_none_or(|d| d > entry.game_ms()) {
                return;
            }
            live.game().to_act().seats().first().copied().unwrap_or(0)
        };
        if let Err(e) = act_now(&state, &entry, seat, FLAG, None, Reply::Nothing).await {
            eprintln!("chesskit: game {}: the flag claim was refused: {}", entry.id, e.message());
        }
    });
}

/// The computer seat that declines the open draw offer, when every seat
/// of the side it is made to is a computer's.
fn computer_to_answer_offer(entry: &GameEntry, game: &dyn DynGame) -> Option<Seat> {
    let offered_by = game.draw_offer()?;
    let sides = sides(&game.seats())?;
    let other = sides.iter().find(|side| !side.contains(&offered_by))?;
    let all_computers = other.iter().all(|&s| entry.seats.get(s).is_some_and(|slot| slot.kind().is_computer()));
    all_computers.then(|| other[0])
}

/// If a computer seat must act and no task is playing the computer seats
/// of this game, start one. Called with the game's lock held, so the check
/// and the start cannot race with the task's own end.
pub fn start_computers(state: &AppState, entry: &Arc<GameEntry>, live: &mut Live) {
    // Only the owner plays them (see crate::cluster).
    if !entry.owned() || live.driving || entry.computers_to_act(live.game()).is_empty() {
        return;
    }
    live.driving = true;
    tokio::spawn(play_computers(state.clone(), entry.clone()));
}

/// Somebody looks at `entry`'s game: a game of computers alone that
/// paused for want of watchers goes on.
pub async fn resume_if_watched(state: &AppState, entry: &Arc<GameEntry>) {
    entry.watch();
    if entry.only_computers() {
        let mut live = entry.live.lock().await;
        start_computers(state, entry, &mut live);
    }
}

/// Consecutive refused computer actions before giving up on a game.
const MAX_COMPUTER_FAILURES: usize = 3;

/// Play the computer seats until none must act. Each player thinks on a
/// blocking thread, on a copy of the game, so a slow player never stalls
/// the server; its action then takes the same path as a person's.
async fn play_computers(state: AppState, entry: Arc<GameEntry>) {
    let mut failures = 0;
    // Games of computers alone wait for one of the server's places.
    let _place = match entry.only_computers() {
        true => state.guard.computer_games.clone().acquire_owned().await.ok(),
        false => None,
    };
    loop {
        let (seat, snapshot, player, version) = {
            let mut live = entry.live.lock().await;
            let Some(&seat) = entry.computers_to_act(live.game()).first() else {
                live.driving = false;
                return;
            };
            if entry.only_computers() && !entry.watched_lately() {
                // Nobody follows it: it pauses, and goes on when somebody looks (`resume_if_watched`).
                live.driving = false;
                return;
            }
            let player = match live.players[seat].take() {
                Some(player) => player,
                None => match new_player(&entry, seat) {
                    Ok(player) => player,
                    Err(e) => return give_up(&entry, &mut live, seat, &e),
                },
            };
            (seat, live.game().clone_box(), player, live.moves_version())
        };
        let deadline = snapshot.deadline();
        if entry.only_computers() && !state.computer_pace.is_zero() {
            tokio::time::sleep(state.computer_pace).await;
        }
        // A place to think: at most so many computers think at once, so
        // that people's actions always find a core free.
        let place = state.guard.thinkers.clone().acquire_owned().await;
        let on_clock = entry.clone();
        let thought = crate::background::run(move || {
            let mut player = player;
            // The clock's time is what is left now, after any wait for a place.
            let choice = match deadline.and_then(|deadline| player_on_game_clock(&on_clock, seat, deadline)) {
                Some(mut clocked) => clocked.choose(&*snapshot, seat),
                None => player.choose(&*snapshot, seat),
            };
            drop(place);
            (choice, player)
        })
        .await;
        let mut live = entry.live.lock().await;
        let choice = match thought {
            Ok((choice, player)) => {
                live.players[seat] = Some(player);
                choice
            }
            Err(e) => return give_up(&entry, &mut live, seat, &format!("the player failed: {e}")),
        };
        let Some(text) = choice else {
            return give_up(&entry, &mut live, seat, "the player found no action");
        };
        drop(live);
        match act_now(&state, &entry, seat, &text, Some(version), Reply::Nothing).await {
            Ok(_) => failures = 0,
            Err(e) => {
                failures += 1;
                if failures >= MAX_COMPUTER_FAILURES {
                    let mut live = entry.live.lock().await;
                    return give_up(&entry, &mut live, seat, &format!("its action {text:?} was refused: {e}"));
                }
            }
        }
    }
}

fn new_player(entry: &GameEntry, seat: Seat) -> Result<Box<dyn chesskit_ai::Player>, String> {
    let level = match entry.seats[seat].kind() {
        crate::state::SeatKind::Computer(level) => level.as_str(),
        _ => return Err("the seat is not a computer seat".into()),
    };
    let seed = crate::token::new_seed().map_err(|e| e.message())?;
    chesskit_ai::player_for_level(level, seed)
}

/// The player for one decision of `seat` while its side's clock runs
/// toward `deadline` (the game's milliseconds): one that spends a share of
/// the time left rather than its level's own time
/// ([`chesskit_ai::time_on_clock`]). None when no fresh seed can be had:
/// the seat's usual player thinks instead.
fn player_on_game_clock(entry: &GameEntry, seat: Seat, deadline: u64) -> Option<Box<dyn chesskit_ai::Player>> {
    let SeatKind::Computer(level) = entry.seats[seat].kind() else { return None };
    let left = std::time::Duration::from_millis(deadline.saturating_sub(entry.game_ms()));
    let seed = crate::token::new_seed().ok()?;
    chesskit_ai::player_on_game_clock(level.as_str(), seed, left).ok()
}

fn give_up(entry: &GameEntry, live: &mut Live, seat: Seat, why: &str) {
    eprintln!("chesskit: game {}: the computer in seat {seat} stops playing: {why}", entry.id);
    live.driving = false;
}

/// Store a new game under `id` with a fresh token for every seat that is
/// not a computer's, put it in memory, and start its computers. Refused
/// (and nothing kept) when the store will not take it: an id taken already.
pub(crate) async fn start_game(
    state: &AppState,
    id: String,
    game: Box<dyn chesskit_core::DynGame>,
    kinds: &[SeatKind],
    hidden_information: bool,
) -> Result<Arc<GameEntry>, ApiError> {
    let now = unix_now();
    let tokens = kinds
        .iter()
        .map(|kind| if kind.is_computer() { Ok(None) } else { new_token().map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    let stored = StoredGame {
        id,
        record: game.record().clone(),
        seat_kinds: kinds.iter().map(ToString::to_string).collect(),
        seat_tokens: tokens,
        created: now,
        updated: now,
    };
    let entry = Arc::new(GameEntry::new(&stored, game, hidden_information).map_err(ApiError::Internal)?);
    state.store.insert_game(stored).await.map_err(|e| ApiError::Internal(format!("game not stored: {e}")))?;
    state.insert(entry.clone())?;
    {
        let mut live = entry.live.lock().await;
        start_computers(state, &entry, &mut live);
    }
    Ok(entry)
}
