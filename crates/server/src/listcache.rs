//! The lobby's lists kept for a moment (docs/api.md, "The lobby"): every
//! open lobby page asks for them every few seconds, and with several
//! servers each list is a query of the shared database, so each server
//! answers from one read for [`KEPT_FOR`]. The cache holds one answer per
//! list, so it stays as small as the lists are bounded.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Bytes;

/// How long a list is answered from memory: a stranger sees a challenge
/// or a live game at most this late (a change made through this server
/// is seen at once: it forgets its lists).
pub const KEPT_FOR: Duration = Duration::from_secs(2);

/// Each list's last answer, serialised, and when it was read.
#[derive(Default)]
pub struct ListCache {
    kept: Mutex<HashMap<&'static str, (Instant, Bytes)>>,
}

impl ListCache {
    /// The answer for `list`, if it was read less than [`KEPT_FOR`] ago.
    pub fn fresh(&self, list: &'static str) -> Option<Bytes> {
        let kept = self.kept.lock().ok()?;
        kept.get(list).filter(|(at, _)| at.elapsed() < KEPT_FOR).map(|(_, body)| body.clone())
    }

    /// Keep `body` as the answer for `list`.
    pub fn keep(&self, list: &'static str, body: Bytes) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(list, (Instant::now(), body));
        }
    }

    /// Forget every answer: the lobby changed.
    pub fn forget(&self) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.clear();
        }
    }
}
