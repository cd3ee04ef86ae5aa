//! Opening the server's state: load the store, then set every game in
//! motion (the computers that must act, the clocks that run) and, with
//! PostgreSQL, follow the other servers' commits and take over the games
//! whose owner is gone. It sits above the rooms and the cluster, so that
//! [`crate::state`] never reaches up into them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::room::{start_computers, watch_clock};
use crate::state::AppState;
use crate::store::Database;

impl AppState {
    /// Open the database at `db`, restore every game by replaying its log,
    /// and let computer seats that must act resume. `web_dir` holds the
    /// built browser client.
    pub async fn open(db: &Path, web_dir: PathBuf) -> Result<AppState, String> {
        AppState::open_paced(db, web_dir, Duration::ZERO).await
    }

    /// [`AppState::open`], with computers that wait `computer_pace` before
    /// each action in games where only computers play.
    pub async fn open_paced(db: &Path, web_dir: PathBuf, computer_pace: Duration) -> Result<AppState, String> {
        AppState::open_database(&Database::Sqlite(db.to_path_buf()), web_dir, computer_pace, "").await
    }

    /// [`AppState::open_paced`] on either store. With PostgreSQL no game is
    /// loaded now: each is loaded when first asked for, and `advertise` is
    /// the URL at which the other servers reach this one to forward actions.
    pub async fn open_database(
        db: &Database,
        web_dir: PathBuf,
        computer_pace: Duration,
        advertise: &str,
    ) -> Result<AppState, String> {
        let (state, notices) = AppState::load(db, web_dir, computer_pace, advertise).await?;
        if let Some(notices) = notices {
            crate::cluster::follow(state.clone(), notices);
            crate::cluster::sweep(state.clone());
        }
        for entry in state.all_games() {
            let mut live = entry.live.lock().await;
            start_computers(&state, &entry, &mut live);
            watch_clock(&state, &entry, live.game());
        }
        Ok(state)
    }
}
