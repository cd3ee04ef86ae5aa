//! The referee driver shared by the tests that talk to `chesskit referee`
//! through the real binary: one JSON request a line in, one JSON reply a
//! line out.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

/// A running `chesskit referee`, killed when dropped.
pub struct Referee {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Referee {
    pub fn start() -> Referee {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
            .arg("referee")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start chesskit referee");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Referee { child, stdin, stdout }
    }

    /// Send one JSON request and read its reply.
    pub fn send(&mut self, request: Value) -> Value {
        self.send_raw(&request.to_string())
    }

    /// Send a line as it is (perhaps not JSON at all).
    pub fn send_raw(&mut self, line: &str) -> Value {
        self.send_bytes(line.as_bytes())
    }

    /// Send a line of raw bytes (perhaps not UTF-8).
    pub fn send_bytes(&mut self, line: &[u8]) -> Value {
        self.stdin.write_all(line).and_then(|_| self.stdin.write_all(b"\n")).unwrap();
        self.stdin.flush().unwrap();
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("reply is not JSON ({e}): {reply}"))
    }

    /// Ask for an action for a seat; the reply says whether it was taken.
    pub fn act(&mut self, seat: u64, action: &str) -> Value {
        self.send(json!({"cmd": "act", "seat": seat, "action": action}))
    }

    /// Take an action that must be accepted.
    pub fn act_ok(&mut self, seat: u64, action: &str) -> Value {
        let reply = self.act(seat, action);
        assert_eq!(reply["ok"], true, "{action}: {reply}");
        reply
    }
}

impl Drop for Referee {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The error text of a reply that must be a refusal.
pub fn error_of(reply: &Value) -> &str {
    assert_eq!(reply["ok"], false, "expected an error: {reply}");
    reply["error"].as_str().expect("error text")
}

/// Run `chesskit` with `args`, typing `input` on its standard input, and
/// wait for it to end (a `play` session driven to its last line).
pub fn chesskit_with_input(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run chesskit");
    child.stdin.take().expect("piped stdin").write_all(input).expect("write the input");
    child.wait_with_output().expect("chesskit ends")
}

/// The kinds of the markers a view shows on `square` (none for a square it
/// does not list).
pub fn markers_on<'a>(view: &'a Value, square: &str) -> Vec<&'a str> {
    view["view"]["board"]["squares"]
        .as_array()
        .expect("a board")
        .iter()
        .find(|s| s["square"] == square)
        .map(|s| s["markers"].as_array().map_or(vec![], |m| m.iter().map(|m| m["kind"].as_str().unwrap()).collect()))
        .unwrap_or_default()
}

/// What `chesskit play` writes to clear the screen and the scrollback
/// (xterm, tmux and compatible terminals) before it passes the keyboard
/// on from a screen that holds a secret.
pub const CLEAR_SCREEN_AND_SCROLLBACK: &str = "\x1b[2J\x1b[3J\x1b[H";

/// The next seat's screen in a `play` transcript: everything after the
/// clear that follows `typed_at` (the prompt where the secret was typed),
/// which must come before `pass` (the line that passes the keyboard).
pub fn screen_after_the_clear<'a>(transcript: &'a str, typed_at: &str, pass: &str) -> &'a str {
    let typed = transcript.find(typed_at).unwrap_or_else(|| panic!("no prompt {typed_at:?}: {transcript}"));
    let passed = transcript.find(pass).unwrap_or_else(|| panic!("no {pass:?}: {transcript}"));
    let cleared = transcript[typed..]
        .find(CLEAR_SCREEN_AND_SCROLLBACK)
        .map(|at| typed + at)
        .unwrap_or_else(|| panic!("the screen is not cleared after {typed_at:?}: {transcript:?}"));
    assert!(cleared < passed, "the clear comes before {pass:?}: {transcript:?}");
    &transcript[cleared..]
}

/// The port a `chesskit serve` started with `--port 0` announces on its
/// first line ("… http://127.0.0.1:PORT/ …"), and that line.
pub fn port_announced(stdout: &mut BufReader<ChildStdout>) -> (u16, String) {
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in the server's first line {line:?}"));
    (port, line)
}
