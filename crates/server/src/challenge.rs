//! The lobby's seats (docs/api.md, "The lobby"): a game opened as a
//! challenge, a stranger taking one of its free seats under a name of
//! their choice, and its creator filling a seat nobody took with a
//! computer. The store's row per held seat is the arbiter: of two takers
//! of one seat, on one server or two, the second is refused.

use std::sync::Arc;

use chesskit_core::Seat;

use crate::error::ApiError;
use crate::room::start_computers;
use crate::state::{AppState, GameEntry, SeatKind};
use crate::store::{unix_now, Listing, TakenSeat};

/// How the lobby names a computer seat: its level, as the PGN names it.
pub(crate) fn computer_name(level: &str) -> String {
    // `chesskit_ai::player_for_level("")` plays level2.
    let level = if level.is_empty() { "level2" } else { level };
    format!("Computer ({level})")
}

/// A challenge waits for strangers: it needs a seat left open.
pub(crate) fn check_open_seat(kinds: &[SeatKind]) -> Result<(), ApiError> {
    match kinds.contains(&SeatKind::Open) {
        true => Ok(()),
        false => Err(ApiError::BadRequest("an open challenge needs a seat of kind \"open\" for others to take".into())),
    }
}

/// List `entry`'s new game in the lobby as `creator`'s challenge: the
/// creator holds the seats it plays, each computer its own, and the open
/// seats wait.
pub(crate) async fn open_challenge(state: &AppState, entry: &GameEntry, creator: &str) -> Result<(), ApiError> {
    let taken = entry
        .seats
        .iter()
        .enumerate()
        .filter_map(|(seat, slot)| {
            let player = match slot.kind() {
                SeatKind::Human => creator.to_string(),
                SeatKind::Computer(level) => computer_name(level),
                SeatKind::Open => return None,
            };
            Some(TakenSeat { seat, player })
        })
        .collect();
    let names = entry.seats.iter().map(|slot| slot.name.clone()).collect();
    state
        .store
        .list_challenge(&entry.id, creator, names, entry.created, taken)
        .await
        .map_err(|e| ApiError::Internal(format!("game {}: not listed in the lobby: {e}", entry.id)))?;
    state.lobby_lists.forget();
    Ok(())
}

/// A seat taken: the game, the seat, and the token that now proves it.
pub(crate) struct Taken {
    pub entry: Arc<GameEntry>,
    pub seat: Seat,
    pub token: String,
}

/// Give free seat `seat` of challenge `id` to `player` (a checked name):
/// its token, which its creator was never given.
pub(crate) async fn take_seat(state: &AppState, id: &str, seat: Seat, player: String) -> Result<Taken, ApiError> {
    let entry = crate::cluster::game(state, id).await?;
    let listing = listing(state, &entry).await?;
    check_free(&entry, &listing, seat).await?;
    let token = entry.seats[seat].token.clone().ok_or_else(|| seat_not_open(&entry, seat))?;
    hold(state, &entry, TakenSeat { seat, player }, None).await?;
    Ok(Taken { entry, seat, token })
}

/// Let a computer of `level` play free seat `seat` of challenge `id`, for
/// whoever holds `token`, a seat of that game: nobody came for it.
pub(crate) async fn fill_seat(
    state: &AppState,
    id: &str,
    token: Option<&str>,
    seat: Seat,
    level: &str,
) -> Result<Arc<GameEntry>, ApiError> {
    let entry = crate::cluster::game(state, id).await?;
    entry.acting_seat(token)?;
    let kind = SeatKind::parse(&format!("computer:{level}")).map_err(ApiError::BadRequest)?;
    let listing = listing(state, &entry).await?;
    check_free(&entry, &listing, seat).await?;
    // The computer plays where the game is owned: this server, or none.
    if !crate::cluster::claim(state, &entry).await? {
        return Err(ApiError::Unavailable(format!(
            "game {id} is played by another server, which fills its seats; try again"
        )));
    }
    let _turn = entry.acting.lock().await;
    let mut kinds: Vec<String> = entry.seats.iter().map(|slot| slot.kind().to_string()).collect();
    kinds[seat] = kind.to_string();
    hold(state, &entry, TakenSeat { seat, player: computer_name(level) }, Some(kinds)).await?;
    if !entry.fill_with_computer(seat, kind) {
        return Err(ApiError::Internal(format!("game {id}: seat {seat} was stored filled but is not open here")));
    }
    let mut live = entry.live.lock().await;
    start_computers(state, &entry, &mut live);
    drop(live);
    Ok(entry.clone())
}

/// `entry`'s game as the lobby lists it; a game never opened as a
/// challenge has no seats to take.
async fn listing(state: &AppState, entry: &GameEntry) -> Result<Listing, ApiError> {
    state.store.listing(&entry.id).await.map_err(ApiError::Internal)?.ok_or_else(|| {
        ApiError::Conflict(format!(
            "game {} is not an open challenge: its seats are taken by invite link only",
            entry.id
        ))
    })
}

/// Refused unless `seat` of `entry`'s game is open, held by nobody, and
/// the game is still being played.
async fn check_free(entry: &GameEntry, listing: &Listing, seat: Seat) -> Result<(), ApiError> {
    let Some(slot) = entry.seats.get(seat) else {
        return Err(ApiError::BadRequest(format!(
            "{} has no seat {seat} (its seats are 0 to {})",
            entry.title,
            entry.seats.len().saturating_sub(1)
        )));
    };
    if entry.live.lock().await.game().to_act().is_over() {
        return Err(ApiError::Conflict(format!("game {} is over", entry.id)));
    }
    if let Some(player) = listing.players.get(seat).cloned().flatten() {
        return Err(ApiError::Conflict(format!("seat {seat} ({}) is taken: {player} plays it", slot.name)));
    }
    match slot.kind() {
        SeatKind::Open => Ok(()),
        _ => Err(seat_not_open(entry, seat)),
    }
}

fn seat_not_open(entry: &GameEntry, seat: Seat) -> ApiError {
    ApiError::Conflict(format!("seat {seat} ({}) is not open", entry.seats[seat].name))
}

/// Store that `taken` holds its seat: refused with 409 if somebody took it
/// meanwhile (here or on another server), as the store's key decides.
async fn hold(
    state: &AppState,
    entry: &GameEntry,
    taken: TakenSeat,
    seat_kinds: Option<Vec<String>>,
) -> Result<(), ApiError> {
    let seat = taken.seat;
    let stored = state.store.take_seat(&entry.id, taken, seat_kinds).await;
    state.lobby_lists.forget();
    let Err(why) = stored else { return Ok(()) };
    match listing(state, entry).await?.players.get(seat).cloned().flatten() {
        Some(player) => {
            Err(ApiError::Conflict(format!("seat {seat} ({}) is taken: {player} plays it", entry.seats[seat].name)))
        }
        None => Err(ApiError::Internal(format!("game {}: seat {seat} not stored as taken: {why}", entry.id))),
    }
}

/// The unix second from which challenges are listed: older ones have
/// waited long enough (see [`crate::limits::Limits::challenge_wait`]).
pub(crate) fn oldest_listed(state: &AppState) -> i64 {
    unix_now().saturating_sub(state.guard.limits.challenge_wait.as_secs() as i64)
}
