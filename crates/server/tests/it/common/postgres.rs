//! A throwaway PostgreSQL server for tests, from Debian's package (the
//! binaries in /usr/lib/postgresql/VERSION/bin, or $CHESSKIT_PG_BIN): a
//! cluster in a fresh temporary directory, on a free loopback port,
//! stopped and removed when dropped. PostgreSQL refuses to run as root, so
//! as root its commands run as the `postgres` user (`runuser`), which owns
//! the directory. Shared by crates/server/tests/it/postgres.rs and
//! crates/cli/tests/it/server_postgres.rs; uses nothing but std.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running PostgreSQL server.
pub struct Postgres {
    dir: PathBuf,
    bin: PathBuf,
    as_postgres: bool,
    /// `postgres://chesskit@127.0.0.1:PORT/postgres` (trust authentication).
    pub url: String,
}

/// Start one, or say why not: without PostgreSQL the test is skipped with
/// a printed reason (None), except under CI=true, where it fails. The
/// tests are about processes dying, not power cuts: no fsync.
pub fn start() -> Option<Postgres> {
    start_with_fsync(false)
}

/// [`start`] with fsync on, as PostgreSQL ships: a commit is on disk before
/// it is acknowledged, as SQLite's are in chesskit (the capacity bench,
/// crates/cli/benches/capacity.rs, compares the two).
pub fn start_durable() -> Option<Postgres> {
    start_with_fsync(true)
}

fn start_with_fsync(fsync: bool) -> Option<Postgres> {
    let Some(bin) = find_bin() else {
        let why = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; `apt-get install postgresql`, \
                   as .ci/run does, or set CHESSKIT_PG_BIN)";
        if std::env::var("CI").is_ok_and(|ci| ci == "true") {
            panic!("{why}");
        }
        eprintln!("skipped: {why}");
        return None;
    };
    let as_postgres = run_output("id", &["-u"]).trim() == "0";
    // Tests in one binary start their servers side by side: a count tells
    // the directories of one process apart.
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "chesskit-pg-{}-{}-{}",
        std::process::id(),
        STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
    ));
    std::fs::create_dir(&dir).unwrap();
    if as_postgres {
        let uid: u32 =
            run_output("id", &["-u", "postgres"]).trim().parse().expect("a postgres user (Debian's package makes one)");
        let gid: u32 = run_output("id", &["-g", "postgres"]).trim().parse().unwrap();
        std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).unwrap();
    }
    let mut server = Postgres { url: String::new(), dir, bin, as_postgres };
    let data = server.dir.join("data");
    server.run("initdb", &["-D", path(&data), "-A", "trust", "-U", "chesskit", "-E", "UTF8", "--no-sync"]);
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let fsync = if fsync { "on" } else { "off" };
    let options = format!("-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync={fsync}", path(&server.dir));
    let log = server.dir.join("log");
    server.run("pg_ctl", &["-D", path(&data), "-l", path(&log), "-w", "-t", "60", "-o", &options, "start"]);
    server.url = format!("postgres://chesskit@127.0.0.1:{port}/postgres");
    Some(server)
}

impl Postgres {
    /// The postmaster's process id (the first line of `postmaster.pid`):
    /// it and its children are the whole server, for counting CPU time.
    pub fn pid(&self) -> Option<u32> {
        let file = std::fs::read_to_string(self.dir.join("data").join("postmaster.pid")).ok()?;
        file.lines().next()?.trim().parse().ok()
    }

    fn run(&self, program: &str, args: &[&str]) {
        let program = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&program);
            command
        } else {
            Command::new(&program)
        };
        let output = command.args(args).current_dir(&self.dir).output().unwrap();
        assert!(
            output.status.success(),
            "{} {args:?} failed: {}{}",
            program.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if !self.url.is_empty() {
            let data = self.dir.join("data");
            self.run("pg_ctl", &["-D", path(&data), "-m", "immediate", "-w", "stop"]);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The newest installed PostgreSQL's binaries.
fn find_bin() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("CHESSKIT_PG_BIN") {
        return Some(PathBuf::from(bin)).filter(|bin| bin.join("initdb").exists());
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn run_output(program: &str, args: &[&str]) -> String {
    let output = Command::new(program).args(args).output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap()
}
