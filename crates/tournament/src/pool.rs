//! Engine processes for the games: each engine checked once before the
//! match ([`preflight`]), and per worker a pool of processes set up for a
//! new game and reused from game to game ([`Pool`]), so a game's first
//! step, starting its seats, costs a `ucinewgame` and not a process start.

use super::engine::{EngineProcess, Failure, UciInfo, MAX_LINE};
use super::play::{failure_breach, Arbiter, Breach};
use super::spec::EngineSpec;
use catchess_games::VariantKind;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Idle engine processes of one worker, by engine, reused across games.
#[derive(Default)]
pub struct Pool {
    idle: Vec<Vec<EngineProcess>>,
}

impl Pool {
    /// A process of engine `e` ready for a new game: an idle one after
    /// `ucinewgame`, or a fresh one after `uci` and its options.
    pub(super) fn checkout(&mut self, arbiter: &Arbiter, e: usize) -> Result<EngineProcess, Breach> {
        if self.idle.len() <= e {
            self.idle.resize_with(e + 1, Vec::new);
        }
        match self.idle[e].pop() {
            Some(mut p) => match p.send("ucinewgame").and_then(|_| p.sync(arbiter.timeout)) {
                Ok(()) => Ok(p),
                // Dropping the process kills it; the next game starts a new one.
                Err(f) => Err(failure_breach(f, "readyok", arbiter.timeout)),
            },
            None => start(arbiter, e),
        }
    }

    /// Takes back a process after its game, unless it has died.
    pub(super) fn checkin(&mut self, e: usize, p: EngineProcess) {
        if !p.is_dead() {
            self.idle[e].push(p);
        }
    }

    /// Ends every idle process.
    pub fn shutdown(self) {
        for p in self.idle.into_iter().flatten() {
            p.quit();
        }
    }
}

/// Starts engine `e` and sets it up: `uci`, `UCI_Variant`, the options,
/// `isready`.
fn start(arbiter: &Arbiter, e: usize) -> Result<EngineProcess, Breach> {
    let spec = &arbiter.engines[e];
    let timeout = arbiter.timeout;
    let mut p = EngineProcess::spawn(spec, arbiter.log.clone(), arbiter.cancel.clone()).map_err(Breach::crash)?;
    let info = p.handshake(timeout).map_err(|f| failure_breach(f, "uciok", timeout))?;
    for line in setup_lines(spec, &info, arbiter.variant) {
        p.send(&line).map_err(|f| failure_breach(f, "setoption", timeout))?;
    }
    p.send("ucinewgame").map_err(|f| failure_breach(f, "ucinewgame", timeout))?;
    p.sync(timeout).map_err(|f| failure_breach(f, "readyok", timeout))?;
    Ok(p)
}

/// The `setoption` lines for an engine: the variant (whenever the engine
/// has `UCI_Variant`, so a Cat Chess engine asked to play chess plays
/// chess), then the user's options in order.
pub fn setup_lines(spec: &EngineSpec, info: &UciInfo, variant: VariantKind) -> Vec<String> {
    let mut lines = Vec::new();
    if info.has_option("UCI_Variant") {
        lines.push(format!("setoption name UCI_Variant value {variant}"));
    }
    for (name, value) in &spec.options {
        lines.push(format!("setoption name {name} value {value}"));
    }
    lines
}

/// Checks before a match that an engine starts, speaks UCI, plays the
/// variant and has the options it is given. Errors are the user's to fix,
/// so they stop the match before it starts.
pub fn preflight(
    spec: &EngineSpec,
    variant: VariantKind,
    timeout: Duration,
    cancel: Arc<AtomicBool>,
) -> Result<UciInfo, String> {
    let mut p = EngineProcess::spawn(spec, None, cancel)?;
    let info = p.handshake(timeout).map_err(|f| match f {
        Failure::Timeout => format!("engine {}: no uciok within {:.1} s", spec.name, timeout.as_secs_f64()),
        Failure::Exited(how) => format!("engine {}: {how} before uciok", spec.name),
        Failure::LineTooLong => format!("engine {}: a line of more than {MAX_LINE} bytes before uciok", spec.name),
        Failure::Cancelled => "the match was stopped".to_string(),
    })?;
    p.quit();
    match &info.variants {
        Some(vars) if !vars.iter().any(|v| v == variant.name()) => {
            return Err(format!("engine {} does not play {variant} (its UCI_Variant: {})", spec.name, vars.join(", ")));
        }
        // A UCI engine without the option plays the default game.
        None if variant != catchess_engine::defaults::PROTOCOL_GAME => {
            return Err(format!(
                "engine {} has no UCI_Variant option, so it plays only {}, not {variant}",
                spec.name,
                catchess_engine::defaults::PROTOCOL_GAME
            ));
        }
        _ => {}
    }
    for (name, _) in &spec.options {
        if !info.has_option(name) {
            return Err(format!("engine {} has no option {name:?} (it has: {})", spec.name, info.options.join(", ")));
        }
    }
    Ok(info)
}
