//! The accept loop: every connection is counted against its client
//! address and against the server's whole allowance, and is closed when
//! it is slow to send a request's headers or sits idle between requests,
//! so that half-open connections cannot pile up until the server runs out
//! of file descriptors (see [`crate::limits::Limits`]). Refusals cost the
//! people playing as little as they can: connections are accepted (or
//! turned away) on a thread behind every request, and a 429 is answered
//! late, so that a client flooding a limit asks a few times a second.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::ErrorKind;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::{oneshot, watch};
use tower::ServiceExt;

use crate::limits::Limits;

/// The open connections, in all and per client address.
#[derive(Default)]
pub struct Connections {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One admitted connection; it stops counting when the last clone drops
/// (a WebSocket keeps a clone for as long as it lives).
pub struct Permit {
    connections: Arc<Connections>,
    address: IpAddr,
}

/// Why a connection was turned away.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// This address has as many open as it may.
    TooManyFromAddress(usize),
    /// The server has as many open as it may.
    Full(usize),
}

impl Connections {
    /// Count a new connection from `address`, or say why not. A proxy's
    /// connections (`exempt`) count only against the whole allowance.
    pub fn admit(self: &Arc<Self>, address: IpAddr, limits: &Limits, exempt: bool) -> Result<Permit, Refusal> {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (total, per_address) = &mut *open;
        if *total >= limits.connections {
            return Err(Refusal::Full(limits.connections));
        }
        let mine = per_address.entry(address).or_insert(0);
        if !exempt && *mine >= limits.connections_per_address {
            return Err(Refusal::TooManyFromAddress(limits.connections_per_address));
        }
        *mine += 1;
        *total += 1;
        Ok(Permit { connections: self.clone(), address })
    }

    /// Open connections in all.
    pub fn total(&self) -> usize {
        self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).0
    }

    /// Open connections: in all, and from `address`.
    #[cfg(test)]
    pub fn open(&self, address: IpAddr) -> (usize, usize) {
        let open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        (open.0, open.1.get(&address).copied().unwrap_or(0))
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut open = self.connections.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (total, per_address) = &mut *open;
        *total -= 1;
        if let Some(mine) = per_address.get_mut(&self.address) {
            *mine -= 1;
            if *mine == 0 {
                per_address.remove(&self.address);
            }
        }
    }
}

/// The short answer written to a connection that is turned away, before
/// it is closed: no request of it is read.
fn refusal_response(refusal: &Refusal) -> String {
    let (status, body, retry) = match refusal {
        Refusal::TooManyFromAddress(n) => {
            ("429 Too Many Requests", format!("too many connections: at most {n} from one address"), 10)
        }
        Refusal::Full(n) => ("503 Service Unavailable", format!("the server is full ({n} connections)"), 10),
    };
    let body = serde_json::json!({ "error": body }).to_string();
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: {retry}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Descriptors the server keeps for itself beyond its connections: the
/// database's files or connections, the forwards to other servers, the
/// listening socket, standard streams, with room to spare.
const RESERVED_DESCRIPTORS: u64 = 128;

/// Raise this process's soft limit on open files to its hard limit, and
/// lower `limits.connections` to what the limit can hold: past it,
/// `accept` fails with EMFILE and the server would refuse connections in
/// the kernel's own words. What it did, for the operator, when the cap
/// had to come down.
pub fn fit_connections_to_open_files(limits: &mut Limits) -> Option<String> {
    let open_files = raise_open_files_limit()?;
    let fitted = connections_within(open_files, limits.connections);
    (fitted < limits.connections).then(|| {
        let note = format!(
            "chesskit: at most {fitted} connections, not {}: this process may open {open_files} files \
             (raise `ulimit -n` for more)",
            limits.connections
        );
        limits.connections = fitted;
        note
    })
}

/// The connections `open_files` descriptors can hold beside the server's
/// own, at most `wanted` and at least a few.
fn connections_within(open_files: u64, wanted: usize) -> usize {
    let room = open_files.saturating_sub(RESERVED_DESCRIPTORS).max(16);
    wanted.min(usize::try_from(room).unwrap_or(usize::MAX))
}

/// The soft limit on open files after raising it to the hard limit (None
/// off Unix, or if it cannot be read).
fn raise_open_files_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit and setrlimit read and write only the struct given.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        Some(limit.rlim_cur)
    }
    #[cfg(not(unix))]
    None
}

/// Serve `app` on `listener` until `shutdown` resolves; then stop
/// accepting, let each connection finish the request it is in (for at most
/// a few seconds) and return. Connections are accepted (or refused) on a
/// thread of their own behind every request (see [`accept_behind_requests`])
/// and served on the caller's runtime.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let connections = Arc::new(Connections::default());
    let (stop, stopping) = watch::channel(false);
    let accepting = Acceptor { connections: connections.clone(), app, limits, requests: Handle::current(), stopping };
    let mut accepted_all = accept_behind_requests(listener, accepting)?;
    tokio::select! {
        () = shutdown => {}
        // The accept thread stops by itself only if it failed.
        stopped = &mut accepted_all => return stopped.unwrap_or_else(|_| Err(std::io::Error::other("the accept thread failed"))),
    }
    let _ = stop.send(true);
    let _ = accepted_all.await;
    // Connections finishing their requests hold permits; give them a moment.
    for _ in 0..50 {
        if connections.total() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

/// What the accept loop needs: where connections are counted, what serves
/// them, and on which runtime.
struct Acceptor {
    connections: Arc<Connections>,
    app: Router,
    limits: Limits,
    /// The runtime that serves admitted connections (the caller's).
    requests: Handle,
    stopping: watch::Receiver<bool>,
}

/// Accept on a thread of its own, with a runtime of its own, at the
/// priority of background work: the operating system runs it only when
/// no request wants the processor. A flood of new connections (thousands
/// a second, nearly all refused at the per-address cap) then uses only the
/// time people's requests leave idle: accepted on the request threads,
/// such a flood put each refusal's accept, reply and close between a
/// person's request and its answer (p99 3.3 times its quiet figure in the
/// attack bench's slowloris run). Resolves when the thread has stopped,
/// after `stopping` turns true, with the listener closed.
fn accept_behind_requests(
    listener: TcpListener,
    acceptor: Acceptor,
) -> std::io::Result<oneshot::Receiver<std::io::Result<()>>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let listener = listener.into_std()?;
    let listener = {
        let _inside = runtime.enter();
        TcpListener::from_std(listener)?
    };
    let (done, stopped) = oneshot::channel();
    std::thread::Builder::new().name("chesskit-accept".to_string()).spawn(move || {
        crate::background::lower_this_threads_priority();
        let _ = done.send(runtime.block_on(accept_until_stopped(listener, acceptor)));
    })?;
    Ok(stopped)
}

/// The accept loop: each connection admitted is served on the request
/// runtime; one turned away gets its refusal and is closed at once.
async fn accept_until_stopped(listener: TcpListener, mut acceptor: Acceptor) -> std::io::Result<()> {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = acceptor.stopping.wait_for(|stop| *stop) => return Ok(()),
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            // Out of descriptors (or memory): wait for connections to close.
            Err(e) if is_resource_shortage(&e) => {
                eprintln!("chesskit: cannot accept a connection: {e}; waiting 100 ms");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            // The peer gave up before we took the connection.
            Err(_) => continue,
        };
        // A flood keeps this thread busy: it steps aside now and then, so
        // that a request woken meanwhile runs at once (see chesskit_core::pace).
        chesskit_core::pace::breathe();
        let exempt = acceptor.limits.trust_proxy && peer.ip().is_loopback();
        match acceptor.connections.admit(peer.ip(), &acceptor.limits, exempt) {
            Ok(permit) => acceptor.serve_elsewhere(stream, peer, permit),
            Err(refusal) => {
                // Best effort, never waiting on the client: it is closed either way.
                let _ = stream.try_write(refusal_response(&refusal).as_bytes());
            }
        }
    }
}

impl Acceptor {
    /// Hand an admitted connection to the request runtime: it leaves this
    /// thread's reactor and joins that runtime's.
    fn serve_elsewhere(&self, stream: TcpStream, peer: SocketAddr, permit: Permit) {
        let Ok(stream) = stream.into_std() else { return };
        let connection = Connection {
            app: self.app.clone(),
            header_timeout: self.limits.header_timeout,
            refusal_delay: self.limits.refusal_delay,
            permit: Arc::new(permit),
        };
        let stopping = self.stopping.clone();
        self.requests.spawn(async move {
            if let Ok(stream) = TcpStream::from_std(stream) {
                connection.serve(stream, peer, stopping).await;
            }
        });
    }
}

fn is_resource_shortage(error: &std::io::Error) -> bool {
    // EMFILE (24) and ENFILE (23): too many open files; ENOBUFS, ENOMEM.
    matches!(error.raw_os_error(), Some(23 | 24 | 105 | 12)) || error.kind() == ErrorKind::OutOfMemory
}

/// One admitted connection, and how it is served.
struct Connection {
    app: Router,
    header_timeout: Duration,
    refusal_delay: Duration,
    permit: Arc<Permit>,
}

impl Connection {
    /// HTTP/1.1 with upgrades (the WebSockets), each request told its
    /// client's address and carrying the connection's permit.
    async fn serve(self, stream: TcpStream, peer: SocketAddr, mut stopping: watch::Receiver<bool>) {
        let _ = stream.set_nodelay(true);
        let Connection { app, header_timeout, refusal_delay, permit } = self;
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(permit.clone());
            answer(app.clone(), request.map(Body::new), refusal_delay)
        });
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            // Counts from the connection's start and, between requests, from the
            // end of the last response: a slow or silent client is cut off.
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        tokio::pin!(connection);
        tokio::select! {
            _ = &mut connection => return,
            _ = stopping.wait_for(|stop| *stop) => connection.as_mut().graceful_shutdown(),
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), connection).await;
    }
}

/// The app's answer to `request`, a 429 held back for `refusal_delay`
/// first (see [`Limits::refusal_delay`]): the connection reads no next
/// request meanwhile, so a client that keeps asking past a limit costs
/// the server a few requests a second per connection, and its connections
/// stay counted against its address's cap while they wait.
async fn answer(app: Router, request: Request<Body>, refusal_delay: Duration) -> Result<Response, Infallible> {
    let response = app.oneshot(request).await?;
    if response.status() == StatusCode::TOO_MANY_REQUESTS {
        tokio::time::sleep(refusal_delay).await;
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[test]
    fn connections_are_counted_per_address_and_in_all_until_their_permits_drop() {
        let connections = Arc::new(Connections::default());
        let limits = Limits { connections_per_address: 2, connections: 3, ..Limits::default() };
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = connections.admit(a, &limits, false).unwrap();
        let second = connections.admit(a, &limits, false).unwrap();
        assert_eq!(connections.admit(a, &limits, false).err(), Some(Refusal::TooManyFromAddress(2)));
        let third = connections.admit(b, &limits, false).unwrap();
        assert_eq!(connections.admit(b, &limits, false).err(), Some(Refusal::Full(3)));
        drop(first);
        assert_eq!(connections.open(a), (2, 1));
        let again = connections.admit(a, &limits, false).unwrap();
        drop((second, third, again));
        assert_eq!(connections.open(a), (0, 0));
        assert!(connections.open.lock().unwrap().1.is_empty(), "addresses with nothing open are forgotten");
    }

    #[test]
    fn a_trusted_proxy_counts_only_against_the_whole_allowance() {
        let connections = Arc::new(Connections::default());
        let limits = Limits { connections_per_address: 1, connections: 3, ..Limits::default() };
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let permits: Vec<_> = (0..3).map(|_| connections.admit(proxy, &limits, true).unwrap()).collect();
        assert_eq!(connections.admit(proxy, &limits, true).err(), Some(Refusal::Full(3)));
        drop(permits);
    }

    #[test]
    fn the_connection_cap_fits_under_the_open_files_limit() {
        assert_eq!(connections_within(1024, 4096), 1024 - 128, "the default cap on a default `ulimit -n`");
        assert_eq!(connections_within(1_048_576, 4096), 4096, "a high limit keeps the cap asked for");
        assert_eq!(connections_within(100, 4096), 16, "a tiny limit still lets a few in");
    }

    #[test]
    fn raising_the_open_files_limit_leaves_room_for_the_default_cap() {
        let mut limits = Limits::default();
        let note = fit_connections_to_open_files(&mut limits);
        let open_files = raise_open_files_limit().expect("a Unix process has a limit");
        assert!(limits.connections as u64 + RESERVED_DESCRIPTORS <= open_files.max(16 + RESERVED_DESCRIPTORS));
        assert_eq!(note.is_some(), limits.connections < Limits::default().connections, "{note:?}");
    }

    /// The scheduling policy of each thread of this process named `name`.
    fn policies_of_threads_named(name: &str) -> Vec<i32> {
        let tasks = std::fs::read_dir("/proc/self/task").unwrap();
        let named = tasks
            .flatten()
            .filter(|task| std::fs::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim_end() == name));
        let tids = named.filter_map(|task| task.file_name().to_str()?.parse::<libc::pid_t>().ok());
        // SAFETY: sched_getscheduler reads only its integer argument.
        tids.map(|tid| unsafe { libc::sched_getscheduler(tid) }).collect()
    }

    #[tokio::test]
    async fn connections_are_accepted_on_a_thread_behind_every_request() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let app = Router::new().route("/", axum::routing::get(|| async { "served" }));
        let server = tokio::spawn(serve(listener, app, Limits::default(), async move {
            let _ = stopped.await;
        }));
        let mut stream = TcpStream::connect(address).await.unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        assert!(reply.starts_with("HTTP/1.1 200") && reply.ends_with("served"), "{reply}");
        let policies = policies_of_threads_named("chesskit-accept");
        assert!(!policies.is_empty(), "an accept thread of its own");
        assert!(policies.iter().all(|&p| p == libc::SCHED_IDLE), "run only when no request runs: {policies:?}");
        stop.send(()).unwrap();
        server.await.unwrap().unwrap();
        assert!(TcpStream::connect(address).await.is_err(), "once stopped, the listener is closed");
    }

    #[test]
    fn a_refusal_is_a_whole_http_response_that_says_why() {
        let text = refusal_response(&Refusal::TooManyFromAddress(64));
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 429 "), "{head}");
        assert!(head.contains("Retry-After: 10"), "{head}");
        assert!(head.contains(&format!("Content-Length: {}", body.len())), "{head}");
        assert!(body.contains("at most 64 from one address"), "{body}");
    }
}
