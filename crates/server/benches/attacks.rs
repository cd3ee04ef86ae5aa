//! The attack benchmark: a person plays chess on a server while a stranger
//! attacks it, one attack at a time, and we compare what the person feels
//! (the p99 time from sending a move to its acknowledgement) and what the
//! server holds (its peak resident memory) with the same figures with no
//! attack, as ratios. Targets (issue "Open to the public"): latency ratio
//! under 2, peak RSS under 300 MB, whatever the attack.
//!
//!     cargo bench -p chesskit-server --bench attacks
//!     cargo bench -p chesskit-server --bench attacks -- --seconds 60 --repeat 5
//!     cargo bench -p chesskit-server --bench attacks -- --attacks none,slowloris --cpus 0,1
//!
//! How it models a deployment: three processes, as on the Internet.
//! - The server is a child process of this benchmark (the same binary,
//!   started with `--serve`), with `chesskit serve`'s default limits and
//!   allocator, so its peak RSS (`VmHWM`) is its own. It is pinned to one
//!   core (`sched_setaffinity`), so it runs as `chesskit serve` on a
//!   one-core machine: one request thread, one computer thinker.
//! - The person is this process, pinned to the server's core: the
//!   measuring instrument, like a browser on the server's own machine, so
//!   the latency it measures is the server's and the loopback's, never
//!   the attacker's load generator's.
//! - The attacker is another child process (`--attack NAME`), pinned to
//!   the other core: on the Internet the attacker's machine is not the
//!   server's, and a load generator that shares the server's core takes
//!   the processor from the server in a way no remote attacker can.
//!
//! The baseline `none` runs the same three processes on the same cores,
//! with an attacker that does nothing. `--cpus S,A` chooses the two cores
//! (default: the first two this process may use); with a single core all
//! three share it, and the output says so.
//!
//! The server's database is a fresh SQLite file in a temporary directory
//! (`--store-in DIR` chooses where: `/dev/shm` keeps the disk out of the
//! person's latency).
//!
//! Each repetition runs `none` and then every attack, each on a fresh
//! server for `--seconds` (default 20) after the attack has had 2 s to take
//! hold; `--repeat` (default 3) repetitions. The ratio of a repetition is
//! its attack's p99 over the same repetition's `none` p99, so that a
//! machine that gets busier between repetitions moves both; the table
//! gives the median ratio over repetitions and its spread (lowest and
//! highest). The default run (8 attacks, 3 repetitions of 20 s) takes
//! about 10 minutes.
//!
//! The person plays six games of chess at once, both seats of each, a
//! random legal move every 20 ms taking the games in turn (about 40 moves
//! a second, 3 a second per seat: under the server's per-seat limits), so
//! a 20 s window has about 800 moves and p99 is the 8th-slowest of them;
//! the table's p99s are medians over repetitions of each window's p99.
//! Each move is timed from sending its POST to reading the reply.
//!
//! The person connects from 127.0.0.1, the attacker from 127.0.0.2: two
//! client addresses, as two strangers on the Internet would be. Loopback
//! only; every attack is bounded in connections and requests, and stops at
//! the end of its window. No attack is slowed to suit the server: each
//! asks as fast as the server answers it, and the output gives each
//! attacker's rate (requests a second over its run) and how many the
//! server refused.
//!
//! The attacks:
//! - `slowloris`: 1500 connections that send half a request's headers and
//!   never the rest, opened again as the server cuts them off;
//! - `slowloris-elsewhere`, a control: the same flood aimed at a listener
//!   of the attacker's own, on the attacker's core, which refuses each
//!   connection as the server does (a 429, then closed). Nothing of it
//!   reaches the server: its ratio is what the flood costs the person
//!   through the machine alone (on a virtual machine, its host's disk and
//!   interrupt paths shared by both cores; see docs/deploy.md);
//! - `connections`: as many complete, kept-alive connections as the server
//!   lets one address hold, and more (200), held open;
//! - `games`: new games created as fast as four connections can ask;
//! - `chat`: the attacker's seat talks as fast as it may, and a spectator
//!   asks for the change since every version of that game, over and over;
//! - `computers`: 20 games of level-8 Zombie between computers, each
//!   watched through a WebSocket so that none pauses;
//! - `golf`: the Chess Golf hole that stalled a server (hole 14 of 18,
//!   15 cards), created with the largest search a client may ask for and
//!   answered "impossible", so that the referee searches; then eight
//!   spectators ask for the view after that action (a replay); again
//!   with a new round as often as games may be created.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use common::{http_connect, post, raise_open_files_limit, Http};

const ATTACKS: [&str; 8] =
    ["none", "slowloris", "slowloris-elsewhere", "connections", "games", "chat", "computers", "golf"];
/// The attacker's client address; the person's is 127.0.0.1.
const ATTACKER: [u8; 4] = [127, 0, 0, 2];
/// How long an attack runs before the person starts to play.
const TAKE_HOLD: Duration = Duration::from_secs(2);
/// The person's games, played in turn, so that each seat moves well
/// under the server's per-seat action limits (10 a second, 300 a minute).
const PERSON_BOARDS: usize = 6;
/// The person's pause between moves.
const PERSON_PAUSE: Duration = Duration::from_millis(20);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve") {
        return serve(&args);
    }
    if let Some(attack) = flag(&args, "--attack") {
        return attacker_process(&attack, &args);
    }
    let seconds: f64 = flag(&args, "--seconds").map_or(20.0, |s| s.parse().expect("--seconds S"));
    let repeat: usize = flag(&args, "--repeat").map_or(3, |s| s.parse().expect("--repeat N"));
    let attacks: Vec<String> = flag(&args, "--attacks")
        .map_or(ATTACKS.iter().map(|a| a.to_string()).collect(), |list| list.split(',').map(String::from).collect());
    let cores = choose_cores(flag(&args, "--cpus"));
    let store_in = flag(&args, "--store-in");
    let files = raise_open_files_limit();
    pin_to(cores.server);
    println!("chesskit attack benchmark: {repeat} repetitions of {seconds} s per attack; open files allowed: {files}");
    println!("{}", cores.describe());
    println!("the server's database: a fresh file in {}", store_in.as_deref().unwrap_or("the temporary directory"));
    println!("the person: {PERSON_BOARDS} games of chess in turn, a move every {} ms", PERSON_PAUSE.as_millis());
    let window = Duration::from_secs_f64(seconds);
    let mut runs: Vec<Run> = Vec::new();
    for repetition in 1..=repeat {
        for attack in &attacks {
            let outcome = measure(attack, window, &cores, store_in.as_deref());
            println!("repetition {repetition}/{repeat}, {attack}: {}", outcome.line());
            runs.push(Run { attack: attack.clone(), repetition, outcome });
        }
    }
    print_table(&attacks, &runs);
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// Where the server (with the person) and the attacker run.
struct Cores {
    server: Option<usize>,
    attacker: Option<usize>,
}

impl Cores {
    fn describe(&self) -> String {
        match (self.server, self.attacker) {
            (Some(s), Some(a)) if s != a => {
                format!("placement: the server and the person on core {s}, the attacker on core {a}")
            }
            _ => "placement: NOT PINNED (fewer than two cores here): the attacker shares the server's cores, \
                  so the ratios overstate what a remote attacker could do"
                .to_string(),
        }
    }
}

/// `--cpus S,A`, or the first two cores this process may run on.
fn choose_cores(asked: Option<String>) -> Cores {
    if let Some(list) = asked {
        let cores: Vec<usize> =
            list.split(',').map(|c| c.trim().parse().expect("--cpus S,A: two core numbers")).collect();
        assert_eq!(cores.len(), 2, "--cpus S,A: the server's core, then the attacker's");
        return Cores { server: Some(cores[0]), attacker: Some(cores[1]) };
    }
    let allowed = allowed_cores();
    match allowed[..] {
        [server, attacker, ..] => Cores { server: Some(server), attacker: Some(attacker) },
        _ => Cores { server: None, attacker: None },
    }
}

/// The cores this process may run on.
fn allowed_cores() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is an empty set; sched_getaffinity writes
    // at most the size given into it, and CPU_ISSET reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
    }
}

/// Run this process (and the children it starts after) on `core` only.
fn pin_to(core: Option<usize>) {
    let Some(core) = core else { return };
    // SAFETY: as in `allowed_cores`; sched_setaffinity only reads the set.
    let pinned = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    };
    assert!(pinned, "cannot pin to core {core}: {}", std::io::Error::last_os_error());
}

/// The child: `chesskit serve` with its defaults on a loopback port,
/// printed on the first line, until its parent closes its standard input.
/// It inherits the parent's core. Its database is in a fresh temporary
/// directory, inside `--store-in DIR` when given.
fn serve(args: &[String]) {
    raise_open_files_limit();
    let dir = match flag(args, "--store-in") {
        Some(parent) => {
            tempfile::tempdir_in(&parent).unwrap_or_else(|e| panic!("a temporary directory in {parent}: {e}"))
        }
        None => tempfile::tempdir().expect("a temporary directory"),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.expect("a port");
        let state = chesskit_server::AppState::open_paced(
            &dir.path().join("chesskit.db"),
            dir.path().join("no-client"),
            Duration::ZERO,
        )
        .await
        .expect("the server opens its database");
        println!("{}", listener.local_addr().expect("an address").port());
        let stdin_closed = async {
            let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_line(&mut String::new())).await;
        };
        chesskit_server::serve_listener(listener, state, stdin_closed).await.expect("the server runs");
    });
}

/// The attacker's child: `--attack NAME --port P [--cpu C]` attacks the
/// server on port P until its standard input closes, then prints what it
/// sent (`SENT REFUSED SECONDS`) and exits at once, dropping every
/// connection it holds.
fn attacker_process(attack: &str, args: &[String]) {
    pin_to(flag(args, "--cpu").map(|c| c.parse().expect("--cpu C")));
    raise_open_files_limit();
    let port: u16 = flag(args, "--port").and_then(|p| p.parse().ok()).expect("--port P");
    let server = SocketAddr::from(([127, 0, 0, 1], port));
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let started = Instant::now();
    runtime.spawn(attack_with(attack.to_string(), server, stop.clone(), tally.clone()));
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    stop.store(true, Ordering::Relaxed);
    let seconds = started.elapsed().as_secs_f64();
    println!("{} {} {seconds}", tally.sent.load(Ordering::Relaxed), tally.refused.load(Ordering::Relaxed));
    std::process::exit(0);
}

/// One attack's run in one repetition.
struct Run {
    attack: String,
    repetition: usize,
    outcome: Outcome,
}

struct Outcome {
    latencies: Vec<f64>,
    peak_rss: u64,
    /// The server's processor time over the person's window, as a share of one core.
    server_cpu: f64,
    /// The time the server's threads spent ready but waiting for a core
    /// over the window, as a share of it (threads that ended meanwhile
    /// are not counted): what other processes on the machine cost it.
    server_waited: f64,
    /// The share of the window in which some task on the machine waited
    /// for a core (`/proc/pressure/cpu`): near 0 on a quiet machine.
    machine_pressure: f64,
    attacker_requests: usize,
    attacker_refused: usize,
    attacker_seconds: f64,
}

impl Outcome {
    fn percentile(&self, p: f64) -> f64 {
        let mut sorted = self.latencies.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.is_empty() {
            return f64::NAN;
        }
        sorted[((sorted.len() - 1) as f64 * p).round() as usize]
    }

    fn p99(&self) -> f64 {
        self.percentile(0.99)
    }

    fn attacker_rate(&self) -> f64 {
        self.attacker_requests as f64 / self.attacker_seconds.max(f64::EPSILON)
    }

    fn line(&self) -> String {
        format!(
            "{} moves, p50 {:.2} ms, p99 {:.2} ms, server peak RSS {:.0} MB, server CPU {:.0}% of its core, \
             waiting for a core {:.0}%, machine CPU pressure {:.0}%; attacker sent {} ({:.0}/s, {} refused)",
            self.latencies.len(),
            self.percentile(0.5),
            self.p99(),
            self.peak_rss as f64 / 1e6,
            self.server_cpu * 100.0,
            self.server_waited * 100.0,
            self.machine_pressure * 100.0,
            self.attacker_requests,
            self.attacker_rate(),
            self.attacker_refused
        )
    }
}

/// What each attacker's requests are, for the table's legend.
fn attack_unit(attack: &str) -> &'static str {
    match attack {
        "slowloris" => "connections opened, each sending half a request's headers (1500 held at once)",
        "slowloris-elsewhere" => {
            "the same, aimed at a listener of the attacker's own that refuses as the server does: a control, \
             nothing reaches the server"
        }
        "connections" => "kept-alive connections opened at the start and held (the server admits 64)",
        "games" => "game creations, four connections asking as fast as answered",
        "chat" => "requests: a 290-character chat line, then a view since every version so far",
        "computers" => "requests: 20 computer games created and watched (all at the start)",
        "golf" => "requests: a golf round at the stalled hole, \"impossible\", eight replays of it",
        _ => "nothing",
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn print_table(attacks: &[String], runs: &[Run]) {
    let of = |attack: &str| runs.iter().filter(|r| r.attack == attack).collect::<Vec<&Run>>().into_iter();
    let baseline = |repetition: usize| runs.iter().find(|r| r.attack == "none" && r.repetition == repetition);
    let base_p99 = median(of("none").map(|r| r.outcome.p99()).collect());
    let base_rss = of("none").map(|r| r.outcome.peak_rss).max().unwrap_or(0);
    println!();
    println!("What each attacker's rate counts:");
    for attack in attacks {
        println!("- {attack}: {}", attack_unit(attack));
    }
    println!();
    println!(
        "Medians over repetitions; a ratio is the attack's p99 over the same repetition's `none` p99 \
         (target: under 2); RSS is the highest of the repetitions (target: under 300 MB)."
    );
    println!(
        "Server CPU: its processor time over the window, as a share of its core. Server waiting: the share of \
         the window its threads were ready but waited for a core. Machine pressure: the share in which some task \
         on the machine waited for a core (/proc/pressure/cpu); well above 0, other work on the machine is in \
         the figures."
    );
    println!();
    println!(
        "| attack | attacker's rate /s | refused | person's moves | p99 none ms | p99 attack ms | p99 ratio \
         | ratio spread | peak RSS MB | RSS ratio | server CPU | server waiting | machine pressure |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|--:|");
    for attack in attacks {
        let ratios: Vec<f64> =
            of(attack).filter_map(|r| baseline(r.repetition).map(|b| r.outcome.p99() / b.outcome.p99())).collect();
        let spread = match (ratios.iter().copied().reduce(f64::min), ratios.iter().copied().reduce(f64::max)) {
            (Some(low), Some(high)) => format!("{low:.2} to {high:.2}"),
            _ => "-".to_string(),
        };
        let rss = of(attack).map(|r| r.outcome.peak_rss).max().unwrap_or(0);
        let sent: usize = of(attack).map(|r| r.outcome.attacker_requests).sum();
        let refused: usize = of(attack).map(|r| r.outcome.attacker_refused).sum();
        println!(
            "| {attack} | {:.1} | {} | {} | {base_p99:.2} | {:.2} | {:.2} | {spread} | {:.0} | {:.2} | {:.0}% | {:.0}% \
             | {:.0}% |",
            median(of(attack).map(|r| r.outcome.attacker_rate()).collect()),
            if sent == 0 { "-".to_string() } else { format!("{:.0}%", 100.0 * refused as f64 / sent as f64) },
            of(attack).map(|r| r.outcome.latencies.len()).sum::<usize>(),
            median(of(attack).map(|r| r.outcome.p99()).collect()),
            median(ratios.clone()),
            rss as f64 / 1e6,
            rss as f64 / base_rss.max(1) as f64,
            100.0 * median(of(attack).map(|r| r.outcome.server_cpu).collect()),
            100.0 * median(of(attack).map(|r| r.outcome.server_waited).collect()),
            100.0 * median(of(attack).map(|r| r.outcome.machine_pressure).collect()),
        );
    }
}

/// The server's peak resident memory, in bytes.
fn peak_rss(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).map(|v| v.trim().trim_end_matches(" kB").trim());
    kib.and_then(|k| k.parse::<u64>().ok()).unwrap_or(0) * 1024
}

/// The processor time a process has used so far (user and system), in seconds.
fn cpu_seconds(child: &Child) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap_or_default();
    // The fields after the command's name (which is in parentheses and may hold spaces).
    let fields: Vec<&str> = stat.rsplit_once(')').map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks: u64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<u64>().ok()).sum();
    // SAFETY: sysconf reads only its integer argument.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1);
    ticks as f64 / per_second as f64
}

/// The time the threads of `child` have spent waiting for a core so far
/// (the second field of each thread's `schedstat`), in seconds.
fn waited_seconds(child: &Child) -> f64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{}/task", child.id())) else { return 0.0 };
    let nanoseconds: u64 = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
        .filter_map(|stat| stat.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    nanoseconds as f64 / 1e9
}

/// The time so far in which some task on this machine waited for a core
/// (`some total=` of `/proc/pressure/cpu`), in seconds; 0 where unknown.
fn machine_pressure_seconds() -> f64 {
    let pressure = std::fs::read_to_string("/proc/pressure/cpu").unwrap_or_default();
    let total =
        pressure.lines().next().and_then(|some| some.split("total=").nth(1)).and_then(|t| t.trim().parse().ok());
    total.unwrap_or(0u64) as f64 / 1e6
}

/// What the attacker did: requests sent, and how many the server refused.
#[derive(Default)]
struct Tally {
    sent: AtomicUsize,
    refused: AtomicUsize,
}

/// A child process of this benchmark with `args`; its standard input is a
/// pipe (closing it stops the child) and its first line of output is read.
fn start_child(args: &[String]) -> (Child, BufReader<ChildStdout>) {
    let mut child = Command::new(std::env::current_exe().expect("this benchmark's path"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("a child process starts");
    let stdout = BufReader::new(child.stdout.take().expect("its output"));
    (child, stdout)
}

/// One attack (or `none`) against a fresh server: the person's moves over
/// `window`, and what the server and the attacker did meanwhile.
fn measure(attack: &str, window: Duration, cores: &Cores, store_in: Option<&str>) -> Outcome {
    let mut server_args = vec!["--serve".to_string()];
    if let Some(dir) = store_in {
        server_args.extend(["--store-in".to_string(), dir.to_string()]);
    }
    let (mut server, mut server_out) = start_child(&server_args);
    let mut port = String::new();
    server_out.read_line(&mut port).expect("the server's port");
    let port: u16 = port.trim().parse().expect("a port number");
    let mut attacker_args = vec!["--attack".to_string(), attack.to_string(), "--port".to_string(), port.to_string()];
    if let Some(core) = cores.attacker {
        attacker_args.extend(["--cpu".to_string(), core.to_string()]);
    }
    let (mut attacker, mut attacker_out) = start_child(&attacker_args);
    std::thread::sleep(TAKE_HOLD);
    let before = (cpu_seconds(&server), waited_seconds(&server), machine_pressure_seconds());
    let started = Instant::now();
    let latencies = play_on_own_runtime(SocketAddr::from(([127, 0, 0, 1], port)), window);
    let elapsed = started.elapsed().as_secs_f64();
    let server_cpu = (cpu_seconds(&server) - before.0) / elapsed;
    let server_waited = (waited_seconds(&server) - before.1) / elapsed;
    let machine_pressure = (machine_pressure_seconds() - before.2) / elapsed;
    drop(attacker.stdin.take());
    let mut tally = String::new();
    attacker_out.read_line(&mut tally).expect("the attacker's tally");
    let _ = attacker.wait();
    let peak_rss = peak_rss(&server);
    drop(server.stdin.take());
    let _ = server.wait();
    let tally: Vec<f64> = tally.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    let [sent, refused, seconds] = tally[..] else { panic!("the attacker's tally is three numbers: {tally:?}") };
    Outcome {
        latencies,
        peak_rss,
        server_cpu,
        server_waited,
        machine_pressure,
        attacker_requests: sent as usize,
        attacker_refused: refused as usize,
        attacker_seconds: seconds,
    }
}

/// [`play`] on a runtime of its own, on this process's core.
fn play_on_own_runtime(server: SocketAddr, window: Duration) -> Vec<f64> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("the person's runtime");
    runtime.block_on(play(server, window))
}

/// One of the person's games: its id, each seat's token, and its view as
/// the last reply gave it.
struct Board {
    id: String,
    tokens: Vec<String>,
    view: Value,
}

/// The person: chess against themself on [`PERSON_BOARDS`] games at once
/// through one keep-alive connection, a random legal move every
/// [`PERSON_PAUSE`], taking the games in turn, a new game where one ends;
/// each move's time from sending to acknowledgement.
async fn play(server: SocketAddr, window: Duration) -> Vec<f64> {
    let mut latencies = Vec::new();
    let mut http = http_connect(server).await.expect("the person connects");
    let mut boards = Vec::new();
    for _ in 0..PERSON_BOARDS {
        boards.push(new_board(&mut http).await);
    }
    let started = Instant::now();
    let mut rng = 0x2545F4914F6CDD1Du64;
    let mut turn = 0;
    while started.elapsed() < window {
        let board = &mut boards[turn % PERSON_BOARDS];
        turn += 1;
        let Some(action) = choose_move(&mut http, board, &mut rng).await else {
            *board = new_board(&mut http).await;
            continue;
        };
        let seat = to_act(&board.view).expect("a seat chose a move");
        let body = json!({"token": board.tokens[seat], "action": action}).to_string();
        let sent = Instant::now();
        let reply = post(&mut http, &format!("/api/games/{}/actions", board.id), body).await;
        latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
        match reply {
            Ok((200, bytes)) => board.view = serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            Ok((status, bytes)) => {
                panic!("the person's move was refused: {status} {}", String::from_utf8_lossy(&bytes))
            }
            Err(e) => panic!("the person's connection failed: {e}"),
        }
        tokio::time::sleep(PERSON_PAUSE).await;
    }
    latencies
}

/// The seat to act in a view, if any.
fn to_act(view: &Value) -> Option<usize> {
    view["view"]["to_act"].as_array()?.first()?.as_u64().map(|s| s as usize)
}

/// A random legal move of the seat to act, read from that seat's view
/// (kept as the board's view); None when the game is over.
async fn choose_move(http: &mut Http, board: &mut Board, rng: &mut u64) -> Option<String> {
    let seat = to_act(&board.view)?;
    board.view = fetch_view(http, &board.id, &board.tokens[seat]).await;
    let actions = board.view["view"]["actions"].as_array()?;
    if actions.is_empty() {
        return None;
    }
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    actions[(*rng % actions.len() as u64) as usize]["text"].as_str().map(String::from)
}

async fn new_board(http: &mut Http) -> Board {
    let body = json!({"variant": "chess", "seats": ["human", "human"]}).to_string();
    let (status, bytes) = post(http, "/api/games", body).await.expect("the person's connection holds");
    assert_eq!(status, 201, "the person's game: {}", String::from_utf8_lossy(&bytes));
    let created: common::Created = serde_json::from_slice(&bytes).expect("a created game");
    let tokens: Vec<String> = created.seats.into_iter().map(|s| s.token).collect();
    let view = fetch_view(http, &created.id, &tokens[0]).await;
    Board { id: created.id, tokens, view }
}

async fn fetch_view(http: &mut Http, id: &str, token: &str) -> Value {
    let reply = get(http, &format!("/api/games/{id}/view?token={token}")).await;
    serde_json::from_str(&reply).unwrap_or(Value::Null)
}

async fn get(http: &mut Http, path: &str) -> String {
    use http_body_util::{BodyExt, Full};
    let request = hyper::Request::get(path).header("host", "127.0.0.1").body(Full::default()).expect("a request");
    if http.ready().await.is_err() {
        return String::new();
    }
    let Ok(response) = http.send_request(request).await else { return String::new() };
    let body = response.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    String::from_utf8_lossy(&body).into_owned()
}

/// A connection from the attacker's address.
async fn attacker_connect(server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((ATTACKER, 0)))?;
    socket.connect(server).await
}

/// One whole request on a fresh attacker connection; its status (0 if none).
async fn attacker_request(server: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let Ok(mut stream) = attacker_connect(server).await else { return (0, String::new()) };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(head.as_bytes()).await.is_err() {
        return (0, String::new());
    }
    let mut reply = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut reply)).await;
    let status = reply.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

async fn attack_with(attack: String, server: SocketAddr, stop: Arc<AtomicBool>, tally: Arc<Tally>) {
    match attack.as_str() {
        "slowloris" => slowloris(server, &stop, &tally).await,
        "slowloris-elsewhere" => slowloris_elsewhere(&stop, &tally).await,
        "connections" => hold_connections(server, &stop, &tally).await,
        "games" => create_games(server, &stop, &tally).await,
        "chat" => chat_and_sweep(server, &stop, &tally).await,
        "computers" => computer_games(server, &stop, &tally).await,
        "golf" => golf_searches(server, &stop, &tally).await,
        _ => {}
    }
}

fn count(tally: &Tally, status: u16) {
    tally.sent.fetch_add(1, Ordering::Relaxed);
    if status == 0 || status >= 400 {
        tally.refused.fetch_add(1, Ordering::Relaxed);
    }
}

/// 1500 half-sent requests, kept at that number as the server cuts them off.
async fn slowloris(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let mut open: Vec<TcpStream> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let mut still = Vec::new();
        for stream in open.drain(..) {
            let mut byte = [0u8; 1];
            // A closed connection reads 0 bytes (or fails) at once; an open
            // one has nothing to read. Asked without waiting, so that a sweep
            // of 1500 sockets costs no timers.
            match stream.try_read(&mut byte) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => still.push(stream),
                _ => {
                    tally.refused.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        open = still;
        while open.len() < 1500 && !stop.load(Ordering::Relaxed) {
            let Ok(mut stream) = attacker_connect(server).await else { break };
            tally.sent.fetch_add(1, Ordering::Relaxed);
            if stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n").await.is_ok() {
                open.push(stream);
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The slowloris flood aimed at a listener of the attacker's own, which
/// refuses every connection as the server refuses one past its address's
/// cap (a 429, then closed), so that the flood's work is all on the
/// attacker's side and none of it in the server: the control that tells
/// what the flood costs the person through the machine alone.
async fn slowloris_elsewhere(stop: &AtomicBool, tally: &Tally) {
    let Ok(listener) = tokio::net::TcpListener::bind(SocketAddr::from((ATTACKER, 0))).await else { return };
    let Ok(address) = listener.local_addr() else { return };
    let refuse_all = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ =
                stream.try_write(b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    slowloris(address, stop, tally).await;
    refuse_all.abort();
}

/// Complete kept-alive connections, as many as the server admits and 100 more.
async fn hold_connections(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let mut held = Vec::new();
    for _ in 0..200 {
        let Ok(mut stream) = attacker_connect(server).await else { break };
        let request = b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n";
        let mut first = [0u8; 12];
        let ok = stream.write_all(request).await.is_ok()
            && tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut first))
                .await
                .is_ok_and(|r| r.is_ok());
        count(tally, if ok && first.starts_with(b"HTTP/1.1 200") { 200 } else { 429 });
        held.push(stream);
    }
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// New games from four connections at once, as fast as they are answered.
async fn create_games(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let body = json!({"variant": "chess"}).to_string();
    let flood = |_| async {
        while !stop.load(Ordering::Relaxed) {
            let (status, _) = attacker_request(server, "POST", "/api/games", &body).await;
            count(tally, status);
        }
    };
    futures_util::future::join_all((0..4).map(flood)).await;
}

/// Chat as fast as the seat may, and a spectator's change since every
/// version of the game, again and again.
async fn chat_and_sweep(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let (status, body) = attacker_request(server, "POST", "/api/games", &json!({"variant": "chess"}).to_string()).await;
    count(tally, status);
    let Ok(game) = serde_json::from_str::<Value>(&body) else { return };
    let (id, token) =
        (game["id"].as_str().unwrap_or("").to_string(), game["seats"][0]["token"].as_str().unwrap_or("").to_string());
    let mut version = 0;
    while !stop.load(Ordering::Relaxed) {
        let line = json!({"token": token, "action": format!("say {}", "x".repeat(290))}).to_string();
        let (status, _) = attacker_request(server, "POST", &format!("/api/games/{id}/actions"), &line).await;
        count(tally, status);
        if status == 200 {
            version += 1;
        }
        for since in 0..=version {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let (status, _) = attacker_request(server, "GET", &format!("/api/games/{id}/view?since={since}"), "").await;
            count(tally, status);
        }
    }
}

/// Twenty games of level-8 Zombie between computers, each watched.
async fn computer_games(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let body = json!({"variant": "zombie", "seats": ["computer:level8", "computer:level8"]}).to_string();
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let (status, reply) = attacker_request(server, "POST", "/api/games", &body).await;
        count(tally, status);
        let Some(id) = serde_json::from_str::<Value>(&reply).ok().and_then(|g| g["id"].as_str().map(String::from))
        else {
            continue;
        };
        // Through the attacker's address too, so that it counts as theirs.
        let Ok(stream) = attacker_connect(server).await else { continue };
        let url = format!("ws://{server}/api/games/{id}/ws");
        if let Ok((socket, _)) = tokio_tungstenite::client_async(url, stream).await {
            sockets.push(socket);
        }
    }
    // Read what the games send (and answer pings), until the window ends.
    while !stop.load(Ordering::Relaxed) {
        for socket in &mut sockets {
            while let Ok(Some(_)) = tokio::time::timeout(Duration::from_millis(1), socket.next()).await {}
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The hole that stalled a server, from the issue (a copy of
/// crates/games/tests/data/golf_stall_hole14.txt).
const STALLED_HOLE: &str = include_str!("../../games/tests/data/golf_stall_hole14.txt");

/// Rounds on the stalled hole answered "impossible", each searched to the
/// largest limit a client may set, and replayed by eight spectators.
async fn golf_searches(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let options = json!({"players": 1, "solver_nodes": chesskit_games::golf::round::MAX_SOLVER_NODES});
    let body = json!({"variant": "golf", "options": options, "position": STALLED_HOLE, "seats": ["human"]}).to_string();
    while !stop.load(Ordering::Relaxed) {
        let (status, reply) = attacker_request(server, "POST", "/api/games", &body).await;
        count(tally, status);
        let Ok(game) = serde_json::from_str::<Value>(&reply) else {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let (Some(id), Some(token)) = (game["id"].as_str(), game["seats"][0]["token"].as_str()) else {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let action = json!({"token": token, "action": "impossible"}).to_string();
        let (status, _) = attacker_request(server, "POST", &format!("/api/games/{id}/actions"), &action).await;
        count(tally, status);
        let past = format!("/api/games/{id}/view?at=1");
        let replays = (0..8).map(|_| attacker_request(server, "GET", &past, ""));
        for (status, _) in futures_util::future::join_all(replays).await {
            count(tally, status);
        }
    }
}
