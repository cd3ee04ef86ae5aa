//! What the server benchmarks share: the server on its own threads, and a
//! client's keep-alive HTTP connection and WebSocket.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use chesskit_server::store::Database;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::Request;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The allocator of the `chesskit` binary (crates/cli/src/main.rs), so the
/// server measured here is the server that ships.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;
pub type Http = SendRequest<Full<Bytes>>;

/// The server in its own runtime on its own threads, as `chesskit serve` runs it.
pub fn start_server(
    db: Database,
    web: PathBuf,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>) {
    let (address_tx, address_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a server runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
            let address = listener.local_addr().expect("an address");
            let advertise = format!("http://{address}");
            // One address plays every game here: the per-client limits are lifted.
            let state = chesskit_server::AppState::open_database(&db, web, Duration::ZERO, &advertise)
                .await
                .expect("the server opens its database")
                .with_limits(chesskit_server::Limits::default().lifted());
            address_tx.send(address).expect("the benchmark waits");
            let stopped = async {
                let _ = stopped.await;
            };
            let _ = chesskit_server::serve_listener(listener, state, stopped).await;
        });
        runtime.shutdown_timeout(Duration::from_secs(1));
    });
    (address_rx.recv().expect("the server starts"), stop, thread)
}

pub async fn http_connect(address: SocketAddr) -> Result<Http, String> {
    let stream = TcpStream::connect(address).await.map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    Ok(sender)
}

pub async fn post(http: &mut Http, path: &str, body: String) -> Result<(u16, Bytes), String> {
    let request = Request::post(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    http.ready().await.map_err(|e| e.to_string())?;
    let response = http.send_request(request).await.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    Ok((status, body))
}

/// A WebSocket to `url`, with a small read buffer: tungstenite zeroes its
/// whole read buffer (128 KiB by default) on every read.
pub async fn ws_connect(url: String) -> Result<Socket, String> {
    let config = WebSocketConfig::default().read_buffer_size(16 * 1024);
    let (socket, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(config), true).await.map_err(|e| format!("ws: {e}"))?;
    Ok(socket)
}

/// Raise this process's soft limit on open files to its hard limit and
/// return the limit now in force: every connection costs a descriptor at
/// each end, and both ends live in this process.
pub fn raise_open_files_limit() -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 0;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    limit.rlim_cur
}

/// The reply to creating a game: its id and each seat's token.
#[derive(serde::Deserialize)]
pub struct Created {
    pub id: String,
    pub seats: Vec<CreatedSeat>,
}

#[derive(serde::Deserialize)]
pub struct CreatedSeat {
    pub token: String,
}
