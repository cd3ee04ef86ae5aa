//! chesskit-server: the HTTP + WebSocket server (issue 5).

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub port: u16,
    pub db: std::path::PathBuf,
}

/// Run the server until it is stopped.
pub fn serve(config: ServeConfig) -> Result<(), String> {
    Err(format!("the server is not built yet (port {}, db {})", config.port, config.db.display()))
}
