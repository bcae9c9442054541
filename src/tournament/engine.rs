//! One engine process as the arbiter sees it: lines written to its stdin,
//! lines read from its stdout by a thread into a channel, so every wait has
//! a deadline. A closed stdout is a crash; a missed deadline is for the
//! caller to judge (hang or time loss).

use super::spec::EngineSpec;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A protocol transcript shared by every engine of a match (`--log`).
#[derive(Clone)]
pub struct Log {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl Log {
    pub fn create(path: &std::path::Path) -> Result<Log, String> {
        let file = File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
        Ok(Log { file: Arc::new(Mutex::new(file)), start: Instant::now() })
    }

    fn line(&self, who: &str, dir: char, text: &str) {
        let ms = self.start.elapsed().as_millis();
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        let _ = writeln!(f, "{ms:>9} {who} {dir} {text}");
    }
}

/// Why the arbiter got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Nothing that ends the wait arrived in time.
    Timeout,
    /// The process closed its output or its input: it exited or crashed.
    Exited(String),
}

/// What `uci` told us about an engine.
#[derive(Clone, Debug, Default)]
pub struct UciInfo {
    pub id_name: Option<String>,
    /// Option names as the engine wrote them.
    pub options: Vec<String>,
    /// The `var` values of a `UCI_Variant` combo, if the engine has one.
    pub variants: Option<Vec<String>>,
}

impl UciInfo {
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    fn read_option(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(type_at) = words.iter().position(|w| *w == "type") else { return };
        if words.len() < 3 || words[1] != "name" || type_at < 3 {
            return;
        }
        let name = words[2..type_at].join(" ");
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let vars = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1].to_string()).collect();
            self.variants = Some(vars);
        }
        self.options.push(name);
    }
}

/// The last search report before `bestmove`, for the record's comments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchNote {
    pub depth: Option<u32>,
    /// Centipawns or mate distance (moves), from the mover's side.
    pub score: Option<Score>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

impl SearchNote {
    fn read_info(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            match (*w, next) {
                ("depth", Some(d)) => self.depth = Some(d.clamp(0, u32::MAX as i64) as u32),
                ("cp", Some(v)) if i > 0 && words[i - 1] == "score" => self.score = Some(Score::Cp(v)),
                ("mate", Some(v)) if i > 0 && words[i - 1] == "score" => self.score = Some(Score::Mate(v)),
                _ => {}
            }
        }
    }
}

/// A running engine process.
pub struct EngineProcess {
    /// The engine's match name (for the log).
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<Log>,
    dead: bool,
}

impl EngineProcess {
    /// Starts the process; an error if it cannot be started at all.
    pub fn spawn(spec: &EngineSpec, log: Option<Log>) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // Its own process group, so killing a hung engine also ends any
        // helper processes it started (a wrapper script's children).
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child =
            cmd.spawn().map_err(|e| format!("cannot start engine {} ({}): {e}", spec.name, spec.command.join(" ")))?;
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        let (reader_log, who) = (log.clone(), spec.name.clone());
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if let Some(log) = &reader_log {
                            log.line(&who, '>', &line);
                        }
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess { name: spec.name.clone(), child, stdin, lines: rx, log, dead: false })
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        if let Some(log) = &self.log {
            log.line(&self.name, '<', line);
        }
        let Some(stdin) = self.stdin.as_mut() else { return Err(self.exited()) };
        let ok = stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush());
        ok.map_err(|_| self.exited())
    }

    /// The next line, if one arrives before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// Reads lines until one satisfies `done`, which it returns.
    pub fn wait_for(&mut self, deadline: Instant, mut done: impl FnMut(&str) -> bool) -> Result<String, Failure> {
        loop {
            let line = self.recv(deadline)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// Describes how the process ended (it closed its pipes), waiting a
    /// moment for its exit status.
    fn exited(&mut self) -> Failure {
        let deadline = Instant::now() + Duration::from_millis(300);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        self.dead = true;
        Failure::Exited(match status {
            Some(s) => describe_status(s),
            None => "closed its output".to_string(),
        })
    }

    /// `uci` … `uciok`, collecting the engine's options.
    pub fn handshake(&mut self, timeout: Duration) -> Result<UciInfo, Failure> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        let mut info = UciInfo::default();
        loop {
            let line = self.recv(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => return Ok(info),
                Some("option") => info.read_option(&line),
                Some("id") if words.next() == Some("name") => {
                    info.id_name = Some(words.collect::<Vec<_>>().join(" "));
                }
                _ => {}
            }
        }
    }

    /// `isready` … `readyok`; other lines (a late `bestmove`) are dropped.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(Instant::now() + timeout, |l| l.trim() == "readyok").map(|_| ())
    }

    /// Sends `go`, then waits until `deadline` for `bestmove`. Returns the
    /// move text, the wall time from writing `go` to reading `bestmove`,
    /// and the last search report.
    pub fn go(&mut self, go: &str, deadline: Instant) -> Result<(String, Duration, SearchNote), Failure> {
        let sent = Instant::now();
        self.send(go)?;
        let mut note = SearchNote::default();
        loop {
            let line = self.recv(deadline)?;
            let elapsed = sent.elapsed();
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => return Ok((words.next().unwrap_or("").to_string(), elapsed, note)),
                Some("info") => note.read_info(&line),
                _ => {}
            }
        }
    }

    /// Whether the process is known to have ended.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Asks the engine to quit and gives it a moment before killing it.
    pub fn quit(mut self) {
        if !self.dead && self.send("quit").is_ok() {
            self.stdin = None;
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills whatever is left.
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "exited".to_string(),
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            // The whole process group: the engine and anything it started.
            // Safe to aim at: the group id is the child's pid, which the
            // system does not reuse while the group has members.
            let pgid = self.child.id() as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals a process group;
            // it touches no memory of ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_options_and_variants_are_read() {
        let mut info = UciInfo::default();
        info.read_option("option name UCI_Variant type combo default catchess var catchess var chess");
        info.read_option("option name Move Overhead type spin default 30 min 0 max 5000");
        info.read_option("option name Clear Hash type button");
        info.read_option("option garbage");
        assert_eq!(info.options, ["UCI_Variant", "Move Overhead", "Clear Hash"]);
        assert_eq!(info.variants, Some(vec!["catchess".to_string(), "chess".to_string()]));
        assert!(info.has_option("move overhead"));
    }

    #[test]
    fn search_notes_keep_the_last_depth_and_score() {
        let mut n = SearchNote::default();
        n.read_info("info depth 3 seldepth 5 nodes 100 score cp -12 pv e2e4");
        assert_eq!(n, SearchNote { depth: Some(3), score: Some(Score::Cp(-12)) });
        n.read_info("info depth 4 score mate 2 pv a1a8");
        assert_eq!(n, SearchNote { depth: Some(4), score: Some(Score::Mate(2)) });
        n.read_info("info string outlook white 8 black 7 cats 85");
        assert_eq!(n.depth, Some(4));
    }
}
