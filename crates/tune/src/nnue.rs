//! `catchess train`: learns a chess, xiangqi or Cat Chess evaluation
//! network (`games::nnue`, with `games::chess::nnue`'s,
//! `games::xiangqi::nnue`'s or `games::chess::nnue::cats`'s inputs) from the
//! project's own game records and datagen files. Each quiet position of a
//! record (as `catchess tune` picks them) is a sample; its target blends
//! the game's result with the search's score of the move played there. The
//! network learns in floating point by Adam, then is rounded to the
//! integers the engine reads. A game of two sides learns on the squared
//! error of its win expectation, `sigmoid(K · value)` with the K that fits
//! the hand-made evaluation best (so the network speaks the same
//! centipawns as the evaluation the search was tuned with); Cat Chess's
//! network predicts its three outcomes and learns on their cross-entropy,
//! the score read as three chances by `three_way::chances`, the reading the
//! search's value of the network's chances inverts (`Reading`).
//!
//! Held-out games (one in ten) measure it against the hand-made evaluation
//! on the same positions and targets.

use super::data::{self, Filter, Sample};
use super::fit::{best_k, sigmoid};
use super::selfplay;
use catchess_core::{Color, Square};
use catchess_games::chess::nnue as chess_nnue;
use catchess_games::nnue::{
    mover_view, softmax, Kind, Network, Outputs, Shape, CLIP, HIDDEN, OUTPUT_CLIP, QA, QB, SCALE,
};
use catchess_games::xiangqi::nnue as xiangqi_nnue;
use catchess_games::xiangqi::{Square as XqSquare, Xiangqi};
use catchess_games::CatChess;
use catchess_games::{Chess, VariantKind};
use catchess_search::three_way;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// What a sample keeps of its position, in 40 bytes (10 M positions fit
/// in memory): its men as bulletformat lays them out, but from white's
/// (red's) view (occupied squares, then a nibble per man in square order:
/// `colour << 3 | role`, white 0, the role as its game's network numbers
/// them, or `NEUTRAL` for a cat), who is to move, and the hand-made
/// evaluation (white's view, centipawns within i16) to compare with, with
/// its scale in 1/64 (a correction is scaled with it).
#[derive(Clone, Copy, Debug)]
pub struct Packed {
    /// The occupied squares' bits, low 64 then high (two u64 rather than a
    /// u128, whose 16-byte alignment would make an example 64 bytes).
    occupied: [u64; 2],
    pieces: [u8; MAX_MEN / 2],
    pub(crate) hand_made: i16,
    hand_made_scale: u8,
    pub(crate) black_to_move: bool,
}

/// The most men a packed position holds: Cat Chess's 32 and two cats.
const MAX_MEN: usize = 34;

/// A man's nibble: `colour << 3 | role` (roles below 7).
fn nibble(color: Color, role: u8) -> u8 {
    (color as u8) << 3 | role
}

/// The nibble of a neutral man (a cat): no colour-and-role nibble of
/// chess's or xiangqi's men (roles below 7) is this.
const NEUTRAL: u8 = 15;

impl Packed {
    /// `None` for a position the network cannot hold (more than 32 pieces).
    pub fn of(pos: &Chess) -> Option<Packed> {
        let hand_made = pos.hand_made();
        let men = Square::all().filter_map(|sq| pos.piece_at(sq).map(|p| (sq.index(), nibble(p.color, p.role as u8))));
        Packed::of_men(men, 32, pos.side_to_move().color() == Some(Color::Black), hand_made.value, hand_made.scale)
    }

    /// The xiangqi position `pos` (`None`: more than 32 men).
    pub fn of_xiangqi(pos: &Xiangqi) -> Option<Packed> {
        let men = XqSquare::all()
            .filter_map(|sq| pos.piece_at(sq).map(|p| (sq.index(), nibble(p.color, p.role.index() as u8))));
        Packed::of_men(men, 32, pos.side_to_move() == Color::Black, pos.hand_made_value(), 64)
    }

    /// The Cat Chess position `pos`, cats and all (`None`: more than 32
    /// pieces and 2 cats). The cats' turn is packed as white's: the
    /// network reads it from white's view (`chess::nnue::cats`).
    pub fn of_catchess(pos: &CatChess) -> Option<Packed> {
        let hand_made = pos.hand_made();
        let men = Square::all().filter_map(|sq| match pos.piece_at(sq) {
            Some(p) => Some((sq.index(), nibble(p.color, p.role as u8))),
            None => pos.cats().contains(sq).then_some((sq.index(), NEUTRAL)),
        });
        let black_to_move = pos.side_to_move().color() == Some(Color::Black);
        Packed::of_men(men, MAX_MEN, black_to_move, hand_made.value, hand_made.scale)
    }

    /// `men` (square, nibble), lowest square first, at most `most`.
    fn of_men(
        men: impl Iterator<Item = (usize, u8)>,
        most: usize,
        black_to_move: bool,
        hand_made: i32,
        scale: i32,
    ) -> Option<Packed> {
        let mut p = Packed {
            occupied: [0; 2],
            pieces: [0; MAX_MEN / 2],
            hand_made_scale: u8::try_from(scale).ok()?,
            hand_made: hand_made.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
            black_to_move,
        };
        for (count, (square, code)) in men.enumerate() {
            if count == most.min(MAX_MEN) {
                return None;
            }
            p.occupied[square / 64] |= 1 << (square % 64);
            p.pieces[count / 2] |= code << (4 * (count % 2));
        }
        Some(p)
    }

    /// White's view's input of every man, in `shape`'s numbering.
    fn white_inputs<'a>(&'a self, shape: &'a Shape) -> impl Iterator<Item = usize> + 'a {
        let mut bits = u128::from(self.occupied[0]) | u128::from(self.occupied[1]) << 64;
        (0..bits.count_ones() as usize).map(move |i| {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let code = self.pieces[i / 2] >> (4 * (i % 2)) & 15;
            if code == NEUTRAL {
                return shape.neutral_input(0, square);
            }
            shape.input(code >> 3 == 1, usize::from(code & 7), square)
        })
    }
}

/// One position to learn from or to measure on: its pieces, the search's
/// score (centipawns, white's view; `NO_SCORE` if the record has none) and
/// its game's ending, and the target they blend into (`blend`). 56 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub(crate) input: Packed,
    /// White's win expectation (a game of two sides), or white's and
    /// black's chances (the near-zero seat's is the rest).
    target: [f32; 2],
    score: i16,
    ending: Ending,
}

/// How a position's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// A game of two sides: white's points in halves (0, 1 or 2).
    Points(u8),
    /// A game of three outcomes: 0 white mated, 1 black mated, 2 the
    /// near-zero seat (Cat Chess's cats) won.
    Won(u8),
}

/// A prediction or a target, white's view: in a game of two sides the
/// first is white's win expectation and the others 0; in a game of three
/// outcomes white's, black's and the near-zero seat's chances.
pub(crate) type Chances = [f64; 3];

/// `Example::score` of a position whose record has no score.
const NO_SCORE: i16 = i16::MIN;

impl Example {
    /// The example of `input`, white's score `score` (`None`: no score;
    /// clipped to the 16 bits kept, far past where the win expectation
    /// stops moving) and white's points `result` (0, 1/2 or 1).
    pub fn new(input: Packed, score: Option<f64>, result: f64) -> Example {
        let points = Ending::Points((result * 2.0).round() as u8);
        Example { input, target: [result as f32, 0.0], score: Example::keep(score), ending: points }
    }

    /// The example of a game of three outcomes, won by `winner`: 0 white
    /// (black mated), 1 black, 2 the near-zero seat.
    pub fn of_three(input: Packed, score: Option<f64>, winner: u8) -> Example {
        let mut e =
            Example { input, target: [0.0; 2], score: Example::keep(score), ending: Ending::Won(winner.min(2)) };
        let [white, black, _] = e.ending_chances();
        e.target = [white as f32, black as f32];
        e
    }

    /// The score kept: clipped to 16 bits, far past where any reading of
    /// it stops moving.
    fn keep(score: Option<f64>) -> i16 {
        score.map_or(NO_SCORE, |cp| cp.round().clamp(-32000.0, 32000.0) as i16)
    }

    /// White's points: in a game of three outcomes 1 for white's mate, 0
    /// for the rest.
    pub(crate) fn result(&self) -> f64 {
        match self.ending {
            Ending::Points(halves) => f64::from(halves) / 2.0,
            Ending::Won(winner) => f64::from(u8::from(winner == 0)),
        }
    }

    /// The ending as chances (`Chances`): certain ones.
    fn ending_chances(&self) -> Chances {
        match self.ending {
            Ending::Points(_) => [self.result(), 0.0, 0.0],
            Ending::Won(winner) => std::array::from_fn(|i| f64::from(u8::from(usize::from(winner) == i))),
        }
    }

    pub(crate) fn score(&self) -> Option<f64> {
        (self.score != NO_SCORE).then_some(f64::from(self.score))
    }

    fn target(&self) -> Chances {
        let [a, b] = self.target.map(f64::from);
        match self.ending {
            Ending::Points(_) => [a, 0.0, 0.0],
            Ending::Won(_) => [a, b, (1.0 - a - b).max(0.0)],
        }
    }

    /// Sets the target: the ending, blended with what `reading` makes of
    /// the score if there is a score.
    fn blend(&mut self, lambda: f64, reading: Reading) {
        let ending = self.ending_chances();
        let target = self.score().map_or(ending, |score| {
            let read = reading.of_value(score);
            std::array::from_fn(|i| lambda * ending[i] + (1.0 - lambda) * read[i])
        });
        self.target = [target[0] as f32, target[1] as f32];
    }
}

/// How the trainer reads a value and scores a prediction against a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Reading {
    /// A game of two sides: white's win expectation `sigmoid(K · value)`,
    /// scored by its squared error.
    Expectation { k: f64 },
    /// A game of three outcomes: a value reads as `three_way::chances`,
    /// a network's outputs as their softmax; scored by the divergence of
    /// the prediction from the target (their cross-entropy less the
    /// target's own entropy: 0 for a perfect prediction).
    ThreeOutcomes,
}

impl Reading {
    /// The chances a value (centipawns, white's view) stands for.
    fn of_value(self, cp: f64) -> Chances {
        match self {
            Reading::Expectation { k } => [sigmoid(k, cp), 0.0, 0.0],
            Reading::ThreeOutcomes => three_way::chances(cp),
        }
    }

    /// The loss of `predicted` against `target`.
    fn loss(self, predicted: Chances, target: Chances) -> f64 {
        match self {
            Reading::Expectation { .. } => (target[0] - predicted[0]).powi(2),
            Reading::ThreeOutcomes => target
                .iter()
                .zip(&predicted)
                .filter(|(&t, _)| t > 0.0)
                .map(|(&t, &p)| t * (t / p.max(1e-12)).ln())
                .sum(),
        }
    }

    /// The mean loss of `predict` against `target` over `examples`.
    fn mean_loss(
        self,
        examples: &[Example],
        predict: impl Fn(&Example) -> Chances,
        target: impl Fn(&Example) -> Chances,
    ) -> f64 {
        let sum: f64 = examples.iter().map(|e| self.loss(predict(e), target(e))).sum();
        sum / examples.len().max(1) as f64
    }
}

/// The games `catchess train` learns networks for, each with its inputs
/// (`Shape`) and its `EvalFile` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainGame {
    Chess,
    Xiangqi,
    CatChess,
}

impl TrainGame {
    /// The game of `--variant`, if it has networks.
    pub fn of(variant: VariantKind) -> Result<TrainGame, String> {
        match variant {
            VariantKind::Chess => Ok(TrainGame::Chess),
            VariantKind::Xiangqi => Ok(TrainGame::Xiangqi),
            VariantKind::CatChess => Ok(TrainGame::CatChess),
            other => Err(format!("train: {other} has no network to learn yet (chess, xiangqi and catchess have)")),
        }
    }

    pub fn shape(self) -> &'static Shape {
        match self {
            TrainGame::Chess => &catchess_games::nnue::CHESS,
            TrainGame::Xiangqi => &catchess_games::nnue::XIANGQI,
            TrainGame::CatChess => &catchess_games::nnue::CATCHESS,
        }
    }

    /// The network `name` (a file or `<built-in>`), as `EvalFile` reads it.
    pub fn read_network(self, name: &str) -> Result<Network, String> {
        match self {
            TrainGame::Chess => chess_nnue::CHOICE.read(name),
            TrainGame::Xiangqi => xiangqi_nnue::CHOICE.read(name),
            TrainGame::CatChess => chess_nnue::cats::CHOICE.read(name),
        }
    }

    /// The network built in for the game, if it has one.
    fn built_in(self) -> Option<Network> {
        self.read_network(catchess_games::nnue::BUILT_IN_NAME).ok()
    }
}

/// What `catchess train` is asked to do.
#[derive(Clone, Debug)]
pub struct TrainArgs {
    pub game: TrainGame,
    /// PGN files of `catchess match` records.
    pub records: Vec<String>,
    /// `catchess datagen` files of the game (standard chess: bulletformat;
    /// xiangqi: the project's own); they mix with the records, each
    /// position with its own target.
    pub data: Vec<String>,
    pub filter: Filter,
    pub settings: Settings,
    /// The share of the game result in each target (see `TuneArgs::lambda`).
    pub lambda: f64,
    /// A network to go on learning from instead of random weights (of
    /// `settings.kind`): the records a network was learnt from need not be
    /// kept, since new games can refine it.
    pub init: Option<Network>,
}

#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub epochs: usize,
    /// Adam's step size at the first step and at the last: it falls in
    /// a straight line between them. Ending small lets the last steps
    /// settle instead of jumping about the minimum at full size.
    pub rate: f32,
    pub final_rate: f32,
    pub batch: usize,
    pub threads: usize,
    /// Seeds the first weights and the order of the samples.
    pub seed: u64,
    /// The whole value, or a correction to the hand-made evaluation.
    pub kind: Kind,
}

/// What a training run did.
pub struct TrainReport {
    /// Games of the PGN records.
    pub games: usize,
    /// Positions of the datagen files, and the games told apart in them.
    pub data_positions: usize,
    pub data_games: usize,
    pub train: usize,
    pub validation: usize,
    /// The K of a game of two sides (`Reading::Expectation`).
    pub k: Option<f64>,
    /// Held-out loss against the targets: the hand-made evaluation's, the
    /// network's as learnt (floating point) and as the engine reads it.
    pub hand_made_loss: f64,
    pub float_loss: f64,
    pub network_loss: f64,
    /// The same against the game results alone.
    pub hand_made_result_loss: f64,
    pub network_result_loss: f64,
    /// The network built into the engine on the same positions (against
    /// the targets, against the results): what a new one has to beat, if
    /// the game has one.
    pub built_in_loss: Option<(f64, f64)>,
    pub network: Network,
}

/// One game in this many is held out (as in `catchess tune`).
pub(crate) const VALIDATION_EVERY: usize = 10;

/// Whether the game numbered `game` is held out.
pub(crate) fn held_out(game: usize) -> bool {
    game % VALIDATION_EVERY == VALIDATION_EVERY - 1
}

impl TrainArgs {
    /// The settings the training can work with.
    pub fn check(&self) -> Result<(), String> {
        let s = &self.settings;
        if self.game != TrainGame::Chess && !self.records.is_empty() {
            return Err(format!(
                "train: {} learns from datagen files (--data); --pgn reads standard chess",
                self.game.shape().game
            ));
        }
        if self.records.is_empty() && self.data.is_empty() {
            return Err("train: give positions to learn from: --pgn FILE or --data FILE (or both)".to_string());
        }
        if !(s.rate > 0.0 && s.rate.is_finite()) || s.epochs == 0 || s.batch == 0 {
            return Err("train: --rate must be a positive number, --epochs and --batch at least 1".to_string());
        }
        if !(s.final_rate >= 0.0 && s.final_rate.is_finite()) {
            return Err("train: --final-rate must be a number of at least 0".to_string());
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err("train: --lambda must be between 0 and 1".to_string());
        }
        Ok(())
    }
}

/// `catchess train`: checks the settings, reads the network to start from
/// (`init`: a file or `<built-in>`), learns, writes the network to `out`
/// and reports on stderr.
pub fn command(mut args: TrainArgs, init: Option<&str>, out: &str) -> Result<(), String> {
    args.check()?;
    let game = args.game;
    args.init = init.map(|name| game.read_network(name)).transpose().map_err(|e| format!("train: --init: {e}"))?;
    let report = run(&args, |line| eprintln!("{line}"))?;
    std::fs::write(out, report.network.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    let k = report.k.map_or("three outcomes, no K".to_string(), |k| format!("K {k:.4}"));
    eprintln!(
        "{} games of records, {} datagen positions ({} games told apart): {} positions learnt from, {} held out; {k}",
        report.games, report.data_positions, report.data_games, report.train, report.validation
    );
    let built_in =
        |loss: fn((f64, f64)) -> f64| report.built_in_loss.map_or("none".to_string(), |l| format!("{:.6}", loss(l)));
    eprintln!(
        "held-out loss against the targets: hand-made {:.6}, built-in network {}, network {:.6} (as learnt {:.6})",
        report.hand_made_loss,
        built_in(|l| l.0),
        report.network_loss,
        report.float_loss
    );
    eprintln!(
        "held-out loss against the results: hand-made {:.6}, built-in network {}, network {:.6}",
        report.hand_made_result_loss,
        built_in(|l| l.1),
        report.network_result_loss
    );
    eprintln!("network written to {out}");
    Ok(())
}

pub fn run(args: &TrainArgs, mut progress: impl FnMut(&str)) -> Result<TrainReport, String> {
    // Before the records are read: a wrong kind needs no games to refuse.
    if let Some(init) = &args.init {
        if init.shape != args.game.shape() {
            return Err(format!(
                "the network to start from is {}'s, not {}'s",
                init.shape.game,
                args.game.shape().game
            ));
        }
        if init.kind != args.settings.kind {
            return Err(match init.kind {
                Kind::Correction => "the network to start from is a correction: add --correction",
                Kind::Whole => "the network to start from is a whole evaluation: leave out --correction",
            }
            .to_string());
        }
    }
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    let (mut games, mut read) = (0, 0);
    let mut seen = HashSet::new();
    for path in &args.records {
        let mut samples: Vec<Sample<Packed>> = Vec::new();
        let h = data::read_records::<Chess, _>(path, args.filter, read, &mut seen, &mut samples, Packed::of)?;
        progress(&format!(
            "{path}: {} games ({} left out, {} repeats), {} quiet positions",
            h.games, h.skipped_games, h.repeated_games, h.positions
        ));
        for s in samples {
            let set = if held_out(s.game) { &mut validation } else { &mut train };
            set.push(Example::new(s.input, s.score, s.result));
        }
        games += h.games;
        read += h.read_games;
    }
    let (mut data_positions, mut data_games) = (0, 0);
    for path in &args.data {
        let h = match args.game {
            TrainGame::Chess => selfplay::read(path, data_games, &mut train, &mut validation)?,
            game => selfplay::read_own(game, path, data_games, &mut train, &mut validation)?,
        };
        // Bulletformat numbers no games (see `selfplay`); the own format does.
        let told = match args.game {
            TrainGame::Chess => "games told apart (a new one where the men grow in number)",
            _ => "games",
        };
        progress(&format!("{path}: {} positions, {} {told}, {} positions held out", h.positions, h.games, h.held_out));
        data_positions += h.positions;
        data_games += h.games;
    }
    let positions = train.len() + validation.len();
    if positions < 1000 {
        return Err(format!(
            "only {positions} quiet positions: training needs at least 1000 (play more games, or make more data)"
        ));
    }
    if validation.is_empty() {
        return Err("no held-out positions: training needs at least 10 games".to_string());
    }
    let (k, reading) = match args.game.shape().outputs {
        Outputs::Value => {
            let k = fit_k(&train, &validation);
            (Some(k), Reading::Expectation { k })
        }
        Outputs::ThreeOutcomes => (None, Reading::ThreeOutcomes),
    };
    train.iter_mut().chain(&mut validation).for_each(|e| e.blend(args.lambda, reading));
    let hand_made = |e: &Example| reading.of_value(f64::from(e.input.hand_made));
    let hand_made_loss = reading.mean_loss(&validation, hand_made, Example::target);
    progress(&format!(
        "{}; {} positions to learn from, {} held out; the hand-made evaluation's held-out loss {hand_made_loss:.6}",
        k.map_or("three outcomes".to_string(), |k| format!("K = {k:.4}")),
        train.len(),
        validation.len()
    ));
    // One generator for the first weights and then the order of the
    // positions, so that a seed gives the same network.
    let mut rng = StdRng::seed_from_u64(args.settings.seed);
    let start = match &args.init {
        Some(network) => FloatNet::from_network(network),
        None => FloatNet::random(args.game.shape(), args.settings.kind, &mut rng),
    };
    let (net, float_loss, epoch) = learn(&train, &validation, reading, args.settings, start, &mut rng, &mut progress);
    progress(&format!("kept the network of epoch {epoch}, where the held-out loss was lowest"));
    let network = net.quantize();
    let loss = |net: &Network, target: fn(&Example) -> Chances| {
        reading.mean_loss(&validation, |e| e.input.network_chances(net, reading), target)
    };
    Ok(TrainReport {
        games,
        data_positions,
        data_games,
        train: train.len(),
        validation: validation.len(),
        k,
        hand_made_loss,
        float_loss,
        network_loss: loss(&network, Example::target),
        hand_made_result_loss: reading.mean_loss(&validation, hand_made, Example::ending_chances),
        network_result_loss: loss(&network, Example::ending_chances),
        built_in_loss: args.game.built_in().map(|b| (loss(&b, Example::target), loss(&b, Example::ending_chances))),
        network,
    })
}

/// Learns a network from `train` for `settings.epochs` passes, starting
/// from `net`, and keeps the one of the pass whose
/// held-out loss was lowest: (that network, its loss, its pass).
fn learn(
    train: &[Example],
    validation: &[Example],
    reading: Reading,
    settings: Settings,
    mut net: FloatNet,
    rng: &mut StdRng,
    progress: &mut impl FnMut(&str),
) -> (FloatNet, f64, usize) {
    // Pass 0: a correction that never beats its start stays 0, and a
    // network learning goes on from stays as it was.
    let start = reading.mean_loss(validation, |e| net.predict(&e.input, reading), Example::target);
    progress(&format!("epoch 0 (the start): held out {start:.6}"));
    let mut best = (net.clone(), start, 0);
    // u32: 4 bytes a position (a train set is far below 4 G positions).
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut adam = Adam::new(net.l.params);
    let batch_size = settings.batch.max(1);
    let steps = settings.epochs * train.len().div_ceil(batch_size);
    let mut step = 0;
    for epoch in 1..=settings.epochs {
        order.shuffle(rng);
        let mut sum = 0.0;
        for batch in order.chunks(batch_size) {
            let (grad, loss) = gradient(&net, train, batch, reading, settings.threads.max(1));
            sum += loss;
            adam.step(&mut net, &grad, rate_at(settings, step, steps));
            step += 1;
        }
        let held = reading.mean_loss(validation, |e| net.predict(&e.input, reading), Example::target);
        progress(&format!("epoch {epoch}: loss {:.6} (held out {held:.6})", sum / train.len().max(1) as f64));
        if held < best.1 {
            best = (net.clone(), held, epoch);
        }
    }
    best
}

/// The step size at step `step` of `steps` (see `Settings::rate`).
fn rate_at(settings: Settings, step: usize, steps: usize) -> f32 {
    let done = step as f32 / (steps.max(2) - 1) as f32;
    settings.rate + (settings.final_rate - settings.rate) * done.min(1.0)
}

/// The K that makes the hand-made evaluation fit the results best, over
/// every position.
fn fit_k(train: &[Example], validation: &[Example]) -> f64 {
    let n = (train.len() + validation.len()).max(1) as f64;
    best_k(|k| {
        let sum: f64 = train
            .iter()
            .chain(validation)
            .map(|e| (sigmoid(k, f64::from(e.input.hand_made)) - e.result()).powi(2))
            .sum();
        sum / n
    })
}

/// The network in floating point, as it learns: the same shape as
/// `nnue::Network`, the hidden layer clipped at 1 instead of `QA`, the
/// output in units of `SCALE` centipawns.
#[derive(Clone)]
struct FloatNet {
    shape: &'static Shape,
    l: Layout,
    kind: Kind,
    /// Every parameter in one vector: the first layer's `shape.inputs()` rows of
    /// `HIDDEN`, its `HIDDEN` biases, each output's `2 · HIDDEN` weights and
    /// the outputs' biases (the order of `Network`), then the factor rows.
    p: Vec<f32>,
}

/// Where each part of `FloatNet::p` starts, for a game's `Shape`.
#[derive(Clone, Copy)]
struct Layout {
    hidden_bias: usize,
    output: usize,
    /// The first output's bias (one per output).
    output_bias: usize,
    /// Outputs (`Outputs::count`).
    outputs: usize,
    factors: usize,
    params: usize,
    /// Squares per kind: the inputs of one factor row.
    squares: usize,
}

impl Layout {
    fn of(shape: &Shape) -> Layout {
        let hidden_bias = shape.inputs() * HIDDEN;
        let output = hidden_bias + HIDDEN;
        let output_bias = output + shape.output_weights();
        let outputs = shape.outputs.count();
        let factors = output_bias + outputs;
        // Factor rows: one per (owner as the view sees it, kind), shared by
        // that kind's squares. An input's weights in training are its own
        // row plus its factor's, so what a knight is worth anywhere is
        // learnt from every knight, and a rare square (a king on h5)
        // starts from it instead of from noise. `quantize` folds the factor
        // into each row: the engine's network is unchanged.
        // The neutral men's kinds have their factor rows too.
        let params = factors + (2 * shape.roles + shape.neutrals) * HIDDEN;
        Layout { hidden_bias, output, output_bias, outputs, factors, params, squares: shape.squares() }
    }

    /// Where the factor row of input `f` starts in the parameters (inputs
    /// run square by square within a kind: see `Shape::input`).
    #[inline(always)]
    fn factor(&self, f: usize) -> usize {
        self.factors + f / self.squares * HIDDEN
    }
}

impl FloatNet {
    /// A network to start learning from: random, except that a
    /// correction's output weights are 0, so that it starts as the
    /// hand-made evaluation itself.
    fn random(shape: &'static Shape, kind: Kind, rng: &mut StdRng) -> FloatNet {
        let l = Layout::of(shape);
        let mut p = vec![0.0; l.params];
        // The first layer sums about 30 rows: keep the sums near 0..1.
        let a = 1.0 / (32f32).sqrt();
        p[..l.hidden_bias].iter_mut().for_each(|w| *w = rng.gen_range(-a..a));
        if kind == Kind::Whole {
            let b = 1.0 / ((2 * HIDDEN) as f32).sqrt();
            p[l.output..l.output_bias].iter_mut().for_each(|w| *w = rng.gen_range(-b..b));
        }
        FloatNet { shape, l, kind, p }
    }

    /// The float network that `quantize` turns into `network` again,
    /// weight for weight. The file holds each row with its factor folded
    /// in, so the factor rows start at 0 and learn only what is shared
    /// from here on.
    fn from_network(network: &Network) -> FloatNet {
        let l = Layout::of(network.shape);
        let mut p = vec![0.0; l.params];
        let float = |w: i16, scale: i32| f32::from(w) / scale as f32;
        let rows = network.hidden_weights.iter().chain(&network.hidden_bias);
        p[..l.output].iter_mut().zip(rows).for_each(|(p, &w)| *p = float(w, QA));
        p[l.output..l.output_bias].iter_mut().zip(&network.output_weights).for_each(|(p, &w)| *p = float(w, QB));
        for (p, &b) in p[l.output_bias..l.factors].iter_mut().zip(&network.output_biases) {
            *p = b as f32 / (QA * QB) as f32;
        }
        FloatNet { shape: network.shape, l, kind: network.kind, p }
    }

    /// What the output is added to (centipawns, white's view), and by
    /// what it is multiplied first: as `Network::value_with`.
    fn base(&self, s: &Packed) -> (f64, f64) {
        match self.kind {
            Kind::Whole => (0.0, 1.0),
            Kind::Correction => (f64::from(s.hand_made), f64::from(s.hand_made_scale) / 64.0),
        }
    }

    /// The two hidden layers before activation (the mover's, the other's).
    fn accumulate(&self, s: &Packed) -> ([f32; HIDDEN], [f32; HIDDEN]) {
        let l = &self.l;
        let mut white: [f32; HIDDEN] = self.p[l.hidden_bias..l.output].try_into().expect("HIDDEN biases");
        let mut black = white;
        for f in s.white_inputs(self.shape) {
            let add = |acc: &mut [f32; HIDDEN], f: usize| {
                let (row, shared) = (&self.p[f * HIDDEN..(f + 1) * HIDDEN], &self.p[l.factor(f)..l.factor(f) + HIDDEN]);
                acc.iter_mut().zip(row).zip(shared).for_each(|((a, w), v)| *a += w + v);
            };
            add(&mut white, f);
            add(&mut black, self.shape.other_view(f));
        }
        if s.black_to_move {
            (black, white)
        } else {
            (white, black)
        }
    }

    /// The outputs (mover's view): a value in units of SCALE centipawns,
    /// or three logits; those past `Layout::outputs` are 0.
    fn outputs(&self, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> [f32; 3] {
        let l = &self.l;
        let act = |x: f32| x.clamp(0.0, 1.0).powi(2);
        std::array::from_fn(|o| {
            if o >= l.outputs {
                return 0.0;
            }
            let w = &self.p[l.output + o * 2 * HIDDEN..l.output + (o + 1) * 2 * HIDDEN];
            let sum: f32 = us.iter().chain(them).zip(w).map(|(&x, &w)| act(x) * w).sum();
            sum + self.p[l.output_bias + o]
        })
    }

    /// What the network predicts for white (`Chances`).
    fn predict(&self, s: &Packed, reading: Reading) -> Chances {
        let (us, them) = self.accumulate(s);
        let out = self.outputs(&us, &them);
        match reading {
            Reading::Expectation { k } => {
                let v = f64::from(out[0]) * f64::from(SCALE);
                let (base, gain) = self.base(s);
                [sigmoid(k, if s.black_to_move { -v } else { v } * gain + base), 0.0, 0.0]
            }
            Reading::ThreeOutcomes => mover_view(s.black_to_move, softmax(self.logits(s, out))).map(f64::from),
        }
    }

    /// A three-outcome network's logits (mover's view) from its outputs:
    /// the outputs themselves, or a correction's added to the logarithms
    /// of the chances the hand-made value reads as, scaled as its
    /// advantage is (as `Network::chances`).
    fn logits(&self, s: &Packed, out: [f32; 3]) -> [f32; 3] {
        match self.kind {
            Kind::Whole => out,
            Kind::Correction => {
                let (base, gain) = self.base(s);
                let read = mover_view(s.black_to_move, three_way::chances(base));
                std::array::from_fn(|o| out[o] * gain as f32 + read[o].max(1e-12).ln() as f32)
            }
        }
    }

    fn quantize(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let l = &self.l;
        Network {
            shape: self.shape,
            kind: self.kind,
            hidden_weights: (0..l.hidden_bias)
                .map(|i| q(self.p[i] + self.p[l.factor(i / HIDDEN) + i % HIDDEN], QA))
                .collect(),
            hidden_bias: self.p[l.hidden_bias..l.output].iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.p[l.output..l.output_bias].iter().map(|&w| q(w, QB)).collect(),
            output_biases: self.p[l.output_bias..l.factors]
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }

    /// Keeps the parameters where the integer network can hold them: a
    /// row with its factor folded in, too.
    fn clip(&mut self) {
        let l = self.l;
        self.p[l.hidden_bias..l.output].iter_mut().for_each(|w| *w = w.clamp(-CLIP, CLIP));
        self.p[l.factors..].iter_mut().for_each(|w| *w = w.clamp(-CLIP, CLIP));
        let (rows, shared) = self.p.split_at_mut(l.factors);
        for (i, w) in rows[..l.hidden_bias].iter_mut().enumerate() {
            let v = shared[l.factor(i / HIDDEN) - l.factors + i % HIDDEN];
            *w = w.clamp(-CLIP - v, CLIP - v);
        }
        self.p[l.output..l.output_bias].iter_mut().for_each(|w| *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP));
    }
}

impl Packed {
    /// The integer network's value of this position, white's view (of a
    /// network of one value).
    pub(crate) fn network_value(&self, net: &Network) -> i32 {
        net.value_with(net.evaluate_inputs(self.white_inputs(net.shape), self.black_to_move), || {
            catchess_games::nnue::HandMade { value: i32::from(self.hand_made), scale: i32::from(self.hand_made_scale) }
        })
    }

    /// What the integer network predicts for white, as `reading` reads it.
    fn network_chances(&self, net: &Network, reading: Reading) -> Chances {
        match net.shape.outputs {
            Outputs::Value => reading.of_value(f64::from(self.network_value(net))),
            Outputs::ThreeOutcomes => {
                let hand_made = || catchess_games::nnue::HandMade {
                    value: i32::from(self.hand_made),
                    scale: i32::from(self.hand_made_scale),
                };
                net.chances_of_inputs(self.white_inputs(net.shape), self.black_to_move, hand_made).map(f64::from)
            }
        }
    }
}

/// The gradient of the summed squared error over the samples `batch` of
/// `samples` (split among `threads`), and that sum.
fn gradient(net: &FloatNet, samples: &[Example], batch: &[u32], reading: Reading, threads: usize) -> (Vec<f32>, f64) {
    let part = batch.len().div_ceil(threads);
    let results: Vec<(Vec<f32>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(part.max(1))
            .map(|chunk| scope.spawn(move || gradient_part(net, samples, chunk, reading)))
            .collect();
        handles.into_iter().map(|h| h.join().expect("a gradient thread panicked")).collect()
    });
    let mut total = vec![0.0; net.l.params];
    let mut loss = 0.0;
    for (g, l) in results {
        total.iter_mut().zip(&g).for_each(|(t, x)| *t += x);
        loss += l;
    }
    (total, loss)
}

fn gradient_part(net: &FloatNet, samples: &[Example], batch: &[u32], reading: Reading) -> (Vec<f32>, f64) {
    let l = net.l;
    let mut g = vec![0.0f32; l.params];
    let mut loss = 0.0;
    for &i in batch {
        let s = &samples[i as usize];
        let (us, them) = net.accumulate(&s.input);
        let out = net.outputs(&us, &them);
        // d loss / d out (the mover's outputs).
        let mut d_out = [0.0f32; 3];
        match reading {
            Reading::Expectation { k } => {
                // d sigmoid(k, v) / dv = p (1 − p) · k ln 10 / 400, v in centipawns.
                let c = k * std::f64::consts::LN_10 / 400.0 * f64::from(SCALE);
                let (base, gain) = net.base(&s.input);
                // The mover's output counts for white with this sign and gain.
                let sign = if s.input.black_to_move { -gain } else { gain };
                let p = sigmoid(k, f64::from(out[0]) * f64::from(SCALE) * sign + base);
                let e = p - s.target()[0];
                loss += e * e;
                d_out[0] = (2.0 * e * p * (1.0 - p) * c * sign) as f32;
            }
            Reading::ThreeOutcomes => {
                // The cross-entropy's slope in the logits is softmax − target,
                // and a correction's outputs count with its gain.
                let q = softmax(net.logits(&s.input, out));
                let t = mover_view(s.input.black_to_move, s.target());
                loss += reading.loss(q.map(f64::from), t);
                let gain = net.base(&s.input).1 as f32;
                d_out = std::array::from_fn(|o| (q[o] - t[o] as f32) * gain);
            }
        }
        let w = &net.p[l.output..l.output_bias];
        let mut d_acc = [[0.0f32; HIDDEN]; 2];
        for (o, &d) in d_out.iter().enumerate().take(l.outputs) {
            g[l.output_bias + o] += d;
            let (w, g) = (&w[o * 2 * HIDDEN..], &mut g[l.output + o * 2 * HIDDEN..]);
            for (half, acc) in [&us, &them].into_iter().enumerate() {
                for n in 0..HIDDEN {
                    let x = acc[n];
                    let a = x.clamp(0.0, 1.0);
                    g[half * HIDDEN + n] += d * a * a;
                    if x > 0.0 && x < 1.0 {
                        d_acc[half][n] += d * w[half * HIDDEN + n] * 2.0 * x;
                    }
                }
            }
        }
        // White's view is the mover's (half 0) when white moves.
        let (white, black) = if s.input.black_to_move { (&d_acc[1], &d_acc[0]) } else { (&d_acc[0], &d_acc[1]) };
        for n in 0..HIDDEN {
            g[l.hidden_bias + n] += white[n] + black[n];
        }
        for f in s.input.white_inputs(net.shape) {
            for (f, d) in [(f, white), (net.shape.other_view(f), black)] {
                for start in [f * HIDDEN, l.factor(f)] {
                    g[start..start + HIDDEN].iter_mut().zip(d.iter()).for_each(|(g, d)| *g += d);
                }
            }
        }
    }
    (g, loss)
}

/// Adam's running moments, one pair per parameter.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(params: usize) -> Adam {
        Adam { m: vec![0.0; params], v: vec![0.0; params], t: 0 }
    }

    fn step(&mut self, net: &mut FloatNet, grad: &[f32], rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        for (((p, &g), m), v) in net.p.iter_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
        net.clip();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::chess::types::Role;
    use catchess_games::nnue::{CATCHESS, CHESS, XIANGQI};

    /// The reading of the chess tests' samples, at K 1.
    const EXPECT: Reading = Reading::Expectation { k: 1.0 };

    /// `learn` from `init` or, as `run` starts, from random weights of
    /// standard chess's shape seeded by `settings.seed`.
    fn learn_from(
        train: &[Example],
        validation: &[Example],
        settings: Settings,
        init: Option<&Network>,
    ) -> (FloatNet, f64, usize) {
        let mut rng = StdRng::seed_from_u64(settings.seed);
        let start = match init {
            Some(network) => FloatNet::from_network(network),
            None => FloatNet::random(&CHESS, settings.kind, &mut rng),
        };
        learn(train, validation, EXPECT, settings, start, &mut rng, &mut |_| {})
    }

    /// The packed chess position of `men` (owner, kind, square; in square
    /// order), its hand-made value `hand_made` at full scale.
    fn chess_men(men: &[(Color, Role, usize)], black_to_move: bool, hand_made: f32) -> Packed {
        let men = men.iter().map(|&(owner, role, square)| (square, nibble(owner, role as u8)));
        Packed::of_men(men, 32, black_to_move, hand_made as i32, 64).expect("at most 32 men")
    }

    /// Positions from the start with each piece but the kings kept with
    /// probability 0.7, white or black to move; and a target that follows
    /// material (pawn 1, knight and bishop 3, rook 5, queen 9). Their
    /// "hand-made" value counts the same material but for the knights.
    fn material_samples(n: usize, seed: u64) -> Vec<Example> {
        let mut rng = StdRng::seed_from_u64(seed);
        let back =
            [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
        let start: Vec<(Color, Role, usize)> = (0..8)
            .flat_map(|file| {
                [
                    (Color::White, back[file], file),
                    (Color::White, Role::Pawn, 8 + file),
                    (Color::Black, Role::Pawn, 48 + file),
                    (Color::Black, back[file], 56 + file),
                ]
            })
            .collect();
        let worth = [1.0, 3.0, 3.0, 5.0, 9.0, 0.0];
        (0..n)
            .map(|_| {
                let mut men = Vec::new();
                let (mut material, mut hand_made) = (0.0, 0.0);
                for &(owner, role, square) in &start {
                    if role == Role::King || rng.gen_bool(0.7) {
                        men.push((owner, role, square));
                        let sign: f32 = if owner == Color::White { 1.0 } else { -1.0 };
                        material += f64::from(sign) * worth[role as usize];
                        if role != Role::Knight {
                            hand_made += sign * 100.0 * worth[role as usize] as f32;
                        }
                    }
                }
                let p = chess_men(&men, rng.gen_bool(0.5), hand_made);
                let target = sigmoid(1.0, 100.0 * material);
                let mut e = Example::new(p, None, 0.5);
                e.target = [target as f32, 0.0];
                e
            })
            .collect()
    }

    #[test]
    fn packed_positions_give_the_network_s_inputs() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 3 9",
            "8/8/4k3/8/2K5/8/3P4/8 w - - 0 50",
        ] {
            let pos = Chess::from_fen(fen).unwrap();
            let mut expected = Vec::new();
            chess_nnue::for_each_feature(&pos, |white, _| expected.push(white));
            expected.sort_unstable();
            let p = Packed::of(&pos).unwrap();
            let mut inputs: Vec<usize> = p.white_inputs(&CHESS).collect();
            inputs.sort_unstable();
            assert_eq!(inputs, expected, "{fen}");
            assert_eq!(p.black_to_move, fen.contains(" b "));
            // The integer network reads it as the engine reads the position.
            let built_in = chess_nnue::CHOICE.read(chess_nnue::BUILT_IN_NAME).unwrap();
            assert_eq!(p.network_value(&built_in), built_in.value_with(built_in.evaluate(&pos), || pos.hand_made()));
        }
        assert_eq!(std::mem::size_of::<Packed>(), 40);
        assert_eq!(std::mem::size_of::<Example>(), 56);
    }

    #[test]
    fn packed_xiangqi_positions_give_the_network_s_inputs() {
        let net = FloatNet::random(&XIANGQI, Kind::Correction, &mut StdRng::seed_from_u64(8));
        let mut net = Network { kind: Kind::Whole, ..net.quantize() };
        net.output_weights.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 41) as i16 - 20);
        for fen in [
            catchess_games::xiangqi::START_FEN,
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C4/9/RNBAKABNR b - - 1 2",
            "4k4/9/9/9/9/9/9/9/4p4/3K5 w - - 0 60",
        ] {
            let pos = Xiangqi::from_fen(fen).unwrap();
            let mut expected = Vec::new();
            xiangqi_nnue::for_each_red_input(&pos, |f| expected.push(f));
            expected.sort_unstable();
            let p = Packed::of_xiangqi(&pos).unwrap();
            let mut inputs: Vec<usize> = p.white_inputs(&XIANGQI).collect();
            inputs.sort_unstable();
            assert_eq!(inputs, expected, "{fen}");
            assert_eq!(p.black_to_move, fen.contains(" b "));
            assert_eq!(i32::from(p.hand_made), pos.hand_made_value());
            // The integer network reads it as the engine reads the position.
            let value = xiangqi_nnue::value_summed(&net, &pos, || pos.hand_made_value());
            assert_eq!(p.network_value(&net), value, "{fen}");
            assert_ne!(value, 0, "{fen}: a value of 0 tests nothing");
            let correction = Network { kind: Kind::Correction, ..net.clone() };
            assert_eq!(p.network_value(&correction), value + pos.hand_made_value(), "{fen}");
        }
    }

    #[test]
    fn packed_cat_chess_positions_give_the_network_s_inputs_and_chances() {
        let mut net = FloatNet::random(&CATCHESS, Kind::Whole, &mut StdRng::seed_from_u64(9)).quantize();
        net.output_weights.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 37) as i16 - 18);
        for fen in [
            "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/*1n2n2/4p3/2B1P2*/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "8/8/4k3/2*5/8/3K4/6*1/7Q w - - 0 60",
        ] {
            let pos = CatChess::from_fen(fen).unwrap();
            let mut expected = chess_nnue::cats::white_inputs(&pos);
            expected.sort_unstable();
            let p = Packed::of_catchess(&pos).unwrap();
            let mut inputs: Vec<usize> = p.white_inputs(&CATCHESS).collect();
            inputs.sort_unstable();
            assert_eq!(inputs, expected, "{fen}");
            assert_eq!(p.black_to_move, fen.contains(" b "));
            // The integer network reads it as the engine reads the position.
            let chances = chess_nnue::cats::chances_summed(&net, &pos).map(f64::from);
            assert_eq!(p.network_chances(&net, Reading::ThreeOutcomes), chances, "{fen}");
            assert!(chances[0] != chances[1], "{fen}: equal chances test nothing");
        }
    }

    #[test]
    fn the_integer_three_outcome_network_gives_the_float_network_s_chances() {
        let mut net = on_grid(&CATCHESS, 10);
        let l = net.l;
        net.p[l.output_bias..l.factors].copy_from_slice(&[0.5, -0.25, 1.0]);
        let network = net.quantize();
        let mut spread = 0.0f64;
        for s in cat_samples(60, 11) {
            let float = net.predict(&s.input, Reading::ThreeOutcomes);
            let int = s.input.network_chances(&network, Reading::ThreeOutcomes);
            for o in 0..3 {
                assert!((float[o] - int[o]).abs() < 0.01, "float {float:?}, integer {int:?}");
            }
            spread = spread.max((float[0] - float[1]).abs());
        }
        assert!(spread > 0.05, "the chances ({spread} apart at most) are too alike to test the arithmetic");
    }

    #[test]
    fn a_three_outcome_network_learns_who_mates() {
        // Cat Chess positions whose ending follows material: a side a rook
        // or more up mates, otherwise the cats hold.
        let label = |samples: Vec<Example>| -> Vec<Example> {
            samples
                .into_iter()
                .map(|mut e| {
                    let worth = [1, 3, 3, 5, 9, 0];
                    let material: i32 = e
                        .input
                        .white_inputs(&CATCHESS)
                        .filter(|&f| f < 768)
                        .map(|f| worth[f % 384 / 64] * if f < 384 { 1 } else { -1 })
                        .sum();
                    let winner = if material >= 5 {
                        0
                    } else if material <= -5 {
                        1
                    } else {
                        2
                    };
                    e = Example::of_three(e.input, None, winner);
                    e.blend(0.3, Reading::ThreeOutcomes);
                    e
                })
                .collect()
        };
        let (train, validation) = (label(material_cat_samples(3000, 12)), label(material_cat_samples(300, 13)));
        for winner in 0..3 {
            let count = validation.iter().filter(|e| e.ending == Ending::Won(winner)).count();
            assert!(count >= 30, "{count} held-out positions won by {winner}: the test needs each ending");
        }
        let settings =
            Settings { epochs: 12, rate: 0.01, final_rate: 0.01, batch: 256, threads: 2, seed: 7, kind: Kind::Whole };
        let mut rng = StdRng::seed_from_u64(settings.seed);
        let start = FloatNet::random(&CATCHESS, Kind::Whole, &mut rng);
        let reading = Reading::ThreeOutcomes;
        let before = reading.mean_loss(&validation, |e| start.predict(&e.input, reading), Example::target);
        let (net, after, _) = learn(&train, &validation, reading, settings, start, &mut rng, &mut |_| {});
        assert!(after < before / 4.0, "held-out divergence {before} -> {after}");
        // The integer network gives each ending its own chance.
        let network = net.quantize();
        for winner in 0..3u8 {
            let mut mean = [0.0; 3];
            let these: Vec<&Example> = validation.iter().filter(|e| e.ending == Ending::Won(winner)).collect();
            for e in &these {
                let c = e.input.network_chances(&network, reading);
                (0..3).for_each(|o| mean[o] += c[o] / these.len() as f64);
            }
            let best = (0..3).max_by(|&a, &b| mean[a].total_cmp(&mean[b])).unwrap();
            assert_eq!(best, usize::from(winner), "positions won by {winner}: mean chances {mean:?}");
        }
    }

    /// Cat Chess positions: the start's men each kept with probability
    /// 0.7 (the kings always), the cats on c6 and f3, white or black to
    /// move.
    fn material_cat_samples(n: usize, seed: u64) -> Vec<Example> {
        let mut rng = StdRng::seed_from_u64(seed);
        // The start's ranks 8 to 1, a square a letter ('.' empty), cats on c6 and f3.
        let start = "rnbqkbnr pppppppp ..*..... ........ ........ .....*.. PPPPPPPP RNBQKBNR";
        (0..n)
            .map(|_| {
                let rows: Vec<String> = start
                    .split(' ')
                    .map(|rank| {
                        let mut row = String::new();
                        let mut empty = 0;
                        for c in rank.chars() {
                            let kept = c == '*' || c.eq_ignore_ascii_case(&'k') || (c != '.' && rng.gen_bool(0.7));
                            if !kept {
                                empty += 1;
                                continue;
                            }
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            row.push(c);
                        }
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                        }
                        row
                    })
                    .collect();
                let side = if rng.gen_bool(0.5) { 'w' } else { 'b' };
                let pos = CatChess::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))).unwrap();
                Example::of_three(Packed::of_catchess(&pos).unwrap(), None, 2)
            })
            .collect()
    }

    fn loss_sum(net: &FloatNet, samples: &[Example], reading: Reading) -> f64 {
        samples.iter().map(|s| reading.loss(net.predict(&s.input, reading), s.target())).sum()
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let mut samples = material_samples(40, 1);
        // A correction counts as much as the hand-made scale lets it.
        samples.iter_mut().enumerate().for_each(|(i, s)| s.input.hand_made_scale = [64, 40, 16, 0][i % 4]);
        let mut rng = StdRng::seed_from_u64(2);
        let mut net = FloatNet::random(&CHESS, Kind::Whole, &mut rng);
        let l = net.l;
        net.p[l.output..l.output_bias].iter_mut().for_each(|w| *w *= 4.0);
        for kind in [Kind::Whole, Kind::Correction] {
            net.kind = kind;
            check_gradient(&net, &samples, EXPECT);
        }
        // Three outcomes: Cat Chess positions, each with its own target.
        let mut net = FloatNet::random(&CATCHESS, Kind::Whole, &mut rng);
        let l = net.l;
        net.p[l.output..l.output_bias].iter_mut().for_each(|w| *w *= 4.0);
        let mut samples = cat_samples(40, 3);
        samples.iter_mut().enumerate().for_each(|(i, s)| s.input.hand_made_scale = [64, 40, 16, 0][i % 4]);
        for kind in [Kind::Whole, Kind::Correction] {
            net.kind = kind;
            check_gradient(&net, &samples, Reading::ThreeOutcomes);
        }
    }

    #[test]
    fn a_three_outcome_correction_starts_as_the_hand_made_reading() {
        let start = FloatNet::random(&CATCHESS, Kind::Correction, &mut StdRng::seed_from_u64(4));
        let network = start.quantize();
        for s in cat_samples(30, 5) {
            let read = three_way::chances(f64::from(s.input.hand_made));
            let float = start.predict(&s.input, Reading::ThreeOutcomes);
            let int = s.input.network_chances(&network, Reading::ThreeOutcomes);
            for o in 0..3 {
                assert!(
                    (float[o] - read[o]).abs() < 1e-5 && (int[o] - read[o]).abs() < 1e-5,
                    "{read:?} {float:?} {int:?}"
                );
            }
        }
    }

    /// Cat Chess positions from a few random games, each labelled with
    /// its score's three chances and one of the three endings in turn.
    fn cat_samples(n: usize, seed: u64) -> Vec<Example> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut samples = Vec::new();
        while samples.len() < n {
            let mut pos = CatChess::startpos();
            for _ in 0..40 {
                let mut list = catchess_game::MoveList::default();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                pos = pos.play(list.as_slice()[rng.gen_range(0..list.len())]);
                if pos.side_to_move().color().is_some() && samples.len() < n {
                    let input = Packed::of_catchess(&pos).unwrap();
                    let mut e = Example::of_three(input, Some(rng.gen_range(-600.0..600.0)), (samples.len() % 3) as u8);
                    e.blend(0.3, Reading::ThreeOutcomes);
                    samples.push(e);
                }
            }
        }
        samples
    }

    fn check_gradient(net: &FloatNet, samples: &[Example], reading: Reading) {
        let all: Vec<u32> = (0..samples.len() as u32).collect();
        let (grad, loss) = gradient_part(net, samples, &all, reading);
        assert!((loss - loss_sum(net, samples, reading)).abs() < 1e-6 * loss.max(1.0), "{loss}");
        // The steepest parameters of each kind, against finite differences.
        let l = net.l;
        let ranges = [
            0..l.hidden_bias,
            l.hidden_bias..l.output,
            l.output..l.output_bias,
            l.output_bias..l.factors,
            l.factors..l.params,
        ];
        for range in ranges {
            let mut steep: Vec<usize> = range.collect();
            steep.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
            for &i in &steep[..steep.len().min(5)] {
                // Small enough to seldom straddle a kink of the activation.
                let h = 1e-4;
                let mut moved = net.clone();
                moved.p[i] += h;
                let up = loss_sum(&moved, samples, reading);
                moved.p[i] -= 2.0 * h;
                let down = loss_sum(&moved, samples, reading);
                let numeric = (up - down) / (2.0 * f64::from(h));
                let analytic = f64::from(grad[i]);
                assert!(
                    (numeric - analytic).abs() <= 0.05 * analytic.abs() + 1e-4,
                    "{:?}, parameter {i}: {analytic} by the formula, {numeric} by the loss",
                    net.kind
                );
            }
        }
    }

    /// A random whole network of `shape` with weights the integers hold
    /// exactly (factor rows too, so that folding them into the rows is
    /// tested): only the arithmetic (scales, views, signs, the final
    /// division) can make the float and integer networks differ.
    fn on_grid(shape: &'static Shape, seed: u64) -> FloatNet {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut net = FloatNet::random(shape, Kind::Whole, &mut rng);
        let l = net.l;
        let grid = |w: &mut f32, scale: i32| *w = (*w * scale as f32).round() / scale as f32;
        net.p[l.factors..].iter_mut().for_each(|w| *w = rng.gen_range(-0.2..0.2));
        net.p[..l.output].iter_mut().for_each(|w| grid(w, QA));
        net.p[l.factors..].iter_mut().for_each(|w| grid(w, QA));
        net.p[l.output..l.output_bias].iter_mut().for_each(|w| *w *= 8.0);
        net.p[l.output..l.output_bias].iter_mut().for_each(|w| grid(w, QB));
        net
    }

    #[test]
    fn the_integer_network_gives_the_float_network_s_values() {
        let mut net = on_grid(&CHESS, 3);
        let l = net.l;
        net.p[l.output_bias] = (0.1 * (QA * QB) as f32).round() / (QA * QB) as f32;
        let network = net.quantize();
        let mut spread = 0.0f64;
        for s in material_samples(50, 4) {
            let (us, them) = net.accumulate(&s.input);
            let float = f64::from(net.outputs(&us, &them)[0]) * f64::from(SCALE);
            let float = if s.input.black_to_move { -float } else { float };
            let int = f64::from(s.input.network_value(&network));
            spread = spread.max(float.abs());
            assert!((float - int).abs() <= 1.5, "float {float}, integer {int}");
        }
        assert!(spread > 50.0, "the values ({spread} at most) are too small to test the arithmetic");
    }

    #[test]
    fn a_network_learns_what_material_is_worth() {
        let train = material_samples(3000, 5);
        let validation = material_samples(300, 6);
        let settings =
            Settings { epochs: 12, rate: 0.01, final_rate: 0.01, batch: 256, threads: 2, seed: 7, kind: Kind::Whole };
        let untrained = FloatNet::random(&CHESS, settings.kind, &mut StdRng::seed_from_u64(settings.seed));
        let before = EXPECT.mean_loss(&validation, |s| untrained.predict(&s.input, EXPECT), Example::target);
        let (net, after, _) = learn_from(&train, &validation, settings, None);
        assert!(after < before / 4.0, "held-out loss {before} -> {after}");
        // A queen up is worth more than a pawn up, for either side to move.
        let value = |fen: &str| {
            let p = Packed::of(&Chess::from_fen(fen).unwrap()).unwrap();
            p.network_value(&net.quantize())
        };
        let pawn = value("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let queen = value("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(0 < pawn && pawn < queen, "pawn up {pawn}, queen up {queen}");
    }

    #[test]
    fn a_correction_starts_as_the_hand_made_value_and_learns_what_it_misses() {
        let train = material_samples(3000, 5);
        let validation = material_samples(300, 6);
        let settings = Settings {
            epochs: 12,
            rate: 0.01,
            final_rate: 0.01,
            batch: 256,
            threads: 2,
            seed: 7,
            kind: Kind::Correction,
        };
        let start = FloatNet::random(&CHESS, settings.kind, &mut StdRng::seed_from_u64(settings.seed));
        let hand_made = |s: &Example| EXPECT.of_value(f64::from(s.input.hand_made));
        for s in &validation {
            assert_eq!(start.predict(&s.input, EXPECT), hand_made(s));
        }
        let before = EXPECT.mean_loss(&validation, hand_made, Example::target);
        let (net, after, _) = learn_from(&train, &validation, settings, None);
        assert!(after < before / 4.0, "held-out loss {before} (hand-made) -> {after}");
        // The samples' hand-made values leave the knights out: the integer
        // network's correction, on average over the held-out positions,
        // is the knights the sides are up.
        let network = net.quantize();
        assert_eq!(network.kind, Kind::Correction);
        let mut by_knights = std::collections::BTreeMap::<i32, (i32, i32)>::new();
        for s in &validation {
            let knights: i32 = s
                .input
                .white_inputs(&CHESS)
                .filter(|f| f % 384 / 64 == Role::Knight as usize)
                .map(|f| if f < 384 { 1 } else { -1 })
                .sum();
            let correction = s.input.network_value(&network) - i32::from(s.input.hand_made);
            let entry = by_knights.entry(knights).or_default();
            *entry = (entry.0 + correction, entry.1 + 1);
        }
        for knights in -1..=1 {
            let (sum, count) = by_knights[&knights];
            assert!(count >= 20, "{count} held-out positions with {knights} knights up");
            let mean = sum / count;
            assert!((mean - 300 * knights).abs() < 100, "{knights} knights up: corrected by {mean} cp on average");
        }
    }

    #[test]
    fn a_network_read_back_is_the_network_written() {
        let built_in = chess_nnue::CHOICE.read(chess_nnue::BUILT_IN_NAME).unwrap();
        assert_eq!(FloatNet::from_network(&built_in).quantize(), built_in);
    }

    #[test]
    fn learning_goes_on_from_a_network() {
        let train = material_samples(3000, 5);
        let validation = material_samples(300, 6);
        let held_out =
            |net: &FloatNet| EXPECT.mean_loss(&validation, |s| net.predict(&s.input, EXPECT), Example::target);
        let first =
            Settings { epochs: 1, rate: 0.01, final_rate: 0.01, batch: 256, threads: 2, seed: 7, kind: Kind::Whole };
        let network = learn_from(&train, &validation, first, None).0.quantize();
        let start = held_out(&FloatNet::from_network(&network));
        assert!(start < held_out(&FloatNet::random(&CHESS, Kind::Whole, &mut StdRng::seed_from_u64(7))) / 2.0);
        // At step size 0 the run keeps its start: the network given.
        let still = Settings { rate: 0.0, final_rate: 0.0, ..first };
        let (kept, loss, epoch) = learn_from(&train, &validation, still, Some(&network));
        assert_eq!((kept.quantize(), loss, epoch), (network.clone(), start, 0));
        let more = Settings { epochs: 2, ..first };
        let (_, loss, epoch) = learn_from(&train, &validation, more, Some(&network));
        assert!(epoch > 0 && loss < start * 0.9, "held-out loss {start} -> {loss} (pass {epoch})");
    }

    #[test]
    fn the_step_size_falls_in_a_straight_line_from_the_rate_to_the_final_rate() {
        let settings =
            Settings { epochs: 2, rate: 0.002, final_rate: 0.0, batch: 256, threads: 1, seed: 1, kind: Kind::Whole };
        let steps = 5;
        for (step, expected) in [0.002, 0.0015, 0.001, 0.0005, 0.0].into_iter().enumerate() {
            let rate = rate_at(settings, step, steps);
            assert!((rate - expected).abs() < 1e-9, "step {step}: rate {rate}, expected {expected}");
        }
        let constant = Settings { final_rate: 0.002, ..settings };
        assert!((0..steps).all(|step| rate_at(constant, step, steps) == 0.002));
        // A run of one step takes the first rate.
        assert_eq!(rate_at(settings, 0, 1), 0.002);
    }
}
