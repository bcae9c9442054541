//! One engine process as the arbiter sees it: lines written to its stdin,
//! lines read from its stdout by a thread into a bounded channel, so every
//! wait has a deadline and memory stays bounded whatever the engine writes.
//! A line longer than [`MAX_LINE`] is a fault; an exited process (noticed
//! by its exit status, not only by its closed stdout, which a grandchild
//! may hold open) is a crash; a missed deadline is for the caller to judge
//! (hang or time loss).
//!
//! Containment: every engine runs in its own process group, with an
//! environment variable naming it ([`TAG_VAR`]). When an engine is killed
//! (or ends), its group is killed and, on Linux, every process that still
//! carries its tag, which catches children that left the group with
//! `setsid` (a child that also clears its environment escapes; run the
//! match in a cgroup, e.g. `systemd-run --user --scope`, to contain those).
//!
//! An arbiter that dies without cleaning up (SIGKILL, a crash): on Linux
//! each engine is started with `PR_SET_PDEATHSIG`, so the kernel kills it
//! the moment its arbiter's thread is gone; what the engine itself started
//! (its own children) is found by its tag and killed when the next match
//! starts ([`reap_orphans`]): the tag names the arbiter by pid and start
//! time, so an arbiter still running keeps its engines.

use super::spec::EngineSpec;
use catchess_game::pgn::record::SearchNote;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line an engine may write (bytes, without the newline).
pub const MAX_LINE: usize = 1 << 20;
/// Lines read ahead of the arbiter per engine: with [`MAX_LINE`], a bound
/// on the memory one engine's output can take.
const LINES_AHEAD: usize = 8;
/// How often a wait checks whether the process has exited or the match
/// was cancelled.
const POLL: Duration = Duration::from_millis(20);
/// The environment variable that marks an engine's processes.
pub const TAG_VAR: &str = "CATCHESS_ARBITER_ENGINE";

/// Process groups of the engines alive now, for [`kill_all`].
static LIVE_GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
static SERIAL: AtomicU64 = AtomicU64::new(0);

/// The tag of this arbiter's engines: `<arbiter pid>:<its start time>.`
/// then a serial. The start time tells this arbiter from a later process
/// that was given the same pid.
fn tag_prefix() -> String {
    format!("{}:{}.", std::process::id(), start_time(std::process::id()).unwrap_or(0))
}

/// When process `pid` started (clock ticks since boot, `/proc/<pid>/stat`
/// field 22); `None` if there is no such process (or no `/proc`).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces; the start time is the 20th of them.
    stat.get(stat.rfind(')')? + 1..)?.split_whitespace().nth(19)?.parse().ok()
}

/// Kills the processes of engines whose arbiter is gone: killed without
/// a chance to clean up, it left its engines' children behind (the
/// engines themselves die with it, by `PR_SET_PDEATHSIG`). Called as a
/// match starts. Linux only, as the tags are read from `/proc`.
pub fn reap_orphans() -> usize {
    let mut killed = 0;
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id();
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        let needle = format!("{TAG_VAR}=");
        for entry in dir.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            if pid == me {
                continue;
            }
            let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
            let Some(tag) = env.split(|&b| b == 0).find_map(|var| var.strip_prefix(needle.as_bytes())) else {
                continue;
            };
            let arbiter = std::str::from_utf8(tag).ok().and_then(|t| {
                let (pid, rest) = t.split_once(':')?;
                let (started, _) = rest.split_once('.')?;
                Some((pid.parse::<u32>().ok()?, started.parse::<u64>().ok()?))
            });
            // An untagged or foreign value is left alone; so is an engine
            // whose arbiter runs (same pid, same start time).
            let Some((arbiter_pid, started)) = arbiter else { continue };
            if start_time(arbiter_pid) == Some(started) {
                continue;
            }
            // SAFETY: kill(2) with a pid just read; it touches no memory of ours.
            if unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) } == 0 {
                killed += 1;
            }
        }
    }
    killed
}

/// Kills every engine this arbiter started and everything they started
/// (on SIGINT/SIGTERM, or when the match is abandoned).
pub fn kill_all() {
    #[cfg(unix)]
    {
        let groups = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
        for &g in groups.iter() {
            // SAFETY: kill(2) on a process group; the group's leader is an
            // unreaped child of ours (removed from the list before it is
            // reaped), so the id cannot have been reused.
            unsafe {
                libc::kill(-g, libc::SIGKILL);
            }
        }
    }
    kill_tagged(&tag_prefix(), true);
}

/// Kills every process whose environment has `TAG_VAR=<tag>` (or, with
/// `prefix`, a value starting with `tag`). Linux only: elsewhere the
/// process group is all there is.
fn kill_tagged(tag: &str, prefix: bool) {
    #[cfg(target_os = "linux")]
    {
        let me = std::process::id();
        let Ok(dir) = std::fs::read_dir("/proc") else { return };
        let needle = format!("{TAG_VAR}={tag}");
        for entry in dir.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
            if pid == me {
                continue;
            }
            let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
            let hit = env
                .split(|&b| b == 0)
                .any(|var| var.starts_with(needle.as_bytes()) && (prefix || var.len() == needle.len()));
            if hit {
                // SAFETY: kill(2) with a pid just read; it touches no memory of ours.
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                }
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (tag, prefix);
}

/// A protocol transcript shared by every engine of a match (`--log`), cut
/// off at a size limit; a write error stops it and is reported.
#[derive(Clone)]
pub struct Log {
    state: Arc<Mutex<LogState>>,
    start: Instant,
}

struct LogState {
    file: Option<File>,
    path: String,
    written: u64,
    limit: u64,
    error: Option<String>,
}

impl Log {
    pub fn create(path: &std::path::Path, limit: u64) -> Result<Log, String> {
        let file = File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
        let state = LogState { file: Some(file), path: path.display().to_string(), written: 0, limit, error: None };
        Ok(Log { state: Arc::new(Mutex::new(state)), start: Instant::now() })
    }

    fn line(&self, who: &str, dir: char, text: &str) {
        let ms = self.start.elapsed().as_millis();
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let s = &mut *s;
        let Some(file) = s.file.as_mut() else { return };
        let mut line = format!("{ms:>9} {who} {dir} {text}\n");
        let full = s.written + line.len() as u64 > s.limit;
        if full {
            line = format!("{ms:>9} log limit of {} bytes reached: nothing more is logged\n", s.limit);
        }
        match file.write_all(line.as_bytes()) {
            Ok(()) => s.written += line.len() as u64,
            Err(e) => {
                let msg = format!("writing log {}: {e}; logging stopped", s.path);
                eprintln!("warning: {msg}");
                s.error = Some(msg);
                s.file = None;
            }
        }
        if full {
            s.file = None;
        }
    }

    /// The write error that stopped the log, if one did.
    pub fn error(&self) -> Option<String> {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).error.clone()
    }
}

/// Why the arbiter got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Nothing that ends the wait arrived in time.
    Timeout,
    /// The process exited, or closed its output or its input.
    Exited(String),
    /// The engine wrote a line longer than [`MAX_LINE`].
    LineTooLong,
    /// The match is being stopped (a signal): the answer no longer matters.
    Cancelled,
}

/// What the reader thread passes on.
enum Msg {
    Line(String),
    TooLong,
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

    pub fn read_option(&mut self, line: &str) {
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

/// A running engine process.
pub struct EngineProcess {
    /// The engine's match name (for the log).
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Msg>,
    log: Option<Log>,
    cancel: Arc<AtomicBool>,
    tag: String,
    dead: bool,
    /// Whether `child` has been waited for (its pid may then be reused).
    reaped: bool,
}

/// Reads `stdout` line by line into `tx`, never holding more than
/// [`MAX_LINE`] bytes of a line: a longer line is reported once
/// ([`Msg::TooLong`]) and skipped up to its newline.
fn read_lines(stdout: impl Read, tx: std::sync::mpsc::SyncSender<Msg>, log: Option<Log>, who: String) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf: Vec<u8> = Vec::new();
    let mut skipping = false;
    let send = |buf: &mut Vec<u8>| {
        let line = String::from_utf8_lossy(buf).trim_end_matches('\r').to_string();
        buf.clear();
        if let Some(log) = &log {
            log.line(&who, '>', &line);
        }
        tx.send(Msg::Line(line)).is_ok()
    };
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => break,
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (part, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        let used = part.len() + usize::from(newline);
        if !skipping {
            if buf.len() + part.len() > MAX_LINE {
                skipping = true;
                buf = Vec::new();
                if let Some(log) = &log {
                    log.line(&who, '>', &format!("(a line of more than {MAX_LINE} bytes, not kept)"));
                }
                if tx.send(Msg::TooLong).is_err() {
                    return;
                }
            } else {
                buf.extend_from_slice(part);
            }
        }
        reader.consume(used);
        if newline {
            if !skipping && !send(&mut buf) {
                return;
            }
            skipping = false;
        }
    }
    if !skipping && !buf.is_empty() {
        send(&mut buf);
    }
}

impl EngineProcess {
    /// Starts the process; an error if it cannot be started at all.
    /// `cancel` set makes every wait end at once with [`Failure::Cancelled`].
    pub fn spawn(spec: &EngineSpec, log: Option<Log>, cancel: Arc<AtomicBool>) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let tag = format!("{}{}", tag_prefix(), SERIAL.fetch_add(1, Ordering::Relaxed));
        cmd.env(TAG_VAR, &tag);
        // Its own process group, so killing a hung engine also ends any
        // helper processes it started (a wrapper script's children).
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        // The engine dies with the arbiter, however the arbiter ends.
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            let arbiter = std::process::id() as libc::pid_t;
            // SAFETY: between fork and exec the closure calls only prctl(2),
            // getppid(2) and raise(3), which are async-signal-safe, and
            // allocates nothing.
            unsafe {
                cmd.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    // The arbiter died before the signal was set: the
                    // kernel will not send it now.
                    if libc::getppid() != arbiter {
                        libc::raise(libc::SIGKILL);
                    }
                    Ok(())
                });
            }
        }
        let mut child =
            cmd.spawn().map_err(|e| format!("cannot start engine {} ({}): {e}", spec.name, spec.command.join(" ")))?;
        LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner()).push(child.id() as i32);
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take();
        let (tx, rx) = sync_channel(LINES_AHEAD);
        let (reader_log, who) = (log.clone(), spec.name.clone());
        std::thread::spawn(move || read_lines(stdout, tx, reader_log, who));
        Ok(EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            log,
            cancel,
            tag,
            dead: false,
            reaped: false,
        })
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

    /// Whether the process has exited, without reaping it (so its process
    /// group id stays ours until [`Self::reap`]).
    fn has_exited(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        #[cfg(unix)]
        {
            // SAFETY: waitid(2) writes only into `info`, a zeroed siginfo_t
            // we own; WNOWAIT leaves the child unreaped.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let r = libc::waitid(
                    libc::P_PID,
                    self.child.id() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                r == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        {
            matches!(self.child.try_wait(), Ok(Some(_)))
        }
    }

    /// The next line, if one arrives before `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        loop {
            if self.cancel.load(Ordering::SeqCst) {
                return Err(Failure::Cancelled);
            }
            let slice = deadline.saturating_duration_since(Instant::now()).min(POLL);
            match self.lines.recv_timeout(slice) {
                Ok(Msg::Line(line)) => return Ok(line),
                Ok(Msg::TooLong) => return Err(Failure::LineTooLong),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
                Err(RecvTimeoutError::Timeout) => {
                    if self.has_exited() {
                        // What it wrote before exiting may still be on its way.
                        return match self.lines.recv_timeout(Duration::from_millis(50)) {
                            Ok(Msg::Line(line)) => Ok(line),
                            Ok(Msg::TooLong) => Err(Failure::LineTooLong),
                            Err(_) => Err(self.exited()),
                        };
                    }
                    if Instant::now() >= deadline {
                        return Err(Failure::Timeout);
                    }
                }
            }
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

    /// Kills what the engine started, then the engine if it still runs,
    /// and reaps it. Returns its exit status if it had exited by itself.
    fn reap(&mut self) -> Option<std::process::ExitStatus> {
        if self.reaped {
            return None;
        }
        let exited_by_itself = self.has_exited();
        #[cfg(unix)]
        {
            // The whole process group: the engine and anything it started.
            // The group id is the child's pid, still ours: it is unreaped.
            let pgid = self.child.id() as libc::pid_t;
            let mut groups = LIVE_GROUPS.lock().unwrap_or_else(|p| p.into_inner());
            // SAFETY: kill(2) with a negative pid signals a process group;
            // it touches no memory of ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            groups.retain(|&g| g != pgid);
        }
        kill_tagged(&self.tag, false);
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        self.reaped = true;
        self.dead = true;
        status.filter(|_| exited_by_itself)
    }

    /// Describes how the process ended (it exited, or closed its pipes),
    /// waiting a moment for its exit status; what it started is killed.
    fn exited(&mut self) -> Failure {
        let deadline = Instant::now() + Duration::from_millis(300);
        while !self.has_exited() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let status = self.reap();
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
                if self.has_exited() {
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
        self.reap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: Vec<u8>) -> Vec<Option<String>> {
        let (tx, rx) = sync_channel(LINES_AHEAD);
        let reader = std::thread::spawn(move || read_lines(std::io::Cursor::new(input), tx, None, "t".into()));
        let out = rx
            .iter()
            .map(|m| match m {
                Msg::Line(l) => Some(l),
                Msg::TooLong => None,
            })
            .collect();
        reader.join().unwrap();
        out
    }

    #[test]
    fn lines_past_the_cap_are_reported_once_and_skipped() {
        let mut input = b"uciok\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE));
        input.extend(b"\nbestmove e2e4\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE));
        input.extend(b"\n\xff tail");
        assert_eq!(
            lines_of(input),
            [
                Some("uciok".into()),
                None,
                Some("bestmove e2e4".into()),
                Some("y".repeat(MAX_LINE)),
                Some("\u{fffd} tail".into())
            ]
        );
        // A long line without a newline before the end.
        assert_eq!(lines_of(vec![b'z'; MAX_LINE + 1]), [None]);
    }

    #[test]
    fn the_log_stops_at_its_limit_and_reports_write_errors() {
        let path = std::env::temp_dir().join(format!("catchess-log-test-{}", std::process::id()));
        let log = Log::create(&path, 200).unwrap();
        for i in 0..100 {
            log.line("engine", '>', &format!("info depth {i}"));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(text.len() < 300 && text.ends_with("nothing more is logged\n"), "{text}");
        assert!(text.contains("info depth 0") && !text.contains("info depth 99"), "{text}");
        assert_eq!(log.error(), None);
        if std::path::Path::new("/dev/full").exists() {
            let log = Log::create(std::path::Path::new("/dev/full"), 1000).unwrap();
            log.line("engine", '<', "uci");
            let err = log.error().expect("a write to /dev/full fails");
            assert!(err.contains("writing log /dev/full") && err.contains("logging stopped"), "{err}");
        }
    }

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
}
