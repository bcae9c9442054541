//! `catchess random`: an engine that answers `go` with a random legal turn
//! (a uniformly random move, in games of one move a turn), for every variant. A baseline opponent, and a test opponent
//! for the match runner: its `Faults` option makes it misbehave on purpose
//! (an illegal move, a crash, a hang, a late answer) so the arbiter's fault
//! handling can be tested with a real process.
//!
//! The choice is a hash of the `Seed` option, the position and the number
//! of moves played, so a game replays exactly, whichever process or order
//! the games are played in.

use super::command::{Command, GoParams, Start};
use super::Output;
use catchess_core::hash::mix;
use catchess_game::{random_turn, Game, History, MoveList, SeatInfo};
use catchess_games::{with_game, Playable, VariantKind};
use std::io::BufRead;
use std::time::Duration;

pub const RANDOM_NAME: &str = concat!("catchess-random ", env!("CARGO_PKG_VERSION"));

/// A deliberate misbehaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misbehaviour {
    /// Answer with a move that is not legal.
    Illegal,
    /// Exit at once (code 3) without answering.
    Crash,
    /// Never answer again, nor read another command.
    Hang,
    /// Sleep past the clock (or move time) by 300 ms, then answer.
    Slow,
}

/// `Faults` option: `<side>=<fault>[@<n>]` entries separated by commas or
/// spaces (from the n-th `go` of a game as that side on, default the
/// first), and `noready` (never answer `isready`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultPlan {
    pub by_side: Vec<(String, Misbehaviour, u32)>,
    pub no_ready: bool,
}

impl FaultPlan {
    pub fn parse(text: &str) -> Result<FaultPlan, String> {
        let mut plan = FaultPlan::default();
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            match item {
                "none" => {}
                "noready" => plan.no_ready = true,
                _ => {
                    let usage =
                        || format!("fault {item:?}: expected <side>=illegal|crash|hang|slow[@n], noready or none");
                    let (side, rest) = item.split_once('=').ok_or_else(usage)?;
                    let (kind, after) = match rest.split_once('@') {
                        Some((k, n)) => (k, n.parse::<u32>().map_err(|_| usage())?.max(1)),
                        None => (rest, 1),
                    };
                    let kind = match kind {
                        "illegal" => Misbehaviour::Illegal,
                        "crash" => Misbehaviour::Crash,
                        "hang" => Misbehaviour::Hang,
                        "slow" => Misbehaviour::Slow,
                        _ => return Err(usage()),
                    };
                    plan.by_side.push((side.to_ascii_lowercase(), kind, after));
                }
            }
        }
        Ok(plan)
    }
}

/// The game so far, for whichever game `UCI_Variant` names: the one place
/// the random engine meets a run-time variant (built by `with_game!`).
trait RandomGame: Send {
    /// Replaces the game by `start` and `moves`, playing only the moves
    /// beyond the current ones when they extend them (see [`history`]).
    fn set_position(&mut self, start: Start, moves: Vec<String>) -> Result<(), String>;
    /// The seat to move (index and description), a random legal move
    /// (`None` when the game is over) and a move that is not legal here.
    fn choose(&self, seed: u64) -> (usize, SeatInfo, Option<String>, String);
    /// The `rolls` answer (the roll the side to move may ask for).
    fn rolls(&self) -> String;
}

/// The game of [`RandomGame`] for game `G`.
struct Played<G: Playable> {
    start: Start,
    moves: Vec<String>,
    history: History<G>,
}

impl<G: Playable> Played<G> {
    fn new() -> Self {
        Played { start: Start::StartPos, moves: Vec::new(), history: History::new(G::startpos()) }
    }
}

impl<G: Playable> RandomGame for Played<G> {
    fn set_position(&mut self, start: Start, moves: Vec<String>) -> Result<(), String> {
        self.history = history::<G>(&start, &moves, Some((&self.start, &self.moves, &self.history)))?;
        self.start = start;
        self.moves = moves;
        Ok(())
    }

    fn choose(&self, seed: u64) -> (usize, SeatInfo, Option<String>, String) {
        choose(&self.history, seed)
    }

    fn rolls(&self) -> String {
        super::rolls::rolls_line(&self.history)
    }
}

struct RandomEngine {
    variant: VariantKind,
    seed: u64,
    faults: FaultPlan,
    game: Box<dyn RandomGame>,
    /// `go` commands per seat since the game began.
    goes: Vec<u32>,
}

/// The game after `start` and `moves`, as `position` gives them. When
/// `previous` is the game of the last `position` from the same start and
/// `moves` extends its moves, only the new ones are played: an arbiter
/// sends the whole game before every move, and replaying it each time
/// would make a long game quadratic.
fn history<G: Playable>(
    start: &Start,
    moves: &[String],
    previous: Option<(&Start, &[String], &History<G>)>,
) -> Result<History<G>, String> {
    let (mut h, done) = match previous {
        Some((s, m, h)) if s == start && moves.starts_with(m) => (h.clone(), m.len()),
        _ => {
            let first = match start {
                Start::StartPos => G::startpos(),
                Start::Fen(fen) => G::from_fen(fen).map_err(|e| format!("position: {e}"))?,
            };
            (History::new(first), 0)
        }
    };
    for (i, text) in moves.iter().enumerate().skip(done) {
        // Unlike the real engine, no check that the game had not already
        // ended before a move: that costs a repetition scan per move, and
        // an arbiter never sends moves after the end.
        h.push_protocol(text).map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
    }
    Ok(h)
}

/// What to answer to `go`: the seat to move (index and description), a
/// random legal turn as one token (`None` when the game is over), and a
/// turn that is not legal here. In a game whose turns take several steps
/// the turn is random steps until the next turn begins (`random_turn`),
/// each chosen as a one-move game's move is, so one-move games keep the
/// same choices. Asking for a roll (Cat's Chess 10×10's `T@?` and
/// `reroll`) is one of the choices, and ends the answer there, so matches
/// against it roll the arbiter's dice.
fn choose<G: Playable>(h: &History<G>, seed: u64) -> (usize, SeatInfo, Option<String>, String) {
    let pos = h.current();
    let played = h.moves().len();
    let pick = if h.outcome().is_some() {
        None
    } else {
        random_turn(pos, true, |p, k, attempt, n| {
            let mixed = seed ^ if attempt == 0 { 0 } else { mix(attempt) };
            let r = mix(mixed ^ mix(p.key() ^ ((played + k) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D)));
            (r % n as u64) as usize
        })
        .map(|steps| pos.turn_text(&steps))
    };
    // An illegal answer: the pass if it is not legal, else a legal turn or
    // first move played backwards that is not itself a legal turn.
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let backwards = |m: &str| {
        let (a, b) = m.split_at(m.len() / 2);
        format!("{b}{a}")
    };
    let illegal = std::iter::once("0000".to_string())
        .chain(pick.as_deref().map(backwards))
        .chain(list.iter().map(|m| backwards(&m.to_string())))
        .find(|m| pos.parse_turn(m).is_err())
        .unwrap_or_else(|| "z9z9".to_string());
    let seat = pos.to_move().index();
    (seat, G::SEATS[seat], pick, illegal)
}

impl RandomEngine {
    fn new(variant: VariantKind) -> Self {
        let mut engine = RandomEngine {
            variant,
            seed: 0,
            faults: FaultPlan::default(),
            game: Self::game(variant),
            goes: Vec::new(),
        };
        engine.new_game();
        engine
    }

    fn game(variant: VariantKind) -> Box<dyn RandomGame> {
        with_game!(variant, G => Box::new(Played::<G>::new()))
    }

    fn new_game(&mut self) {
        self.game = Self::game(self.variant);
        self.goes = vec![0; with_game!(self.variant, G => G::SEATS.len())];
    }

    fn go(&mut self, params: &GoParams, out: &Output) {
        let (seat, info, pick, illegal) = self.game.choose(self.seed);
        self.goes[seat] += 1;
        let count = self.goes[seat];
        let fault = self
            .faults
            .by_side
            .iter()
            .find(|(s, _, after)| s == info.name && count >= *after)
            .map(|(_, kind, _)| *kind);
        match fault {
            Some(Misbehaviour::Crash) => {
                out.line("info string crashing on purpose (Faults)");
                std::process::exit(3);
            }
            Some(Misbehaviour::Hang) => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Some(Misbehaviour::Illegal) => {
                out.line(&format!("bestmove {illegal}"));
                return;
            }
            Some(Misbehaviour::Slow) => {
                let budget = params.movetime.or(params.clock(info.clock)).unwrap_or_default();
                std::thread::sleep(budget + Duration::from_millis(300));
            }
            None => {}
        }
        match pick {
            Some(m) => out.line(&format!("bestmove {m}")),
            None => {
                out.error("go: the game is over");
                out.line("bestmove (none)");
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                self.variant = value.parse()?;
                self.new_game();
            }
            "seed" => {
                self.seed = value.parse().map_err(|_| format!("option 'Seed' takes a whole number, got '{value}'"))?
            }
            "faults" => self.faults = FaultPlan::parse(value)?,
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }
}

/// Runs the random engine until `quit` or the end of input.
pub fn run(input: impl BufRead, out: Output) {
    let mut engine = RandomEngine::new(catchess_engine::defaults::PROTOCOL_GAME);
    super::serve(input, &out, |command| match command {
        Command::Uci => {
            out.line(&format!("id name {RANDOM_NAME}"));
            out.line(&format!("id author {}", super::ENGINE_AUTHOR));
            let vars: Vec<String> = VariantKind::ALL.iter().map(|v| format!("var {v}")).collect();
            out.line(&format!(
                "option name UCI_Variant type combo default {} {}",
                catchess_engine::defaults::PROTOCOL_GAME,
                vars.join(" ")
            ));
            out.line("option name Seed type spin default 0 min 0 max 2147483647");
            out.line("option name Faults type string default none");
            out.line("uciok");
        }
        Command::IsReady => {
            if !engine.faults.no_ready {
                out.line("readyok");
            }
        }
        Command::UciNewGame => engine.new_game(),
        Command::SetOption { name, value } => {
            if let Err(e) = engine.set_option(&name, value.as_deref()) {
                out.error(&format!("setoption: {e}"));
            }
        }
        Command::Position { start, moves } => {
            if let Err(e) = engine.game.set_position(start, moves) {
                out.error(&format!("{e}; position unchanged"));
            }
        }
        Command::Go(params) if params.perft.is_some() => out.error("go perft: not supported by the random engine"),
        Command::Go(params) => engine.go(&params, &out),
        Command::Stop | Command::PonderHit | Command::Debug(_) => {}
        Command::Rolls => out.line(&engine.game.rolls()),
        Command::Display | Command::Eval | Command::Outcome | Command::Help | Command::Spsa => {
            out.error("not supported by the random engine")
        }
        Command::Quit => {}
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::Notation;

    #[test]
    fn fault_plans() {
        let p = FaultPlan::parse("white=illegal,cats=hang@3 black=crash").unwrap();
        assert_eq!(
            p.by_side,
            [
                ("white".to_string(), Misbehaviour::Illegal, 1),
                ("cats".to_string(), Misbehaviour::Hang, 3),
                ("black".to_string(), Misbehaviour::Crash, 1)
            ]
        );
        assert!(!p.no_ready);
        assert!(FaultPlan::parse("noready").unwrap().no_ready);
        assert_eq!(FaultPlan::parse("none").unwrap(), FaultPlan::default());
        assert!(FaultPlan::parse("white=explode").is_err());
        assert!(FaultPlan::parse("white").is_err());
    }

    #[test]
    fn answers_are_legal_and_the_illegal_move_is_not() {
        use catchess_games::CatChess;
        for plies in 0..6 {
            let moves: Vec<String> =
                ["e2e4", "e7e5", "h5g4", "g1f3", "b8c6", "a4b4"][..plies].iter().map(|s| s.to_string()).collect();
            let h = history::<CatChess>(&Start::StartPos, &moves, None).unwrap();
            let (_, _, pick, illegal) = choose::<CatChess>(&h, 1);
            assert!(h.current().parse_move(&pick.unwrap()).is_ok());
            assert!(h.current().parse_move(&illegal).is_err(), "{illegal}");
        }
        // Mated: no move.
        let mate: Vec<String> = ["f2f3", "e7e5", "g2g4", "d8h4"].iter().map(|s| s.to_string()).collect();
        let h = history::<catchess_games::Chess>(&Start::StartPos, &mate, None).unwrap();
        assert_eq!(choose(&h, 0).2, None);
        // Extending a game plays only the new moves; another start replays.
        let short = &mate[..2];
        let h2 = history::<catchess_games::Chess>(&Start::StartPos, short, None).unwrap();
        let h3 = history(&Start::StartPos, &mate, Some((&Start::StartPos, short, &h2))).unwrap();
        assert_eq!(h3.current().to_fen(), h.current().to_fen());
        let fen = Start::Fen(catchess_games::Chess::startpos().to_fen());
        let h4 = history(&fen, short, Some((&Start::StartPos, &mate, &h))).unwrap();
        assert_eq!(h4.current().to_fen(), h2.current().to_fen());
    }

    /// In a game of several steps a turn (catschess10, reached by its
    /// variant name: these modules name no game), the answer is a whole
    /// turn (the next position begins a turn), never a step; the illegal
    /// answer is an illegal turn; the same seed and game give the same turn.
    #[test]
    fn answers_whole_turns_in_games_of_several_steps() {
        let variant: VariantKind = "catschess10".parse().unwrap();
        with_game!(variant, G => whole_turns::<G>());
    }

    fn whole_turns<G: Playable>() {
        assert!(!G::ONE_MOVE_TURNS);
        let mut h = History::new(G::startpos());
        let mut rolls = 0;
        for seed in 0..60u64 {
            if h.outcome().is_some() {
                break;
            }
            let (seat, _, pick, illegal) = choose::<G>(&h, seed);
            assert_eq!(seat, h.current().to_move().index());
            let turn = pick.expect("the game goes on");
            assert_eq!(choose::<G>(&h, seed).2.as_deref(), Some(turn.as_str()));
            assert!(h.current().parse_turn(&illegal).is_err(), "{illegal}");
            let before = h.moves().len();
            h.push_answer(&turn).unwrap_or_else(|e| panic!("{turn}: {e}"));
            if !h.current().is_chance() {
                assert!(h.moves().len() >= before + 2, "a turn is a pick and a destination at least: {turn}");
                assert!(h.current().at_turn_start(), "{turn} leaves the turn open");
                assert_eq!(h.turn_texts().last(), Some(&turn));
                continue;
            }
            // A roll asked for: roll as the arbiter does, and let the
            // engine answer until the turn is complete.
            rolls += 1;
            while !h.current().at_turn_start() {
                if h.current().is_chance() {
                    h.take_back(h.current().arbiter_rewind());
                    let mut list = catchess_game::MoveList::default();
                    h.current().legal_moves(&mut list);
                    h.push(list.as_slice()[seed as usize % list.len()]);
                } else {
                    let rest = choose::<G>(&h, seed).2.expect("the turn goes on");
                    h.push_answer(&rest).unwrap_or_else(|e| panic!("{rest}: {e}"));
                }
            }
            assert!(h.turn_texts().last().unwrap().starts_with("T@"), "{:?}", h.turn_texts());
        }
        assert!(h.turn_count() >= 10);
        assert!(rolls > 0, "the engine asks for rolls too");
    }
}
