//! `chesskit serve --host ADDR`: 127.0.0.1 by default; another address
//! (0.0.0.0: every interface) is served with a note on who can reach it and
//! what protects the games; a bad address is a clear error. And
//! `--background-at-usual-priority`, which test suites give their server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Start `chesskit serve` with these extra arguments; the child and the
/// lines it printed before listening (the first one names the address).
fn serve(name: &str, extra: &[&str], lines: usize) -> (Child, Vec<String>) {
    let dir = temp_dir(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["serve", "--port", "0", "--db"])
        .arg(dir.join("games.db"))
        .arg("--web")
        .arg(dir.join("no-client"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let printed = (0..lines)
        .map(|_| {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            line
        })
        .collect();
    (child, printed)
}

fn port_of(first_line: &str, host: &str) -> u16 {
    first_line
        .split(&format!("http://{host}:"))
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no {host} port in {first_line:?}"))
}

/// GET /api/variants over loopback: the status line.
fn status_of_variants(port: u16) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    reply.lines().next().unwrap_or_default().to_string()
}

#[test]
fn by_default_the_server_listens_on_this_computer_only() {
    let (mut child, lines) = serve("serve-default-host", &[], 1);
    let port = port_of(&lines[0], "127.0.0.1");
    assert_eq!(status_of_variants(port), "HTTP/1.1 200 OK");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn host_0_0_0_0_listens_everywhere_and_says_what_protects_the_games() {
    let (mut child, lines) = serve("serve-any-host", &["--host", "0.0.0.0"], 3);
    let port = port_of(&lines[0], "0.0.0.0");
    assert!(lines[1].contains("every network interface"), "{lines:?}");
    assert!(lines[2].contains("token") && lines[2].contains("no TLS"), "{lines:?}");
    assert_eq!(status_of_variants(port), "HTTP/1.1 200 OK", "loopback reaches it too");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_host_that_is_no_ip_address_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["serve", "--host", "my computer", "--port", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--host") && stderr.contains("invalid IP address"), "{stderr}");
}

/// The scheduling policy (`policy`, field 41 of `/proc/PID/task/TID/stat`)
/// of each thread of process `pid` named `name`.
fn policies_of_threads_named(pid: u32, name: &str) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
    let named = tasks
        .flatten()
        .filter(|task| std::fs::read_to_string(task.path().join("comm")).is_ok_and(|comm| comm.trim_end() == name));
    named
        .filter_map(|task| {
            let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
            // The fields after the name, which ends at the last ')', start at field 3.
            stat.rsplit_once(')')?.1.split_whitespace().nth(41 - 3)?.parse().ok()
        })
        .collect()
}

/// Linux's SCHED_OTHER and SCHED_IDLE (sched.h).
const SCHED_OTHER: u32 = 0;
const SCHED_IDLE: u32 = 5;

/// The policies of the accept thread of a server started with `extra`,
/// once it has accepted a connection (it lowers its priority first).
fn accept_thread_policies(name: &str, extra: &[&str]) -> Vec<u32> {
    let (mut child, lines) = serve(name, extra, 1);
    assert_eq!(status_of_variants(port_of(&lines[0], "127.0.0.1")), "HTTP/1.1 200 OK");
    let policies = policies_of_threads_named(child.id(), "chesskit-accept");
    child.kill().unwrap();
    child.wait().unwrap();
    policies
}

#[test]
#[cfg(target_os = "linux")]
fn background_work_runs_at_the_idle_policy_unless_a_test_suite_asks_for_the_usual() {
    assert_eq!(accept_thread_policies("serve-idle", &[]), [SCHED_IDLE], "a server for people");
    assert_eq!(
        accept_thread_policies("serve-usual", &["--background-at-usual-priority"]),
        [SCHED_OTHER],
        "a test suite's server"
    );
}
