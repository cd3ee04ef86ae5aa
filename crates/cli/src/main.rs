//! The `chesskit` command: every user-facing tool.

use std::path::PathBuf;
use std::process::ExitCode;

use chesskit_server::Limits;
use clap::{Parser, Subcommand};

/// mimalloc instead of the system allocator: the search clones games and
/// the server builds JSON for every action, both allocation-heavy, and the
/// system allocator spent about a fifth of the server's time under load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cards;
mod chess960;
mod golf;
mod perft;
mod play;
mod referee;
mod render;
mod selfplay;
mod solve;
mod uci;

#[derive(Parser, Debug)]
#[command(name = "chesskit", version, about = "The referee and playground for Don Kirkby's Chess Kit games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the browser client and its API on localhost, or your network with --host (SQLite store, no set-up).
    Serve {
        /// The address to listen on. 127.0.0.1 is this computer only; 0.0.0.0
        /// (every interface) lets friends on your network join. Then seat
        /// tokens are the only protection, and there is no TLS: use a network you trust.
        #[arg(long, value_name = "ADDR", default_value_t = chesskit_server::DEFAULT_HOST)]
        host: std::net::IpAddr,
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The SQLite file, or a PostgreSQL URL (postgres://user:password@host/db)
        /// shared by several servers (docs/deploy.md).
        #[arg(long, default_value = "chesskit.db")]
        db: PathBuf,
        /// With PostgreSQL: the URL at which the other servers reach this one
        /// (http://host:port) [default: the address it listens on]
        #[arg(long, value_name = "URL")]
        advertise: Option<String>,
        /// The built browser client [default: $CHESSKIT_WEB, else web/dist]
        #[arg(long, value_name = "DIR")]
        web: Option<PathBuf>,
        /// How long computer players wait before each move in a game with
        /// no person seated, so that you can watch them; 0 plays at full speed.
        #[arg(long, value_name = "MS", default_value_t = 700)]
        computer_pace_ms: u64,
        /// Let computers think, and connections be accepted, at the usual
        /// priority instead of behind every request: for test suites on a
        /// machine kept busy by other work, never for people (docs/deploy.md).
        #[arg(long)]
        background_at_usual_priority: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Play a game in the terminal against people at this keyboard or the computer.
    Play {
        /// The variant, e.g. chess, chess960, zombie (see `chesskit variants`).
        variant: String,
        /// Who sits in each seat, e.g. `human,computer` or `human,human`
        /// (computer:LEVEL picks level1 to level8; plain `computer` is level4). Default: you in seat 0, the computer elsewhere.
        #[arg(long)]
        seats: Option<String>,
        /// The seed of every shuffle and random setup.
        #[arg(long)]
        seed: Option<u64>,
        /// A game option as key=value (repeatable), e.g. --option zombie_turn=true.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// Start from this text position (FEN plus the game's extra lines) instead.
        #[arg(long)]
        position: Option<String>,
    },
    /// List the games chesskit referees.
    Variants,
    /// Serve the JSON line protocol for programs on stdin/stdout (docs/protocol.md).
    Referee,
    /// Count the move tree of a position (the standard move-generator test).
    Perft {
        /// The position as FEN, X-FEN or Shredder-FEN.
        #[arg(long)]
        fen: String,
        #[arg(long)]
        depth: u32,
        /// Show the count under each legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Show a Chess960 starting position: by number, at random, or from cards.
    #[command(group(clap::ArgGroup::new("choice").args(["id", "random", "cards"])))]
    Chess960 {
        /// The position number, 0 to 959 (518 is the orthodox start).
        #[arg(long)]
        id: Option<u32>,
        /// A random position (the default), from --seed if given.
        #[arg(long)]
        random: bool,
        /// The seed of a random position (implies --random).
        #[arg(long, conflicts_with_all = ["id", "cards"])]
        seed: Option<u64>,
        /// Eight cards: the two bishop squares (A or 1-8), then six pieces
        /// (8 or N, 10 or R, Q), e.g. "1 6 N R Q R N R" or "ah 6d 8s 10c qh 10d 8h 10s".
        #[arg(long)]
        cards: Option<String>,
    },
    /// Play many games between computer players and report who wins, why, and how long games last.
    Selfplay {
        variant: String,
        /// The players by level, one per seat (or one per team), e.g.
        /// `level4,random`; they take turns in the seats between games.
        /// Levels: random (= level1), level2 greedy, level3 Monte Carlo,
        /// level4 to level8 search with more time each (level8 about 1 s a
        /// decision). Here a search level's time is CPU time, so results do
        /// not depend on how busy the machine is. A search level may be
        /// changed after a dash, to measure the engine:
        /// `level6-no-TECHNIQUE` plays without one search technique
        /// (killers, aspiration, lmr, null, checks, futility, partial, kept,
        /// alike, see, prune; `no-all` without any), `level6-with-TECHNIQUE` with
        /// one the levels leave out (they use lmr, aspiration, checks, null,
        /// alike, see and prune: killers, futility, partial and kept were not
        /// shown to win), `level6-nodes20000` searches 20,000 nodes a decision
        /// instead of the level's time, and `level8-worlds3` draws 3 worlds
        /// instead of the level's number where something is hidden; changes
        /// combine (`level6-nodes20000-with-killers`).
        /// Default: random in every seat.
        #[arg(long)]
        players: Option<String>,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop a game after this many actions and count it as unfinished.
        #[arg(long, default_value_t = 1000)]
        max_actions: usize,
        /// Play this many actions at random before the players take over,
        /// one opening for each round of games that seats every player in
        /// every seat once (players on a node budget would otherwise play
        /// the same game in every round).
        #[arg(long, default_value_t = 0)]
        random_opening: usize,
        /// A game option as key=value (repeatable). Give one option
        /// several times to compare its values side by side.
        #[arg(long = "option", value_name = "KEY=VALUE")]
        options: Vec<String>,
        /// After the table, print a JSON summary on the last line.
        #[arg(long)]
        json: bool,
    },
    /// The Appendix A card deck: which card is which piece, and seeded deals.
    Cards {
        /// Shuffle and deal instead of showing the table.
        #[arg(long)]
        deal: bool,
        /// How many cards to deal (default: the whole deck).
        #[arg(long, requires = "deal")]
        count: Option<usize>,
        #[arg(long, value_enum, default_value = "pieces", requires = "deal")]
        deck: cards::DeckKind,
        #[arg(long, requires = "deal")]
        seed: Option<u64>,
    },
    /// The best score for a deal of a solitaire (parade, neighbour): proven
    /// where the search allows, else the best found in --seconds.
    Solve(solve::SolveArgs),
    /// Chess Golf: solve, check and deal puzzles, and designer statistics.
    #[command(subcommand)]
    Golf(golf::GolfCommand),
    /// The computer as a UCI engine for chess and Chess960 (UCI_Chess960),
    /// for chess GUIs and match runners: go movetime / wtime / depth /
    /// nodes / infinite, stop.
    Uci,
}

/// "1 seat", "4 seats".
fn seat_count(seats: usize) -> String {
    if seats == 1 {
        "1 seat".to_string()
    } else {
        format!("{seats} seats")
    }
}

fn random_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// What one client may ask of `chesskit serve` (docs/deploy.md); the
/// defaults never bother a person playing.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits per client")]
struct LimitArgs {
    /// New games one client address may create a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().games_created.count)]
    games_per_minute: u32,
    /// Moves and other actions one seat may send a second.
    #[arg(long, value_name = "N", default_value_t = Limits::default().actions[0].count)]
    actions_per_second: u32,
    /// Moves and other actions one seat may send a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().actions[1].count)]
    actions_per_minute: u32,
    /// Chat lines one seat may send a second.
    #[arg(long, value_name = "N", default_value_t = Limits::default().chat[0].count)]
    chat_per_second: u32,
    /// Chat lines one seat may send a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().chat[1].count)]
    chat_per_minute: u32,
    /// Connections one client address may hold open.
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections_per_address)]
    connections_per_address: usize,
    /// Connections the server holds open in all (keep it under `ulimit -n`).
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections)]
    max_connections: usize,
    /// Seconds a client may take to send a request's headers, or leave a
    /// kept-alive connection idle.
    #[arg(long, value_name = "S", default_value_t = Limits::default().header_timeout.as_secs())]
    header_timeout: u64,
    /// Milliseconds a request refused with 429 waits for its answer, its
    /// connection held: a client that keeps asking past a limit is slowed.
    #[arg(long, value_name = "MS", default_value_t = Limits::default().refusal_delay.as_millis() as u64)]
    refusal_delay_ms: u64,
    /// Seconds a WebSocket may stay silent before it is closed (pinged at a third of it).
    #[arg(long, value_name = "S", default_value_t = Limits::default().socket_idle.as_secs())]
    socket_idle: u64,
    /// Games between computers only that play at once; the others wait.
    #[arg(long, value_name = "N", default_value_t = Limits::default().computer_games)]
    computer_games: usize,
    /// Computer players thinking at once, in all games [default: the cores less one]
    #[arg(long, value_name = "N")]
    thinkers: Option<usize>,
    /// Seconds a game may go unused before it leaves memory (it is read
    /// back from the database when next asked for).
    #[arg(long, value_name = "S", default_value_t = Limits::default().idle_game.as_secs())]
    idle_game_seconds: u64,
    /// Analyses of finished games' deals one client address may have
    /// searched a minute (an answer already kept is free).
    #[arg(long, value_name = "N", default_value_t = Limits::default().analyses.count)]
    analyses_per_minute: u32,
    /// The most nodes the analysis of one deal searches (about 7 million
    /// a second on one core).
    #[arg(long, value_name = "N", default_value_t = Limits::default().analysis_nodes)]
    analysis_nodes: u64,
    /// Seats of open challenges one client address may take a minute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().seats_taken.count)]
    seats_taken_per_minute: u32,
    /// Minutes an open challenge stays in the lobby waiting for players.
    #[arg(long, value_name = "M", default_value_t = Limits::default().challenge_wait.as_secs() / 60)]
    challenge_wait_minutes: u64,
    /// Behind a reverse proxy on this computer: read the client's address
    /// from the X-Forwarded-For header it adds (docs/deploy.md).
    #[arg(long)]
    trust_proxy: bool,
}

impl LimitArgs {
    fn into_limits(self) -> Limits {
        use chesskit_server::Rate;
        use std::time::Duration;
        // A rate of 0 would refuse everything: at least one is always allowed.
        Limits {
            games_created: Rate::per_minute(self.games_per_minute.max(1)),
            actions: [
                Rate::per_second(self.actions_per_second.max(1)),
                Rate::per_minute(self.actions_per_minute.max(1)),
            ],
            chat: [Rate::per_second(self.chat_per_second.max(1)), Rate::per_minute(self.chat_per_minute.max(1))],
            connections_per_address: self.connections_per_address.max(1),
            connections: self.max_connections.max(1),
            header_timeout: Duration::from_secs(self.header_timeout.max(1)),
            refusal_delay: Duration::from_millis(self.refusal_delay_ms),
            socket_idle: Duration::from_secs(self.socket_idle.max(3)),
            computer_games: self.computer_games,
            thinkers: self.thinkers.unwrap_or(Limits::default().thinkers).max(1),
            idle_game: Duration::from_secs(self.idle_game_seconds.max(1)),
            trust_proxy: self.trust_proxy,
            analyses: Rate::per_minute(self.analyses_per_minute.max(1)),
            analysis_nodes: self.analysis_nodes,
            seats_taken: Rate::per_minute(self.seats_taken_per_minute.max(1)),
            challenge_wait: Duration::from_secs(self.challenge_wait_minutes.max(1) * 60),
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Serve { host, port, db, advertise, web, computer_pace_ms, background_at_usual_priority, limits } => {
            let computer_pace = std::time::Duration::from_millis(computer_pace_ms);
            let limits = limits.into_limits();
            chesskit_server::serve(chesskit_server::ServeConfig {
                host,
                port,
                db,
                advertise,
                web,
                computer_pace,
                limits,
                background_at_usual_priority,
            })
        }
        Command::Play { variant, seats, seed, options, position } => {
            let seed = seed.unwrap_or_else(random_seed);
            let options = play::parse_options(&options)?;
            let info = chesskit_games::variant(&variant).map_err(|e| e.0)?;
            let game = chesskit_games::create(&variant, options, seed, position.as_deref()).map_err(|e| e.0)?;
            let seats = play::parse_seats(seats.as_deref(), game.seats().len(), seed)?;
            let game = play::Play { game, seats, hidden_information: info.hidden_information };
            match game.run(&mut std::io::stdin().lock(), &mut std::io::stdout().lock()) {
                Err(quit) if quit == "quit" => Ok(()),
                other => other,
            }
        }
        Command::Variants => {
            for v in chesskit_games::variants() {
                let tag = if v.experimental { " (experimental)" } else { "" };
                println!("{:<18} {}{tag}: {} ({})", v.name, v.title, seat_count(v.seats.len()), v.seats.join(", "));
            }
            Ok(())
        }
        Command::Referee => referee::serve(),
        Command::Perft { fen, depth, divide } => perft::run(&fen, depth, divide).map(|out| print!("{out}")),
        Command::Chess960 { id, random: _, seed, cards } => {
            let choice = match (id, cards) {
                (Some(n), _) => chess960::Choice::Id(n),
                (None, Some(cards)) => chess960::Choice::Cards(cards),
                (None, None) => chess960::Choice::Random(seed.unwrap_or_else(random_seed)),
            };
            chess960::run(choice).map(|out| print!("{out}"))
        }
        Command::Selfplay { variant, players, games, seed, max_actions, random_opening, options, json } => {
            selfplay::run(selfplay::Request {
                variant,
                players,
                games,
                seed,
                max_actions,
                random_opening,
                options,
                json,
            })
        }
        Command::Cards { deal, count, deck, seed } => {
            if deal {
                print!("{}", cards::deal(deck, seed.unwrap_or_else(random_seed), count)?);
            } else {
                print!("{}", cards::table());
            }
            Ok(())
        }
        Command::Golf(command) => golf::run(command),
        Command::Uci => uci::run(),
        Command::Solve(args) => solve::run(args),
    }
}

/// Printing commands end quietly when their reader goes away, as Unix tools
/// do (`chesskit golf stats | head -3`), instead of panicking in `println!`.
/// The server keeps Rust's default (SIGPIPE ignored), so a vanished client is
/// an error on one connection, never the end of the process.
#[cfg(unix)]
fn end_quietly_on_broken_pipe() {
    // SAFETY: restoring the default disposition of one signal at start-up,
    // before any other thread exists; no handler of ours is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_on_broken_pipe() {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve { .. }) {
        end_quietly_on_broken_pipe();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("chesskit: {message}");
            ExitCode::FAILURE
        }
    }
}
