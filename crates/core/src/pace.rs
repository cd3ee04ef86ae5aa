//! Long work that steps aside now and then, so that a thread of a higher
//! priority woken meanwhile runs at once.
//!
//! The server runs a computer's thinking and the referee's searches at the
//! idle scheduling policy, behind people's requests. On Linux's EEVDF
//! scheduler that alone does not put a woken request first: a woken thread
//! that has had more than its share lately is not "eligible", and the
//! scheduler lets the running idle-policy thread go on until the next
//! timer tick (4 ms at 250 Hz) rather than preempt it. Traced in the attack
//! benchmark (`perf sched timehist`), a person's request thread or the
//! store's writer waited 2 to 4.5 ms this way about once a second while
//! twenty computers thought, and the person's p99 went from 1.9 to about
//! 4.4 ms. A thread that pauses for a moment every millisecond leaves the
//! run queue, and whatever woke meanwhile runs then: the same benchmark,
//! quiet, gave p99 1.8 ms, for about 3% of the thinking (the server's
//! share of its core, 98% before, 95% after).
//!
//! Work opts in per thread with [`step_aside_every`]; long loops call
//! [`breathe`] often (every few microseconds of work), which costs a
//! thread-local read on a thread that has not opted in.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// How a thread steps aside: a pause of `pause` once `period` has passed
/// since the last one.
#[derive(Clone, Copy, Debug)]
struct Pace {
    period: Duration,
    pause: Duration,
    next: Instant,
}

thread_local! {
    static PACE: Cell<Option<Pace>> = const { Cell::new(None) };
}

/// From now on, [`breathe`] on this thread sleeps for `pause` once
/// `period` has passed since its last pause.
pub fn step_aside_every(period: Duration, pause: Duration) {
    PACE.with(|pace| pace.set(Some(Pace { period, pause, next: Instant::now() + period })));
}

/// Step aside if this thread opted in and its period has passed; at once
/// otherwise. Whether it paused.
pub fn breathe() -> bool {
    PACE.with(|cell| {
        let Some(mut pace) = cell.get() else { return false };
        if Instant::now() < pace.next {
            return false;
        }
        std::thread::sleep(pace.pause);
        pace.next = Instant::now() + pace.period;
        cell.set(Some(pace));
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_that_has_not_opted_in_never_pauses() {
        std::thread::spawn(|| assert!((0..1000).all(|_| !breathe()))).join().unwrap();
    }

    #[test]
    fn a_thread_that_opted_in_pauses_once_its_period_has_passed_and_not_before() {
        std::thread::spawn(|| {
            step_aside_every(Duration::from_secs(3600), Duration::ZERO);
            assert!(!breathe(), "an hour has not passed");
            step_aside_every(Duration::ZERO, Duration::from_micros(1));
            let before = Instant::now();
            assert!(breathe(), "a period of nothing has passed");
            assert!(before.elapsed() >= Duration::from_micros(1), "it slept its pause");
        })
        .join()
        .unwrap();
    }
}
