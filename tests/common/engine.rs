//! Drives the real `catchess` binary over its protocol, as a GUI would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
}

pub const WAIT: Duration = Duration::from_secs(20);

impl Engine {
    /// The engine as a GUI starts it: no arguments (standard chess until
    /// the client sets `UCI_Variant`).
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine started on Cat Chess (`--variant catchess`).
    pub fn catchess() -> Engine {
        Engine::start_with(&["--variant", "catchess"])
    }

    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catchess"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut engine = Engine { child, stdin, lines: rx, transcript: Vec::new() };
        // The engine says who it is before anything is asked (Stockfish's
        // start line); `catchess random` does not.
        if !args.contains(&"random") {
            let first = engine.next_line(WAIT).expect("a start line");
            assert!(first.starts_with("catchess ") && first.contains("help"), "start line: {first}");
        }
        engine
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read.
    pub fn until(&mut self, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let done = pred(&l);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!("timed out; transcript:\n{}", self.transcript.join("\n")),
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command and returns its output (up to the sync point).
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Runs `go ...` to its `bestmove` and returns (info lines, best move).
    pub fn go(&mut self, params: &str) -> (Vec<String>, String) {
        self.send(&format!("go {params}"));
        let mut lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines.pop().unwrap();
        (lines, best.split_whitespace().nth(1).unwrap_or("").to_string())
    }

    /// The process id, to read its memory use from /proc.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to exit by itself; true if it did in time.
    pub fn exits_within(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
