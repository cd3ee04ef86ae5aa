//! Work that may take a second or more (a computer player thinking, the
//! referee's search that settles a Chess Golf hole), run on a thread of
//! its own at a lower scheduling priority (the idle policy) than the threads that answer
//! requests: at once for thinking ([`run`]), and for an action only once
//! it has taken longer than an ordinary action could ([`run_demoted_after`]).
//! On a machine with few cores the operating system then gives people's
//! actions the processor first, and the thinking the time left over: with
//! twenty games of computers on two cores, a person's p99 action latency
//! went from 5 times its quiet figure to about its quiet figure (see the
//! attack benchmark, `cargo bench -p chesskit-server --bench attacks`).

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::oneshot;

/// How much lower than a request's thread background work runs (the
/// `nice` value added; 10 gives it about a tenth of a busy core's share).
const NICENESS: i32 = 10;

/// Whether background work keeps the usual priority in this process (see
/// [`keep_usual_priority`]); false, the idle policy, unless asked.
static AT_USUAL_PRIORITY: AtomicBool = AtomicBool::new(false);

/// Leave background work at the usual priority from now on, in this
/// process: for test suites on a machine whose cores are kept busy by
/// other tests and builds (`.ci/run`), where work at the idle policy runs
/// only once nothing else wants a core, so that a test waiting for a
/// computer's move or a new connection's accept waited for the whole
/// machine to go idle. A server for people keeps the idle policy: there
/// it is what keeps their requests first.
pub fn keep_usual_priority() {
    AT_USUAL_PRIORITY.store(true, Ordering::Relaxed);
}

/// Run `work` on a new thread at a lower priority; its result, or an
/// error if the thread could not start or `work` panicked.
pub async fn run<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let result = on_new_thread("chesskit-background", move || {
        lower_this_threads_priority();
        work()
    })?;
    result.await.map_err(|_| "the background work failed (it panicked)".to_string())
}

/// Run `work` on a new thread at the usual priority, and lower that
/// priority once the thread has used `grace` of processor time: most
/// actions take microseconds and keep their place, while a search that
/// goes on yields the processor to people's requests. Counted in
/// processor time, not by the clock, so that an ordinary action that only
/// waited for a core on a busy machine is not put behind everything else,
/// and a search gets no more than `grace` of a core at the usual priority
/// however busy the machine is. The thread ends with the work, so no
/// thread is left at the lower priority.
pub async fn run_demoted_after<T: Send + 'static>(
    grace: std::time::Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tid_tx, tid) = oneshot::channel();
    let mut result = on_new_thread("chesskit-action", move || {
        let _ = tid_tx.send(this_thread_id());
        step_aside_now_and_then();
        work()
    })?;
    let failed = |_| "the action's work failed (it panicked)".to_string();
    // The thread tells its id first thing; waiting for it cannot miss a late start.
    let tid = tokio::select! {
        finished = &mut result => return finished.map_err(failed),
        tid = tid => tid.unwrap_or(0),
    };
    loop {
        match tokio::time::timeout(grace, &mut result).await {
            Ok(finished) => return finished.map_err(failed),
            Err(_) if processor_time_of(tid).is_none_or(|used| used >= grace) => {
                lower_priority_of(tid);
                return result.await.map_err(failed);
            }
            Err(_) => {}
        }
    }
}

/// Start a thread named `name` that runs `work`; its result arrives on
/// the receiver (which errs if `work` panicked).
fn on_new_thread<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<oneshot::Receiver<T>, String> {
    let (done, result) = oneshot::channel();
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let _ = done.send(work());
        })
        .map_err(|e| format!("cannot start a thread ({name}): {e}"))?;
    Ok(result)
}

/// Put the calling thread behind every request, as background work is
/// (see [`lower_priority_of`]): for a thread that must keep running but
/// should use only the time people's requests leave over (the accept
/// loop, which a flood of connections keeps busy).
pub fn lower_this_threads_priority() {
    lower_priority_of(this_thread_id());
    step_aside_now_and_then();
}

/// How often background work steps aside, and for how long (see
/// [`chesskit_core::pace`]): a request woken meanwhile waits at most about
/// a period, where it waited up to a timer tick (4 ms) before; the thinking
/// loses about 3% of its time. Measured by the attack benchmark's
/// `computers` attack on a quiet machine, the person's p99 went from 4.4 ms
/// to 1.8 ms.
const STEP_ASIDE_EVERY: std::time::Duration = std::time::Duration::from_millis(1);
const STEP_ASIDE_FOR: std::time::Duration = std::time::Duration::from_micros(20);

/// Let this thread's long loops pause now and then
/// ([`chesskit_core::pace::breathe`]), for a moment as short as asked:
/// the thread's timer slack (by default 50 us added to every sleep) is
/// set to 1 us on Linux.
fn step_aside_now_and_then() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_TIMERSLACK reads only its integer argument.
    unsafe {
        let _ = libc::prctl(libc::PR_SET_TIMERSLACK, 1_000 as libc::c_ulong);
    }
    chesskit_core::pace::step_aside_every(STEP_ASIDE_EVERY, STEP_ASIDE_FOR);
}

/// This thread's id, as the scheduler knows it (0 off Linux).
fn this_thread_id() -> u64 {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no arguments and cannot fail.
    unsafe {
        libc::syscall(libc::SYS_gettid) as u64
    }
    #[cfg(not(target_os = "linux"))]
    0
}

/// The processor time thread `tid` of this process has used so far (the
/// first field of its `schedstat`, in nanoseconds); None where it cannot
/// be read (off Linux, or the thread has ended).
fn processor_time_of(tid: u64) -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/schedstat")).ok()?;
    stat.split_whitespace().next()?.parse().ok().map(std::time::Duration::from_nanos)
}

/// Put thread `tid` of this process behind every request: the
/// `SCHED_IDLE` policy, which runs it only when no thread of the usual
/// policy wants the processor, and a raised nice value too (where the
/// policy cannot be set, it still yields most of a core). A nice value
/// alone left a person's p99 at 3 to 5 times its quiet figure under the
/// benchmark's computer and golf attacks on two cores: a woken request
/// waited for the niced thread's time slice to end, where an idle-policy
/// thread is preempted at once. On Linux both belong to each thread, and
/// anyone may lower the priority of their own threads; if it fails, or
/// off Linux, or after [`keep_usual_priority`], the work runs at the usual
/// priority.
fn lower_priority_of(tid: u64) {
    #[cfg(target_os = "linux")]
    if tid != 0 && !AT_USUAL_PRIORITY.load(Ordering::Relaxed) {
        let idle = libc::sched_param { sched_priority: 0 };
        // The niceness is raised from the thread's own (a server started
        // under `nice` keeps its background work below its requests).
        // SAFETY: getpriority and setpriority read only their integer
        // arguments, and sched_setscheduler reads the parameter it is given.
        unsafe {
            let own = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
            let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, (own + NICENESS).min(19));
            let _ = libc::sched_setscheduler(tid as libc::pid_t, libc::SCHED_IDLE, &idle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The niceness of the thread that calls it.
    fn niceness() -> i32 {
        // SAFETY: getpriority reads only its integer arguments.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, this_thread_id() as libc::id_t) }
    }

    #[tokio::test]
    async fn background_work_runs_at_a_lower_priority_and_returns_its_result() {
        let here = niceness();
        let there = run(niceness).await.unwrap();
        assert_eq!(there, (here + NICENESS).min(19), "the thread ran {NICENESS} lower");
        // SAFETY: sched_getscheduler reads only its integer argument.
        let policy = run(|| unsafe { libc::sched_getscheduler(0) }).await.unwrap();
        assert_eq!(policy, libc::SCHED_IDLE, "and behind every request");
        assert!(run(|| -> u8 { panic!("a player failed") }).await.unwrap_err().contains("panicked"));
    }

    #[tokio::test]
    async fn background_work_steps_aside_once_its_period_has_passed_and_requests_never_do() {
        let stepped_aside = run(|| {
            std::thread::sleep(STEP_ASIDE_EVERY);
            chesskit_core::pace::breathe()
        })
        .await
        .unwrap();
        assert!(stepped_aside, "a long search pauses now and then");
        std::thread::sleep(STEP_ASIDE_EVERY);
        assert!(!chesskit_core::pace::breathe(), "a request's thread never pauses");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_action_keeps_its_priority_unless_it_outlasts_the_grace() {
        let here = niceness();
        let quick = run_demoted_after(std::time::Duration::from_secs(60), niceness).await.unwrap();
        assert_eq!(quick, here, "a quick action keeps the usual priority");
        // The work outlasts its grace of 1 ms: it looks (a bounded number of
        // times) until its priority drops, and reports the niceness it ended at.
        let slow = run_demoted_after(std::time::Duration::from_millis(1), move || {
            for _ in 0..100_000_000 {
                if niceness() != here {
                    break;
                }
                std::thread::yield_now();
            }
            niceness()
        });
        let waiter = tokio::spawn(slow);
        assert_eq!(waiter.await.unwrap().unwrap(), (here + NICENESS).min(19), "a long action was demoted");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_action_is_demoted_by_the_processor_time_it_used_not_by_the_time_it_waited() {
        let here = niceness();
        // The work waits (as an ordinary action does for a core on a busy
        // machine) twenty times its grace, using no processor meanwhile.
        let (release, released) = std::sync::mpsc::channel::<()>();
        let waiting = tokio::spawn(run_demoted_after(std::time::Duration::from_millis(1), move || {
            let _ = released.recv();
            niceness()
        }));
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        release.send(()).unwrap();
        assert_eq!(waiting.await.unwrap().unwrap(), here, "an action that only waited keeps its priority");
    }
}
