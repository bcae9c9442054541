//! `catchess serve` as a process of its own on a loopback port (the
//! persistence, shutdown and load tests): started, asked over HTTP,
//! signalled, and measured through /proc.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Serve {
    pub child: Child,
    pub addr: String,
    /// What it wrote on stderr but its address line (what it said of the
    /// stored games before it, what it reports after).
    pub log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Serve {
    /// Starts `catchess serve --port 0 --db <db>` plus `args`, and waits
    /// for the line that gives its address.
    pub fn start(db: &Path, args: &[&str]) -> Serve {
        let mut child = serve_command(db, args).spawn().expect("catchess serve starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut before = Vec::new();
        let addr = loop {
            let line = lines.next().unwrap_or_else(|| panic!("no address; stderr: {before:?}")).expect("stderr");
            if let Some(rest) = line.split("open http://").nth(1) {
                break rest.split('/').next().unwrap().to_string();
            }
            before.push(line);
        };
        let log = std::sync::Arc::new(std::sync::Mutex::new(before));
        let keep = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                keep.lock().unwrap().push(line);
            }
        });
        Serve { child, addr, log }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What it has written on stderr so far, but its address line.
    pub fn logged(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// A request and its answer: status and JSON body.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        self.call_within(method, path, body, Duration::from_secs(30)).expect("an answer")
    }

    /// `call`, giving up and disconnecting after `timeout` (`None`).
    pub fn call_within(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        timeout: Duration,
    ) -> Option<(u16, Value)> {
        super::http::call_within(&self.addr, method, path, body, timeout)
    }

    /// Sends a signal by name (`TERM`, `INT`, `KILL`).
    pub fn signal(&self, name: &str) {
        let ok = Command::new("kill").args([&format!("-{name}"), &self.pid().to_string()]).status().unwrap();
        assert!(ok.success(), "kill -{name}");
    }

    /// Waits up to `limit` for the process to end: its exit code (None if
    /// by a signal), or Err after `limit` (then it is killed).
    pub fn wait_exit(&mut self, limit: Duration) -> Result<Option<i32>, String> {
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Ok(status.code());
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return Err(format!("still running after {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Resident memory, in KiB (`VmRSS`).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// CPU time used so far (user + system), in clock ticks.
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // The fields after the command name, which is in parentheses.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // utime and stime are fields 14 and 15 of the whole line.
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `catchess serve --host 127.0.0.1 --port 0 --db <db>` plus `args`, its
/// stderr piped.
fn serve_command(db: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_catchess"));
    command
        .args(["serve", "--host", "127.0.0.1", "--port", "0", "--db", db.to_str().unwrap()])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Runs `catchess serve --port 0 --db <db>` plus `args`, which must
/// refuse to start: its stderr, once it has exited with a failure (a
/// server that starts instead is killed after 10 s, failing the test).
pub fn refused(db: &Path, args: &[&str]) -> String {
    let mut child = serve_command(db, args).spawn().expect("catchess serve runs");
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("catchess serve --db {} started instead of refusing", db.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "exit {status}: {err}");
    err
}

/// Clock ticks per second (`getconf CLK_TCK`).
pub fn ticks_per_second() -> u64 {
    let out = Command::new("getconf").arg("CLK_TCK").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(100)
}

/// A fresh folder for a test's database.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
