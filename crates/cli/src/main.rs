//! The `chesskit` command: every user-facing tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod golf;

#[derive(Parser, Debug)]
#[command(name = "chesskit", version, about = "The referee and playground for Don Kirkby's Chess Kit games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the browser client and its API on localhost (SQLite store, no set-up).
    Serve {
        #[arg(long, default_value_t = 8080)]
        port: u16,
        #[arg(long, default_value = "chesskit.db")]
        db: PathBuf,
        /// The built browser client [default: $CHESSKIT_WEB, else web/dist]
        #[arg(long, value_name = "DIR")]
        web: Option<PathBuf>,
    },
    /// Chess Golf: solve, check and deal puzzles, and designer statistics.
    #[command(subcommand)]
    Golf(golf::GolfCommand),
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve { port, db, web } => chesskit_server::serve(chesskit_server::ServeConfig { port, db, web }),
        Command::Golf(command) => golf::run(command),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("chesskit: {message}");
            ExitCode::FAILURE
        }
    }
}
