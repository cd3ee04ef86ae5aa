//! The accept loop: every connection is counted against its client
//! address and against the server's whole allowance, and is closed when
//! it is slow to send a request's headers or sits idle between requests,
//! so that half-open connections cannot pile up until the server runs out
//! of file descriptors (see [`crate::limits::Limits`]).

use std::collections::HashMap;
use std::io::ErrorKind;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
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
/// a few seconds) and return.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let connections = Arc::new(Connections::default());
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
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
        let exempt = limits.trust_proxy && peer.ip().is_loopback();
        match connections.admit(peer.ip(), &limits, exempt) {
            Ok(permit) => {
                let connection = serve_connection(
                    stream,
                    peer,
                    app.clone(),
                    limits.header_timeout,
                    Arc::new(permit),
                    stopping.clone(),
                );
                tokio::spawn(connection);
            }
            Err(refusal) => {
                // Best effort, never waiting on the client: it is closed either way.
                let _ = stream.try_write(refusal_response(&refusal).as_bytes());
            }
        }
    }
    let _ = stop.send(true);
    // Connections finishing their requests hold permits; give them a moment.
    for _ in 0..50 {
        if connections.total() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(())
}

fn is_resource_shortage(error: &std::io::Error) -> bool {
    // EMFILE (24) and ENFILE (23): too many open files; ENOBUFS, ENOMEM.
    matches!(error.raw_os_error(), Some(23 | 24 | 105 | 12)) || error.kind() == ErrorKind::OutOfMemory
}

/// One connection: HTTP/1.1 with upgrades (the WebSockets), each request
/// told its client's address and carrying the connection's permit.
async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    permit: Arc<Permit>,
    mut stopping: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(permit.clone());
        app.clone().oneshot(request.map(Body::new))
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

#[cfg(test)]
mod tests {
    use super::*;

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
