//! The capacity bench: a crowd of chess players at a person's pace on
//! several `chesskit serve` processes sharing one database, every process
//! apart (docs/deploy.md, "Capacity").
//!
//!     cargo bench -p chesskit --bench capacity -- --help
//!     cargo bench -p chesskit --bench capacity -- --games 100 --ramp 10 --seconds 20
//!     cargo bench -p chesskit --bench capacity -- --games 10000 --ramp 60 --seconds 90
//!     cargo bench -p chesskit --bench capacity -- --games 2000 --ramp 10 --seconds 30 \
//!         --think-ms 2000-6000,1000-3000,500-1500,250-750 --until-saturated
//!
//! What runs, each in its own process:
//! - PostgreSQL, a throwaway cluster with fsync on (as shipped), started as
//!   the server tests start theirs (crates/server/tests/it/common/postgres.rs),
//!   or the one `--db URL` names; or with `--store sqlite` a fresh SQLite
//!   file and one server (a SQLite file has one server);
//! - `--servers` copies of the release `chesskit serve` this package builds;
//! - `--generators` load generators: this bench again with `--generator`.
//!
//! A generator plays its share of the games. Each game has two human seats,
//! two players, each on a server of its own drawn at random (a load
//! balancer without stickiness), each with a keep-alive HTTP connection:
//! seat 0's player creates the game (so its server owns it) and the other
//! player's actions may be forwarded. The games start one by one over the
//! ramp-up, and each player, when its turn comes, thinks for a time drawn
//! uniformly from `--think-ms` and then acts: a random legal move, chosen
//! from a copy of the game the generator keeps itself (so that knowing the
//! position costs the servers nothing). Players of `--ws-percent` of the
//! games also hold a WebSocket each, act through it and get every change
//! on it, as the browser client does; the others POST their actions. A
//! finished game is followed by a new one.
//!
//! Measured in the window after the ramp-up: the time from sending an
//! action to its acknowledgement (given only once the action is
//! committed), acknowledged actions per second, and the CPU time each kind
//! of process used, from /proc. Counted over the whole run: errors (any
//! refusal, lost connection or unreadable reply). At the end the servers
//! are stopped and every acknowledged action is looked for in the
//! database, at its place in its game's log: any missing one is lost.
//!
//! The servers' per-client limits are raised, because every player comes
//! from 127.0.0.1 (see [`SERVER_FLAGS`]); the idle time a kept-alive
//! connection is allowed is raised past the longest think, as a player's
//! browser would keep its connection open.
//!
//! Open files: each player holds one connection (two with a WebSocket),
//! one descriptor at each end: a server holds about 2 x games / servers,
//! a generator 2 x games / generators. The bench raises its soft limit to
//! the hard one (children inherit it) and refuses a plan that needs more.
//!
//! Every run is bounded: the generators stop acting at the end of the
//! window and are killed a minute after it.

#[path = "../../server/benches/common/mod.rs"]
mod common;
#[path = "../../server/tests/it/common/postgres.rs"]
mod postgres;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chesskit_core::{GameRng, ToAct};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

use common::{http_connect, post, raise_open_files_limit, ws_connect, Created, Http, Socket};

const HELP: &str = "\
chesskit capacity bench: chess players at a person's pace on several `chesskit serve`
processes sharing one database; the load generators in processes of their own.

usage: cargo bench -p chesskit --bench capacity -- [OPTIONS]

  --store postgres|sqlite  the database [postgres: a throwaway cluster, fsync on]
  --db URL                 use this PostgreSQL instead of starting one
  --servers N              server processes [2; always 1 with sqlite]
  --generators N           load generator processes [2]
  --games N                games played at once [100]
  --think-ms MIN-MAX[,..]  a player's think time, uniform in MIN..MAX ms [5000-15000];
                           several ranges make several runs, one after another
  --until-saturated        stop after the first run whose p99 is 50 ms or more, or
                           that has an error
  --ramp S                 seconds over which the games start [30]
  --seconds S              the measured window after the ramp-up [60]
  --ws-percent P           games whose players act through WebSockets [10]
  --sticky                 both players of a game on the server that owns it (a load
                           balancer sticky by game id), so that no action is forwarded
  --seed N                 the seed of every random choice [1]
  --chesskit PATH          the server binary [the release build cargo made for this bench]
  --help                   this text

A run prints one line as it ends, and a Markdown table of all runs at the end.";

/// The flags every server gets: its per-client limits raised, since every
/// player here comes from 127.0.0.1 and the bench creates games and (in
/// saturation runs) acts faster than people may (docs/deploy.md, "Limits").
const SERVER_FLAGS: [&str; 12] = [
    "--games-per-minute",
    "1000000",
    "--actions-per-second",
    "1000",
    "--actions-per-minute",
    "60000",
    "--connections-per-address",
    "1000000",
    "--max-connections",
    "19000",
    "--computer-pace-ms",
    "0",
];

/// A p99 from action to acknowledgement at or past this is saturation (issue 24's target).
const P99_TARGET_MS: f64 = 50.0;

/// Descriptors a process keeps for itself beyond its connections
/// (database, log, runtime, listeners).
const SPARE_FILES: u64 = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.iter().any(|a| a == "--generator") {
        return generator::main(&args);
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return;
    }
    let plan = match Plan::parse(&args) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("capacity: {e}\n\n{HELP}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run_all(&plan) {
        eprintln!("capacity: {e}");
        std::process::exit(1);
    }
}

/// What the user asked for.
struct Plan {
    sqlite: bool,
    db: Option<String>,
    servers: usize,
    generators: usize,
    games: usize,
    thinks: Vec<(u64, u64)>,
    until_saturated: bool,
    ramp: f64,
    seconds: f64,
    ws_percent: u64,
    sticky: bool,
    seed: u64,
    chesskit: PathBuf,
}

impl Plan {
    fn parse(args: &[String]) -> Result<Plan, String> {
        let mut plan = Plan {
            sqlite: false,
            db: None,
            servers: 2,
            generators: 2,
            games: 100,
            thinks: vec![(5000, 15000)],
            until_saturated: false,
            ramp: 30.0,
            seconds: 60.0,
            ws_percent: 10,
            sticky: false,
            seed: 1,
            chesskit: PathBuf::from(env!("CARGO_BIN_EXE_chesskit")),
        };
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            if flag == "--until-saturated" || flag == "--sticky" {
                plan.until_saturated |= flag == "--until-saturated";
                plan.sticky |= flag == "--sticky";
                continue;
            }
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--store" => {
                    plan.sqlite = match value.as_str() {
                        "sqlite" => true,
                        "postgres" => false,
                        other => return Err(format!("--store is postgres or sqlite, not {other:?}")),
                    }
                }
                "--db" => plan.db = Some(value.clone()),
                "--servers" => plan.servers = number(flag, value)?,
                "--generators" => plan.generators = number(flag, value)?,
                "--games" => plan.games = number(flag, value)?,
                "--think-ms" => plan.thinks = value.split(',').map(think_range).collect::<Result<_, _>>()?,
                "--ramp" => plan.ramp = number(flag, value)?,
                "--seconds" => plan.seconds = number(flag, value)?,
                "--ws-percent" => plan.ws_percent = number::<u64>(flag, value)?.min(100),
                "--seed" => plan.seed = number(flag, value)?,
                "--chesskit" => plan.chesskit = PathBuf::from(value),
                other => return Err(format!("unknown option {other}")),
            }
        }
        if plan.sqlite {
            plan.servers = 1;
        }
        if plan.servers == 0 || plan.generators == 0 || plan.games == 0 {
            return Err("--servers, --generators and --games must be at least 1".into());
        }
        if plan.seconds <= 0.0 || plan.ramp < 0.0 {
            return Err("--seconds must be above 0 and --ramp at least 0".into());
        }
        Ok(plan)
    }

    /// Descriptors a server and a generator need: a player's connection
    /// (and socket) has one end in a server and one in a generator.
    fn files_needed(&self) -> (u64, u64) {
        let per_game = 2.0 * (1.0 + self.ws_percent as f64 / 100.0);
        let connections = self.games as f64 * per_game;
        let server = connections / self.servers as f64 + SPARE_FILES as f64;
        let generator = connections / self.generators as f64 + SPARE_FILES as f64;
        (server.ceil() as u64, generator.ceil() as u64)
    }

    fn store_name(&self) -> &'static str {
        if self.sqlite {
            "SQLite"
        } else {
            "PostgreSQL"
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("{flag} takes a number, not {value:?}"))
}

/// `MIN-MAX` in milliseconds (or one number for a fixed think).
fn think_range(text: &str) -> Result<(u64, u64), String> {
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u64 = number("--think-ms", low)?;
    let high: u64 = number("--think-ms", high)?;
    if low > high {
        return Err(format!("--think-ms {text}: the least think is more than the most"));
    }
    Ok((low, high))
}

fn run_all(plan: &Plan) -> Result<(), String> {
    let files = raise_open_files_limit();
    let (server_files, generator_files) = plan.files_needed();
    if server_files.max(generator_files) > files {
        return Err(format!(
            "{} games need about {server_files} open files per server and {generator_files} per generator, \
             more than the {files} a process may open here: add --servers or --generators",
            plan.games
        ));
    }
    if !plan.chesskit.exists() {
        return Err(format!("no server binary at {}", plan.chesskit.display()));
    }
    let dir = tempfile::tempdir().map_err(|e| format!("a temporary directory: {e}"))?;
    // Dropped (stopped) after the runs, on every path out of this function.
    let mut cluster = None;
    let url = match (&plan.db, plan.sqlite) {
        (_, true) => None,
        (Some(url), false) => Some(url.clone()),
        (None, false) => {
            let pg = postgres::start_durable().ok_or("PostgreSQL is not installed: install it or give --db URL")?;
            let url = pg.url.clone();
            cluster = Some(pg);
            Some(url)
        }
    };
    let postmaster = cluster.as_ref().and_then(postgres::Postgres::pid);
    println!(
        "capacity: {} games on {} {} server(s){}, {} generator(s), {}% on WebSockets; ramp {} s, window {} s; \
         {files} open files a process; {} cores",
        plan.games,
        plan.servers,
        plan.store_name(),
        if plan.sticky { " (sticky)" } else { "" },
        plan.generators,
        plan.ws_percent,
        plan.ramp,
        plan.seconds,
        cores()
    );
    let mut runs = Vec::new();
    for (n, &think) in plan.thinks.iter().enumerate() {
        let db = match &url {
            Some(url) => url.clone(),
            None => path_text(&dir.path().join(format!("run{n}.db"))),
        };
        let outcome = run(plan, think, &db, dir.path(), postmaster)?;
        println!("{}", outcome.line());
        let saturated = outcome.saturated();
        runs.push(outcome);
        if plan.until_saturated && saturated {
            break;
        }
    }
    print_table(plan, &runs);
    drop(cluster);
    Ok(())
}

/// One run: fresh servers, the generators, the check for lost actions.
fn run(plan: &Plan, think: (u64, u64), db: &str, dir: &Path, postmaster: Option<u32>) -> Result<Outcome, String> {
    // A player's connection idles through its own think and its opponent's,
    // and the acknowledgements: the server must not close it meanwhile.
    let header_timeout = (2 * think.1 / 1000 + 2 * generator::PATIENCE.as_secs() + 10).to_string();
    let mut servers = Vec::new();
    for n in 0..plan.servers {
        servers.push(Server::start(&plan.chesskit, db, &header_timeout, &dir.join(format!("server{n}.log")))?);
    }
    let addresses: Vec<String> = servers.iter().map(|s| format!("127.0.0.1:{}", s.port)).collect();
    // Time for the generators to start before the first game.
    let start_ms = unix_ms() + 2000;
    let mut generators = Vec::new();
    for index in 0..plan.generators {
        generators.push(Generator::start(plan, index, think, &addresses, start_ms)?);
    }
    let window_start = start_ms as f64 / 1000.0 + plan.ramp;
    sleep_until_unix(window_start);
    let before = Cpu::measure(&servers, &generators, postmaster);
    sleep_until_unix(window_start + plan.seconds);
    let after = Cpu::measure(&servers, &generators, postmaster);
    let deadline = Instant::now() + Duration::from_secs(60);
    let reports: Vec<Result<generator::Report, String>> = generators.into_iter().map(|g| g.finish(deadline)).collect();
    for server in &mut servers {
        server.stop();
    }
    let mut outcome = Outcome::new(plan, think, after.since(&before));
    for report in reports {
        match report {
            Ok(report) => outcome.add(report),
            Err(e) => outcome.error(e),
        }
    }
    outcome.latencies.sort_unstable();
    outcome.forwarded_latencies.sort_unstable();
    outcome.lost = lost_actions(db, &outcome.played)?;
    outcome.server_log_lines = servers.iter().map(Server::log_lines).sum();
    Ok(outcome)
}

/// A `chesskit serve` process on a loopback port it chose.
struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Server {
    fn start(chesskit: &Path, db: &str, header_timeout: &str, log: &Path) -> Result<Server, String> {
        let stderr = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut child = Command::new(chesskit)
            .args(["serve", "--host", "127.0.0.1", "--port", "0", "--web", "no-client", "--db", db])
            .args(SERVER_FLAGS)
            .args(["--header-timeout", header_timeout])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| format!("{}: {e}", chesskit.display()))?;
        let mut line = String::new();
        let stdout = child.stdout.take().ok_or("the server's output")?;
        let _ = BufReader::new(stdout).read_line(&mut line);
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok());
        match port {
            Some(port) => Ok(Server { child, port, log: log.to_path_buf() }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                let why = std::fs::read_to_string(log).unwrap_or_default();
                Err(format!("the server did not start: {line:?} {why}"))
            }
        }
    }

    /// Ctrl-C, as a person stops it; killed if it takes over 10 s.
    fn stop(&mut self) {
        // SAFETY: sending a signal to our own child, which has not been reaped.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Lines the server wrote to its error output (it logs every failed request).
    fn log_lines(&self) -> usize {
        std::fs::read_to_string(&self.log).map_or(0, |log| log.lines().count())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A load generator process, and the thread collecting its report.
struct Generator {
    child: Child,
    /// Taken when the report is read.
    output: Option<std::thread::JoinHandle<String>>,
}

impl Generator {
    fn start(plan: &Plan, index: usize, think: (u64, u64), servers: &[String], start_ms: u64) -> Result<Self, String> {
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(me)
            .arg("--generator")
            .args(["--index", &index.to_string(), "--of", &plan.generators.to_string()])
            .args(["--servers", &servers.join(",")])
            .args(["--games", &plan.games.to_string()])
            .args(["--think-ms", &format!("{}-{}", think.0, think.1)])
            .args(["--ramp", &plan.ramp.to_string(), "--seconds", &plan.seconds.to_string()])
            .args(["--start-ms", &start_ms.to_string()])
            .args(["--ws-percent", &plan.ws_percent.to_string(), "--seed", &plan.seed.to_string()])
            .args(plan.sticky.then_some("--sticky"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("a generator: {e}"))?;
        let mut stdout = child.stdout.take().ok_or("the generator's output")?;
        // Read as it comes, so that a long report never fills the pipe.
        let output = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stdout.read_to_string(&mut text);
            text
        });
        Ok(Generator { child, output: Some(output) })
    }

    fn finish(mut self, deadline: Instant) -> Result<generator::Report, String> {
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break Some(status);
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let text = self.output.take().and_then(|output| output.join().ok()).unwrap_or_default();
        match status {
            Some(status) if status.success() => {
                serde_json::from_str(&text).map_err(|e| format!("a generator's report is unreadable: {e}"))
            }
            Some(status) => Err(format!("a generator failed ({status})")),
            None => Err("a generator did not finish within a minute of the window's end; killed".into()),
        }
    }
}

impl Drop for Generator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// CPU seconds used so far: by the servers, by the generators, by
/// PostgreSQL (when this bench started it), and by the whole machine
/// (every process of every user, other work included).
#[derive(Clone, Copy, Default)]
struct Cpu {
    servers: f64,
    generators: f64,
    postgres: Option<f64>,
    machine: f64,
    /// Time the servers' threads spent ready to run but waiting for a
    /// core (the run queue, /proc/PID/task/*/schedstat).
    servers_waiting: f64,
    /// Time some task on the machine was waiting for a core
    /// (/proc/pressure/cpu, "some"): near 1 means every core was wanted.
    pressure: f64,
    at: f64,
}

impl Cpu {
    fn measure(servers: &[Server], generators: &[Generator], postmaster: Option<u32>) -> Cpu {
        let postgres =
            postmaster.map(|pid| cpu_seconds(pid) + children_of(pid).into_iter().map(cpu_seconds).sum::<f64>());
        Cpu {
            servers: servers.iter().map(|s| cpu_seconds(s.child.id())).sum(),
            generators: generators.iter().map(|g| cpu_seconds(g.child.id())).sum(),
            postgres,
            machine: machine_busy_seconds(),
            servers_waiting: servers.iter().map(|s| run_queue_seconds(s.child.id())).sum(),
            pressure: cpu_pressure_seconds(),
            at: unix_ms() as f64 / 1000.0,
        }
    }

    /// The CPU used between `before` and this, in cores (CPU seconds a second).
    fn since(&self, before: &Cpu) -> Cpu {
        let seconds = (self.at - before.at).max(1e-3);
        Cpu {
            servers: (self.servers - before.servers) / seconds,
            generators: (self.generators - before.generators) / seconds,
            postgres: self.postgres.zip(before.postgres).map(|(a, b)| (a - b) / seconds),
            machine: (self.machine - before.machine) / seconds,
            servers_waiting: (self.servers_waiting - before.servers_waiting) / seconds,
            pressure: (self.pressure - before.pressure) / seconds,
            at: seconds,
        }
    }
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}

/// The fields of /proc/PID/stat after the command name (which may hold spaces).
fn stat_fields(pid: u32) -> Vec<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    rest.split_whitespace().map(String::from).collect()
}

/// User and system CPU seconds of a process (its threads included).
fn cpu_seconds(pid: u32) -> f64 {
    let fields = stat_fields(pid);
    // Fields 14 and 15 of stat(5): utime and stime; here counted from field 3.
    let ticks: f64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<f64>().ok()).sum();
    ticks / clock_ticks()
}

/// The processes whose parent is `pid` (PostgreSQL's backends).
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| stat_fields(child).get(1).and_then(|ppid| ppid.parse::<u32>().ok()) == Some(pid))
        .collect()
}

/// CPU seconds the whole machine has been busy (all but idle and iowait).
fn machine_busy_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let Some(line) = stat.lines().find(|l| l.starts_with("cpu ")) else { return 0.0 };
    let ticks: Vec<f64> = line.split_whitespace().skip(1).filter_map(|t| t.parse().ok()).collect();
    // user nice system idle iowait irq softirq steal; guest time is already in user.
    let busy: f64 = ticks.iter().take(8).enumerate().filter(|(i, _)| *i != 3 && *i != 4).map(|(_, t)| t).sum();
    busy / clock_ticks()
}

/// Seconds the threads of a process have waited on a run queue
/// (the second field of each thread's schedstat, in nanoseconds).
fn run_queue_seconds(pid: u32) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return 0.0 };
    let nanoseconds: f64 = tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().nth(1)?.parse::<f64>().ok())
        .sum();
    nanoseconds / 1e9
}

/// Seconds in which at least one task waited for a core, since boot
/// (`total=` of the "some" line of /proc/pressure/cpu, in microseconds).
fn cpu_pressure_seconds() -> f64 {
    let pressure = std::fs::read_to_string("/proc/pressure/cpu").unwrap_or_default();
    let total = pressure
        .lines()
        .find(|l| l.starts_with("some"))
        .and_then(|l| l.split_whitespace().find_map(|f| f.strip_prefix("total=")))
        .and_then(|t| t.parse::<f64>().ok());
    total.unwrap_or(0.0) / 1e6
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

fn sleep_until_unix(seconds: f64) {
    let now = unix_ms() as f64 / 1000.0;
    if seconds > now {
        std::thread::sleep(Duration::from_secs_f64(seconds - now));
    }
}

fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Acknowledged actions that are not in the database at their place in
/// their game's log. `db` is a SQLite path or a PostgreSQL URL.
fn lost_actions(db: &str, games: &[generator::PlayedGame]) -> Result<usize, String> {
    let stored = if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?
            .block_on(chesskit_server::store::postgres::read_games(db))
    } else {
        chesskit_server::store::read_games(Path::new(db))
    }
    .map_err(|e| format!("reading the database back: {e}"))?;
    let logs: HashMap<&str, Vec<&str>> =
        stored.iter().map(|g| (g.id.as_str(), g.record.actions.iter().map(|a| a.action.as_str()).collect())).collect();
    let lost = games
        .iter()
        .map(|game| {
            let log = logs.get(game.id.as_str()).map_or(&[][..], |log| &log[..]);
            game.actions.iter().enumerate().filter(|(i, action)| log.get(*i) != Some(&action.as_str())).count()
        })
        .sum();
    Ok(lost)
}

/// What one run measured.
struct Outcome {
    store: &'static str,
    servers: usize,
    games: usize,
    think: (u64, u64),
    /// Action-to-acknowledgement times in the window, in microseconds, sorted.
    latencies: Vec<u32>,
    seconds: f64,
    /// Actions in the window sent to a server that does not own their game.
    forwarded: u64,
    /// Their latencies, in microseconds, sorted.
    forwarded_latencies: Vec<u32>,
    errors: u64,
    first_errors: Vec<String>,
    lost: usize,
    /// Acknowledged actions over the whole run, the ramp-up included.
    all_actions: u64,
    played: Vec<generator::PlayedGame>,
    /// CPU in cores over the window.
    cpu: Cpu,
    server_log_lines: usize,
}

impl Outcome {
    fn new(plan: &Plan, think: (u64, u64), cpu: Cpu) -> Outcome {
        Outcome {
            store: plan.store_name(),
            servers: plan.servers,
            games: plan.games,
            think,
            latencies: Vec::new(),
            seconds: plan.seconds,
            forwarded: 0,
            forwarded_latencies: Vec::new(),
            errors: 0,
            first_errors: Vec::new(),
            lost: 0,
            all_actions: 0,
            played: Vec::new(),
            cpu,
            server_log_lines: 0,
        }
    }

    fn add(&mut self, report: generator::Report) {
        self.latencies.extend(report.latencies_us);
        self.forwarded_latencies.extend(report.forwarded_us);
        self.forwarded += report.forwarded;
        self.errors += report.errors;
        self.all_actions += report.played.iter().map(|g| g.actions.len() as u64).sum::<u64>();
        self.played.extend(report.played);
        for e in report.first_errors {
            self.note(e);
        }
    }

    fn error(&mut self, what: String) {
        self.errors += 1;
        self.note(what);
    }

    fn note(&mut self, what: String) {
        if self.first_errors.len() < 3 {
            self.first_errors.push(what);
        }
    }

    fn percentile(&self, p: f64) -> f64 {
        percentile(&self.latencies, p)
    }

    fn rate(&self) -> f64 {
        self.latencies.len() as f64 / self.seconds
    }

    /// Acknowledged actions a second for each core the servers used.
    fn per_server_core(&self) -> f64 {
        self.rate() / self.cpu.servers.max(1e-3)
    }

    /// The same, counting PostgreSQL's cores with the servers'.
    fn per_store_core(&self) -> Option<f64> {
        self.cpu.postgres.map(|pg| self.rate() / (self.cpu.servers + pg).max(1e-3))
    }

    fn saturated(&self) -> bool {
        self.errors > 0 || self.lost > 0 || self.latencies.is_empty() || self.percentile(0.99) >= P99_TARGET_MS
    }

    fn line(&self) -> String {
        format!(
            "{} x{} {} games, think {}-{} ms: {} actions in {:.0} s = {:.0}/s ({} over the run); ack p50 {:.1} ms \
             p95 {:.1} ms p99 {:.1} ms max {:.1} ms; {:.0}% forwarded (p50 {:.1} ms, p99 {:.1} ms); {} errors {:?}; {} lost; \
             CPU cores: servers {:.2} (waiting for a core {:.2}), PostgreSQL {}, generators {:.2}, machine {:.2}, \
             CPU pressure {:.0}%; {} server log lines",
            self.store,
            self.servers,
            self.games,
            self.think.0,
            self.think.1,
            self.latencies.len(),
            self.seconds,
            self.rate(),
            self.all_actions,
            self.percentile(0.5),
            self.percentile(0.95),
            self.percentile(0.99),
            self.percentile(1.0),
            100.0 * self.forwarded as f64 / self.latencies.len().max(1) as f64,
            percentile(&self.forwarded_latencies, 0.5),
            percentile(&self.forwarded_latencies, 0.99),
            self.errors,
            self.first_errors,
            self.lost,
            self.cpu.servers,
            self.cpu.servers_waiting,
            self.cpu.postgres.map_or("-".into(), |pg| format!("{pg:.2}")),
            self.cpu.generators,
            self.cpu.machine,
            100.0 * self.cpu.pressure,
            self.server_log_lines,
        )
    }
}

/// The `p` quantile of sorted microseconds, in milliseconds.
fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 * p) as usize).min(sorted.len() - 1);
    sorted[index] as f64 / 1000.0
}

fn print_table(plan: &Plan, runs: &[Outcome]) {
    println!();
    println!(
        "| store | servers | games | think ms | actions/s | p50 ms | p95 ms | p99 ms | max ms | errors | lost | \
         forwarded | CPU servers | CPU PostgreSQL | CPU generators | CPU machine | CPU pressure | \
         actions/s per server core | per server+PG core |"
    );
    println!("|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for r in runs {
        println!(
            "| {} | {} | {} | {}-{} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} | {:.0}% | {:.2} | {} | {:.2} | \
             {:.2} | {:.0}% | {:.0} | {} |",
            r.store,
            r.servers,
            r.games,
            r.think.0,
            r.think.1,
            r.rate(),
            r.percentile(0.5),
            r.percentile(0.95),
            r.percentile(0.99),
            r.percentile(1.0),
            r.errors,
            r.lost,
            100.0 * r.forwarded as f64 / r.latencies.len().max(1) as f64,
            r.cpu.servers,
            r.cpu.postgres.map_or("-".into(), |pg| format!("{pg:.2}")),
            r.cpu.generators,
            r.cpu.machine,
            100.0 * r.cpu.pressure,
            r.per_server_core(),
            r.per_store_core().map_or("-".into(), |n| format!("{n:.0}")),
        );
    }
    println!();
    println!("CPU in cores (CPU seconds a second) over the window, from /proc; the machine has {} cores, shared by everything, other users' work included; CPU pressure: the share of the time some task waited for a core.", cores());
    let unsaturated = runs.iter().filter(|r| !r.saturated()).max_by(|a, b| a.rate().total_cmp(&b.rate()));
    // Past the point: the slowest saturated run faster than it.
    let floor = unsaturated.map_or(0.0, Outcome::rate);
    let past = runs.iter().filter(|r| r.saturated() && r.rate() > floor).min_by(|a, b| a.rate().total_cmp(&b.rate()));
    match unsaturated {
        Some(r) => println!(
            "saturation point ({}): {:.0} acknowledged actions/s with p99 {:.1} ms at think {}-{} ms, \
             {:.0} per server core{}",
            plan.store_name(),
            r.rate(),
            r.percentile(0.99),
            r.think.0,
            r.think.1,
            r.per_server_core(),
            past.map_or(String::new(), |p| format!(
                "; past it at think {}-{} ms: {:.0}/s, p99 {:.1} ms, {} errors",
                p.think.0,
                p.think.1,
                p.rate(),
                p.percentile(0.99),
                p.errors
            ))
        ),
        None => println!("saturation point: no run kept p99 under {P99_TARGET_MS} ms with no error"),
    }
}

/// The load generator: this bench started again with `--generator`.
mod generator {
    use super::*;

    /// What a generator sends back, as JSON on its standard output.
    #[derive(Serialize, Deserialize, Default)]
    pub struct Report {
        pub latencies_us: Vec<u32>,
        /// Those of actions sent to a server that does not own the game.
        pub forwarded_us: Vec<u32>,
        pub forwarded: u64,
        pub errors: u64,
        pub first_errors: Vec<String>,
        pub played: Vec<PlayedGame>,
    }

    /// A game and the actions acknowledged in it, in order from the first.
    #[derive(Serialize, Deserialize, Clone)]
    pub struct PlayedGame {
        pub id: String,
        pub actions: Vec<String>,
    }

    /// This generator's share of the plan.
    #[derive(Clone)]
    struct Share {
        index: usize,
        of: usize,
        servers: Vec<String>,
        games: usize,
        think: (u64, u64),
        ramp: f64,
        seconds: f64,
        start_ms: u64,
        ws_percent: u64,
        sticky: bool,
        seed: u64,
    }

    fn share(args: &[String]) -> Result<Share, String> {
        let get = |name: &str| -> Result<&String, String> {
            let i = args.iter().position(|a| a == name).ok_or(format!("the generator needs {name}"))?;
            args.get(i + 1).ok_or(format!("{name} needs a value"))
        };
        Ok(Share {
            index: number("--index", get("--index")?)?,
            of: number("--of", get("--of")?)?,
            servers: get("--servers")?.split(',').map(String::from).collect(),
            games: number("--games", get("--games")?)?,
            think: think_range(get("--think-ms")?)?,
            ramp: number("--ramp", get("--ramp")?)?,
            seconds: number("--seconds", get("--seconds")?)?,
            start_ms: number("--start-ms", get("--start-ms")?)?,
            ws_percent: number("--ws-percent", get("--ws-percent")?)?,
            seed: number("--seed", get("--seed")?)?,
            sticky: args.iter().any(|a| a == "--sticky"),
        })
    }

    pub fn main(args: &[String]) {
        let share = match share(args) {
            Ok(share) => share,
            Err(e) => {
                eprintln!("capacity generator: {e}");
                std::process::exit(2);
            }
        };
        raise_open_files_limit();
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
        let report = runtime.block_on(play_share(share));
        println!("{}", serde_json::to_string(&report).expect("a report is JSON"));
    }

    /// The instants of this share's timeline.
    #[derive(Clone, Copy)]
    struct Timeline {
        window_start: tokio::time::Instant,
        end: tokio::time::Instant,
    }

    async fn play_share(share: Share) -> Report {
        let wait = Duration::from_millis(share.start_ms.saturating_sub(unix_ms()));
        let start = tokio::time::Instant::now() + wait;
        let window_start = start + Duration::from_secs_f64(share.ramp);
        let timeline = Timeline { window_start, end: window_start + Duration::from_secs_f64(share.seconds) };
        // Slot k of all the games starts at k / games of the ramp-up; this
        // generator plays every `of`-th slot, so the generators interleave.
        let tasks: Vec<_> = (share.index..share.games)
            .step_by(share.of)
            .map(|slot| {
                let begin = start + Duration::from_secs_f64(share.ramp * slot as f64 / share.games as f64);
                tokio::spawn(play_slot(share.clone(), slot as u64, begin, timeline))
            })
            .collect();
        let mut report = Report::default();
        for task in tasks {
            match task.await {
                Ok(slot) => merge(&mut report, slot),
                Err(e) => note(&mut report, format!("a player task failed: {e}")),
            }
        }
        report
    }

    fn merge(report: &mut Report, slot: Report) {
        report.latencies_us.extend(slot.latencies_us);
        report.forwarded_us.extend(slot.forwarded_us);
        report.forwarded += slot.forwarded;
        report.errors += slot.errors;
        report.played.extend(slot.played);
        for e in slot.first_errors {
            if report.first_errors.len() < 3 {
                report.first_errors.push(e);
            }
        }
    }

    fn note(report: &mut Report, what: String) {
        report.errors += 1;
        if report.first_errors.len() < 3 {
            report.first_errors.push(what);
        }
    }

    /// How a game's players act.
    enum Players {
        /// POST to their HTTP connections.
        Http,
        /// Through a WebSocket each, which also brings every change
        /// (boxed: a socket is large, and most games have none).
        Sockets(Box<[Socket; 2]>),
    }

    /// The two players of one slot: games one after another, from
    /// `begin` until the window ends; an error ends the slot.
    async fn play_slot(share: Share, slot: u64, begin: tokio::time::Instant, timeline: Timeline) -> Report {
        let mut report = Report::default();
        let mut rng = GameRng::from_seed(share.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ slot);
        let on_sockets = (rng.below(100) as u64) < share.ws_percent;
        let home = rng.below(share.servers.len());
        let homes = [home, if share.sticky { home } else { rng.below(share.servers.len()) }];
        tokio::time::sleep_until(begin).await;
        let mut https = Vec::new();
        for &home in &homes {
            match http_connect(address(&share.servers[home])).await {
                Ok(http) => https.push(http),
                Err(e) => {
                    note(&mut report, format!("connect: {e}"));
                    return report;
                }
            }
        }
        while tokio::time::Instant::now() < timeline.end {
            if let Err(e) = reopen_if_closed(&mut https[0], &share.servers[homes[0]]).await {
                note(&mut report, e);
                break;
            }
            let game = match new_game(&share, homes, &mut https[0], on_sockets).await {
                Ok(game) => game,
                Err(e) => {
                    note(&mut report, e);
                    break;
                }
            };
            let (played, failed) = play_game(&share, &mut rng, homes, &mut https, game, timeline, &mut report).await;
            report.played.push(played);
            if let Some(e) = failed {
                note(&mut report, e);
                break;
            }
        }
        report
    }

    /// Open a new connection in place of a kept-alive one the server has
    /// closed, as a browser's connection pool does. The server closes a
    /// connection that idles past its `--header-timeout`, and a player
    /// whose game went on over a WebSocket comes back to create the next
    /// game on an HTTP connection that idled through the whole game: that
    /// request used to fail with hyper's "channel closed" (never sent),
    /// the one error of the quiet 10,000-game run (docs/deploy.md).
    async fn reopen_if_closed(http: &mut Http, server: &str) -> Result<(), String> {
        if http.ready().await.is_err() {
            *http = http_connect(address(server)).await.map_err(|e| format!("reconnect: {e}"))?;
        }
        Ok(())
    }

    fn address(server: &str) -> std::net::SocketAddr {
        server.parse().expect("the bench passes socket addresses")
    }

    /// A new game, created by seat 0's player on its server, and its players.
    async fn new_game(
        share: &Share,
        homes: [usize; 2],
        http: &mut Http,
        on_sockets: bool,
    ) -> Result<(String, Vec<String>, Players), String> {
        let body = json!({"variant": "chess", "seats": ["human", "human"]}).to_string();
        let (status, reply) = within_reason(post(http, "/api/games", body)).await?;
        if status != 201 {
            return Err(format!("create: {status} {}", String::from_utf8_lossy(&reply)));
        }
        let created: Created = serde_json::from_slice(&reply).map_err(|e| format!("create: {e}"))?;
        let tokens: Vec<String> = created.seats.into_iter().map(|s| s.token).collect();
        if !on_sockets {
            return Ok((created.id, tokens, Players::Http));
        }
        let mut sockets = Vec::new();
        for (seat, token) in tokens.iter().enumerate() {
            let server = &share.servers[homes[seat]];
            sockets.push(ws_connect(format!("ws://{server}/api/games/{}/ws?token={token}", created.id)).await?);
        }
        let sockets: [Socket; 2] = sockets.try_into().map_err(|_| "two sockets".to_string())?;
        Ok((created.id, tokens, Players::Sockets(Box::new(sockets))))
    }

    /// Play one game until it ends or the window does: the played game,
    /// and the error that stopped it if one did.
    async fn play_game(
        share: &Share,
        rng: &mut GameRng,
        homes: [usize; 2],
        https: &mut [Http],
        (id, tokens, mut players): (String, Vec<String>, Players),
        timeline: Timeline,
        report: &mut Report,
    ) -> (PlayedGame, Option<String>) {
        let mut played = PlayedGame { id: id.clone(), actions: Vec::new() };
        let mut game = match chesskit_games::create("chess", Default::default(), 0, None) {
            Ok(game) => game,
            Err(e) => return (played, Some(format!("the generator's own copy of chess: {e}"))),
        };
        let path = format!("/api/games/{id}/actions");
        loop {
            let seat = match game.to_act() {
                ToAct::Seats(seats) if !seats.is_empty() => seats[0],
                _ => return (played, None),
            };
            let think = share.think.0 + rng.below((share.think.1 - share.think.0) as usize + 1) as u64;
            let acts_at = tokio::time::Instant::now() + Duration::from_millis(think);
            if acts_at >= timeline.end {
                tokio::time::sleep_until(timeline.end).await;
                return (played, None);
            }
            tokio::time::sleep_until(acts_at).await;
            let actions = game.legal_actions(seat);
            if actions.is_empty() {
                return (played, None);
            }
            let action = &actions[rng.below(actions.len())];
            let version = played.actions.len();
            let sent = tokio::time::Instant::now();
            let acked = match &mut players {
                Players::Http => {
                    let body = json!({"token": tokens[seat], "action": action, "since": version}).to_string();
                    match reopen_if_closed(&mut https[seat], &share.servers[homes[seat]]).await {
                        Ok(()) => post_action(&mut https[seat], &path, body).await,
                        Err(e) => Err(e),
                    }
                }
                Players::Sockets(sockets) => socket_action(&mut sockets[seat], action).await,
            };
            let latency = sent.elapsed();
            let acked = match acked {
                Ok((text, v)) if v == version + 1 => text,
                Ok((_, v)) => return (played, Some(format!("game {id}: acknowledged as version {v} after {version}"))),
                Err(e) => return (played, Some(format!("game {id}, {action}: {e}"))),
            };
            if let Err(e) = game.apply(seat, &acked) {
                return (played, Some(format!("game {id}: the acknowledged {acked} does not apply here: {e}")));
            }
            played.actions.push(acked);
            if sent >= timeline.window_start && sent < timeline.end {
                let micros = latency.as_micros().min(u32::MAX as u128) as u32;
                report.latencies_us.push(micros);
                if homes[seat] != homes[0] {
                    report.forwarded += 1;
                    report.forwarded_us.push(micros);
                }
            }
        }
    }

    /// The acknowledgement of an action: its canonical text and the version it made.
    #[derive(Deserialize)]
    struct Ack {
        action: String,
        version: usize,
    }

    async fn post_action(http: &mut Http, path: &str, body: String) -> Result<(String, usize), String> {
        let (status, reply) = within_reason(post(http, path, body)).await?;
        if status != 200 {
            return Err(format!("{status} {}", String::from_utf8_lossy(&reply)));
        }
        let ack: Ack = serde_json::from_slice(&reply).map_err(|e| format!("an unreadable reply: {e}"))?;
        Ok((ack.action, ack.version))
    }

    /// A socket message the player waits for: its ack, or an error.
    #[derive(Deserialize)]
    struct SocketReply {
        #[serde(rename = "type")]
        kind: String,
        action: Option<String>,
        version: Option<usize>,
        error: Option<String>,
    }

    /// Act through the socket and read until the acknowledgement, past the
    /// views and changes that came meanwhile.
    async fn socket_action(socket: &mut Socket, action: &str) -> Result<(String, usize), String> {
        let message = json!({"type": "action", "action": action}).to_string();
        socket.send(Message::text(message)).await.map_err(|e| format!("ws send: {e}"))?;
        let wait = async {
            loop {
                let text = match socket.next().await {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(_)) => continue,
                    other => return Err(format!("ws closed: {other:?}")),
                };
                let reply: SocketReply = serde_json::from_str(&text).map_err(|e| format!("ws message: {e}"))?;
                match (reply.kind.as_str(), reply.action, reply.version) {
                    ("ack", Some(action), Some(version)) => return Ok((action, version)),
                    ("error", _, _) => return Err(format!("ws error: {}", reply.error.unwrap_or_default())),
                    _ => continue,
                }
            }
        };
        within_reason(wait).await
    }

    /// How long a request may take before it counts as an error; a
    /// person would have reloaded the page long before.
    pub const PATIENCE: Duration = Duration::from_secs(30);

    async fn within_reason<T>(request: impl std::future::Future<Output = Result<T, String>>) -> Result<T, String> {
        tokio::time::timeout(PATIENCE, request).await.map_err(|_| format!("no answer within {PATIENCE:?}"))?
    }
}
