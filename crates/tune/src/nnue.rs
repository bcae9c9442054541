//! `catchess train`: learns a chess evaluation network
//! (`games::chess::nnue`) from the project's own game records. Each quiet
//! position of a record (as `catchess tune` picks them) is a sample; its
//! target blends the game's result with the search's score of the move
//! played there. The network learns in floating point by Adam on the
//! squared error of its win expectation, `sigmoid(K · value)` with the K
//! that fits the hand-made evaluation best (so the network speaks the same
//! centipawns as the evaluation the search was tuned with), then is
//! rounded to the integers the engine reads.
//!
//! Held-out games (one in ten) measure it against the hand-made evaluation
//! on the same positions and targets.

use super::data::{self, Filter, Sample};
use super::fit::{best_k, sigmoid};
use super::selfplay;
use catchess_core::{Color, Square};
use catchess_games::chess::nnue::{self, Kind, Network, CLIP, HIDDEN, INPUTS, OUTPUT_CLIP, QA, QB, SCALE};
use catchess_games::Chess;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// What a sample keeps of its position, in 32 bytes (10 M positions fit
/// in memory): its pieces as bulletformat lays them out, but from white's
/// view (occupied squares, then a nibble per piece in square order:
/// `colour << 3 | role`, white 0, pawn 0 to king 5), who is to move, and
/// the hand-made evaluation (white's view) to compare with, with its scale
/// in 1/64 (a correction is scaled with it).
#[derive(Clone, Copy, Debug)]
pub struct Packed {
    occupied: u64,
    pieces: [u8; 16],
    pub(crate) hand_made: f32,
    hand_made_scale: u8,
    pub(crate) black_to_move: bool,
}

impl Packed {
    /// `None` for a position the network cannot hold (more than 32 pieces).
    pub fn of(pos: &Chess) -> Option<Packed> {
        let hand_made = pos.hand_made();
        let mut p = Packed {
            occupied: 0,
            pieces: [0; 16],
            hand_made_scale: u8::try_from(hand_made.scale).ok()?,
            hand_made: hand_made.value as f32,
            black_to_move: pos.side_to_move().color() == Some(Color::Black),
        };
        let mut count = 0;
        for square in Square::all() {
            let Some(piece) = pos.piece_at(square) else { continue };
            if count == 32 {
                return None;
            }
            p.occupied |= 1 << square.index();
            p.pieces[count / 2] |= ((piece.color as u8) << 3 | piece.role as u8) << (4 * (count % 2));
            count += 1;
        }
        Some(p)
    }

    /// White's view's input of every piece.
    fn white_inputs(&self) -> impl Iterator<Item = usize> + '_ {
        let mut bits = self.occupied;
        (0..self.occupied.count_ones() as usize).map(move |i| {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let code = usize::from(self.pieces[i / 2] >> (4 * (i % 2)) & 15);
            // As `nnue::feature(White, ...)`: the other side's pieces from 384 on.
            (code >> 3) * 384 + (code & 7) * 64 + square
        })
    }
}

/// One position to learn from or to measure on: its pieces, the search's
/// score (centipawns, white's view; `NO_SCORE` if the record has none) and
/// its game's result in half points for white, and the target they blend
/// into once K is known. 40 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub(crate) input: Packed,
    target: f32,
    score: i16,
    result_halves: u8,
}

/// `Example::score` of a position whose record has no score.
const NO_SCORE: i16 = i16::MIN;

impl Example {
    /// The example of `input`, white's score `score` (`None`: no score;
    /// clipped to the 16 bits kept, far past where the win expectation
    /// stops moving) and white's points `result` (0, 1/2 or 1).
    pub fn new(input: Packed, score: Option<f64>, result: f64) -> Example {
        let score = score.map_or(NO_SCORE, |cp| cp.round().clamp(-32000.0, 32000.0) as i16);
        Example { input, target: result as f32, score, result_halves: (result * 2.0).round() as u8 }
    }

    pub(crate) fn result(&self) -> f64 {
        f64::from(self.result_halves) / 2.0
    }

    pub(crate) fn score(&self) -> Option<f64> {
        (self.score != NO_SCORE).then_some(f64::from(self.score))
    }

    fn target(&self) -> f64 {
        f64::from(self.target)
    }

    /// Sets the target: the result, blended with the score's win
    /// expectation at scale `k` if there is a score.
    fn blend(&mut self, lambda: f64, k: f64) {
        let result = self.result();
        self.target = self.score().map_or(result, |score| lambda * result + (1.0 - lambda) * sigmoid(k, score)) as f32;
    }
}

/// Mean squared error of `predict` against `target` over `examples`.
fn mean_loss(examples: &[Example], predict: impl Fn(&Example) -> f64, target: impl Fn(&Example) -> f64) -> f64 {
    let sum: f64 = examples.iter().map(|e| (target(e) - predict(e)).powi(2)).sum();
    sum / examples.len().max(1) as f64
}

/// What `catchess train` is asked to do.
#[derive(Clone, Debug)]
pub struct TrainArgs {
    /// PGN files of `catchess match` records.
    pub records: Vec<String>,
    /// `catchess datagen` files of standard chess (bulletformat); they mix
    /// with the records, each position with its own target.
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
    pub k: f64,
    /// Held-out loss against the targets: the hand-made evaluation's, the
    /// network's as learnt (floating point) and as the engine reads it.
    pub hand_made_loss: f64,
    pub float_loss: f64,
    pub network_loss: f64,
    /// The same against the game results alone.
    pub hand_made_result_loss: f64,
    pub network_result_loss: f64,
    /// The network built into the engine on the same positions (against
    /// the targets, against the results): what a new one has to beat.
    pub built_in_loss: f64,
    pub built_in_result_loss: f64,
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
    args.init = init.map(nnue::read).transpose().map_err(|e| format!("train: --init: {e}"))?;
    let report = run(&args, |line| eprintln!("{line}"))?;
    std::fs::write(out, report.network.to_bytes()).map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!(
        "{} games of records, {} datagen positions ({} games told apart): {} positions learnt from, {} held out; K {:.4}",
        report.games, report.data_positions, report.data_games, report.train, report.validation, report.k
    );
    eprintln!(
        "held-out loss against the targets: hand-made {:.6}, built-in network {:.6}, network {:.6} (as learnt {:.6})",
        report.hand_made_loss, report.built_in_loss, report.network_loss, report.float_loss
    );
    eprintln!(
        "held-out loss against the results: hand-made {:.6}, built-in network {:.6}, network {:.6}",
        report.hand_made_result_loss, report.built_in_result_loss, report.network_result_loss
    );
    eprintln!("network written to {out}");
    Ok(())
}

pub fn run(args: &TrainArgs, mut progress: impl FnMut(&str)) -> Result<TrainReport, String> {
    // Before the records are read: a wrong kind needs no games to refuse.
    if let Some(init) = &args.init {
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
        let h = selfplay::read(path, data_games, &mut train, &mut validation)?;
        progress(&format!(
            "{path}: {} positions, {} games told apart (a new one where the men grow in number), {} positions held out",
            h.positions, h.games, h.held_out
        ));
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
    let k = fit_k(&train, &validation);
    train.iter_mut().chain(&mut validation).for_each(|e| e.blend(args.lambda, k));
    let hand_made = |e: &Example| sigmoid(k, f64::from(e.input.hand_made));
    let hand_made_loss = mean_loss(&validation, hand_made, Example::target);
    progress(&format!(
        "K = {k:.4}; {} positions to learn from, {} held out; the hand-made evaluation's held-out loss {hand_made_loss:.6}",
        train.len(),
        validation.len()
    ));
    let (net, float_loss, epoch) = learn(&train, &validation, k, args.settings, args.init.as_ref(), &mut progress);
    progress(&format!("kept the network of epoch {epoch}, where the held-out loss was lowest"));
    let network = net.quantize();
    let built_in = nnue::read(nnue::BUILT_IN_NAME)?;
    let loss = |net: &Network, target: fn(&Example) -> f64| {
        mean_loss(&validation, |e| sigmoid(k, f64::from(e.input.network_value(net))), target)
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
        hand_made_result_loss: mean_loss(&validation, hand_made, Example::result),
        network_result_loss: loss(&network, Example::result),
        built_in_loss: loss(&built_in, Example::target),
        built_in_result_loss: loss(&built_in, Example::result),
        network,
    })
}

/// Learns a network from `train` for `settings.epochs` passes, starting
/// from `init` or random weights, and keeps the one of the pass whose
/// held-out loss was lowest: (that network, its loss, its pass).
fn learn(
    train: &[Example],
    validation: &[Example],
    k: f64,
    settings: Settings,
    init: Option<&Network>,
    progress: &mut impl FnMut(&str),
) -> (FloatNet, f64, usize) {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut net = match init {
        Some(network) => FloatNet::from_network(network),
        None => FloatNet::random(settings.kind, &mut rng),
    };
    // Pass 0: a correction that never beats its start stays 0, and a
    // network learning goes on from stays as it was.
    let start = mean_loss(validation, |e| net.predict(&e.input, k), Example::target);
    progress(&format!("epoch 0 (the start): held out {start:.6}"));
    let mut best = (net.clone(), start, 0);
    // u32: 4 bytes a position (a train set is far below 4 G positions).
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut adam = Adam::new(PARAMS);
    let batch_size = settings.batch.max(1);
    let steps = settings.epochs * train.len().div_ceil(batch_size);
    let mut step = 0;
    for epoch in 1..=settings.epochs {
        order.shuffle(&mut rng);
        let mut sum = 0.0;
        for batch in order.chunks(batch_size) {
            let (grad, loss) = gradient(&net, train, batch, k, settings.threads.max(1));
            sum += loss;
            adam.step(&mut net, &grad, rate_at(settings, step, steps));
            step += 1;
        }
        let held = mean_loss(validation, |e| net.predict(&e.input, k), Example::target);
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
    kind: Kind,
    /// Every parameter in one vector: the first layer's `INPUTS` rows of
    /// `HIDDEN`, its `HIDDEN` biases, the `2 · HIDDEN` output weights and
    /// the output bias (the order of `Network`).
    p: Vec<f32>,
}

const HIDDEN_BIAS: usize = INPUTS * HIDDEN;
const OUTPUT: usize = HIDDEN_BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT + 2 * HIDDEN;
const FACTORS: usize = OUTPUT_BIAS + 1;
const PARAMS: usize = FACTORS + FACTOR_ROWS * HIDDEN;

/// Factor rows: one per (owner as the view sees it, kind), shared by that
/// kind's 64 squares. An input's weights in training are its own row plus
/// its factor's, so what a knight is worth anywhere is learnt from every
/// knight, and a rare square (a king on h5) starts from it instead of from
/// noise. `quantize` folds the factor into each row: the engine's network
/// is unchanged.
const FACTOR_ROWS: usize = INPUTS / 64;

/// Where the factor row of input `f` starts in the parameters (inputs run
/// square by square within a kind: see `nnue::feature`).
#[inline(always)]
fn factor(f: usize) -> usize {
    FACTORS + f / 64 * HIDDEN
}

impl FloatNet {
    /// A network to start learning from: random, except that a
    /// correction's output weights are 0, so that it starts as the
    /// hand-made evaluation itself.
    fn random(kind: Kind, rng: &mut StdRng) -> FloatNet {
        let mut p = vec![0.0; PARAMS];
        // The first layer sums about 30 rows: keep the sums near 0..1.
        let a = 1.0 / (32f32).sqrt();
        p[..HIDDEN_BIAS].iter_mut().for_each(|w| *w = rng.gen_range(-a..a));
        if kind == Kind::Whole {
            let b = 1.0 / ((2 * HIDDEN) as f32).sqrt();
            p[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| *w = rng.gen_range(-b..b));
        }
        FloatNet { kind, p }
    }

    /// The float network that `quantize` turns into `network` again,
    /// weight for weight. The file holds each row with its factor folded
    /// in, so the factor rows start at 0 and learn only what is shared
    /// from here on.
    fn from_network(network: &Network) -> FloatNet {
        let mut p = vec![0.0; PARAMS];
        let float = |w: i16, scale: i32| f32::from(w) / scale as f32;
        let rows = network.hidden_weights.iter().chain(&network.hidden_bias);
        p[..OUTPUT].iter_mut().zip(rows).for_each(|(p, &w)| *p = float(w, QA));
        p[OUTPUT..OUTPUT_BIAS].iter_mut().zip(&network.output_weights).for_each(|(p, &w)| *p = float(w, QB));
        p[OUTPUT_BIAS] = network.output_bias as f32 / (QA * QB) as f32;
        FloatNet { kind: network.kind, p }
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
        let mut white: [f32; HIDDEN] = self.p[HIDDEN_BIAS..OUTPUT].try_into().expect("HIDDEN biases");
        let mut black = white;
        for f in s.white_inputs() {
            let add = |acc: &mut [f32; HIDDEN], f: usize| {
                let (row, shared) = (&self.p[f * HIDDEN..(f + 1) * HIDDEN], &self.p[factor(f)..factor(f) + HIDDEN]);
                acc.iter_mut().zip(row).zip(shared).for_each(|((a, w), v)| *a += w + v);
            };
            add(&mut white, f);
            add(&mut black, nnue::black_view(f));
        }
        if s.black_to_move {
            (black, white)
        } else {
            (white, black)
        }
    }

    /// The output (mover's view, units of SCALE centipawns).
    fn output(&self, us: &[f32; HIDDEN], them: &[f32; HIDDEN]) -> f32 {
        let w = &self.p[OUTPUT..OUTPUT_BIAS];
        let act = |x: f32| x.clamp(0.0, 1.0).powi(2);
        let sum: f32 = us.iter().chain(them).zip(w).map(|(&x, &w)| act(x) * w).sum();
        sum + self.p[OUTPUT_BIAS]
    }

    /// The win expectation for white.
    fn predict(&self, s: &Packed, k: f64) -> f64 {
        let (us, them) = self.accumulate(s);
        let v = f64::from(self.output(&us, &them)) * f64::from(SCALE);
        let (base, gain) = self.base(s);
        sigmoid(k, if s.black_to_move { -v } else { v } * gain + base)
    }

    fn quantize(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        Network {
            kind: self.kind,
            hidden_weights: (0..HIDDEN_BIAS)
                .map(|i| q(self.p[i] + self.p[factor(i / HIDDEN) + i % HIDDEN], QA))
                .collect(),
            hidden_bias: self.p[HIDDEN_BIAS..OUTPUT].iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.p[OUTPUT..OUTPUT_BIAS].iter().map(|&w| q(w, QB)).collect(),
            output_bias: (self.p[OUTPUT_BIAS] * (QA * QB) as f32).round() as i32,
        }
    }

    /// Keeps the parameters where the integer network can hold them: a
    /// row with its factor folded in, too.
    fn clip(&mut self) {
        self.p[HIDDEN_BIAS..OUTPUT].iter_mut().for_each(|w| *w = w.clamp(-CLIP, CLIP));
        self.p[FACTORS..].iter_mut().for_each(|w| *w = w.clamp(-CLIP, CLIP));
        let (rows, shared) = self.p.split_at_mut(FACTORS);
        for (i, w) in rows[..HIDDEN_BIAS].iter_mut().enumerate() {
            let v = shared[factor(i / HIDDEN) - FACTORS + i % HIDDEN];
            *w = w.clamp(-CLIP - v, CLIP - v);
        }
        self.p[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| *w = w.clamp(-OUTPUT_CLIP, OUTPUT_CLIP));
    }
}

impl Packed {
    /// The integer network's value of this position, white's view.
    pub(crate) fn network_value(&self, net: &Network) -> i32 {
        net.value_with(net.evaluate_inputs(self.white_inputs(), self.black_to_move), || nnue::HandMade {
            value: self.hand_made as i32,
            scale: i32::from(self.hand_made_scale),
        })
    }
}

/// The gradient of the summed squared error over the samples `batch` of
/// `samples` (split among `threads`), and that sum.
fn gradient(net: &FloatNet, samples: &[Example], batch: &[u32], k: f64, threads: usize) -> (Vec<f32>, f64) {
    let part = batch.len().div_ceil(threads);
    let results: Vec<(Vec<f32>, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            batch.chunks(part.max(1)).map(|chunk| scope.spawn(move || gradient_part(net, samples, chunk, k))).collect();
        handles.into_iter().map(|h| h.join().expect("a gradient thread panicked")).collect()
    });
    let mut total = vec![0.0; PARAMS];
    let mut loss = 0.0;
    for (g, l) in results {
        total.iter_mut().zip(&g).for_each(|(t, x)| *t += x);
        loss += l;
    }
    (total, loss)
}

fn gradient_part(net: &FloatNet, samples: &[Example], batch: &[u32], k: f64) -> (Vec<f32>, f64) {
    let mut g = vec![0.0f32; PARAMS];
    let mut loss = 0.0;
    // d sigmoid(k, v) / dv = p (1 − p) · k ln 10 / 400, v in centipawns.
    let c = k * std::f64::consts::LN_10 / 400.0 * f64::from(SCALE);
    for &i in batch {
        let s = &samples[i as usize];
        let (us, them) = net.accumulate(&s.input);
        let out = net.output(&us, &them);
        let (base, gain) = net.base(&s.input);
        // The mover's output counts for white with this sign and gain.
        let sign = if s.input.black_to_move { -gain } else { gain };
        let p = sigmoid(k, f64::from(out) * f64::from(SCALE) * sign + base);
        let e = p - s.target();
        loss += e * e;
        // d loss / d out (the mover's output).
        let d_out = (2.0 * e * p * (1.0 - p) * c * sign) as f32;
        g[OUTPUT_BIAS] += d_out;
        let w = &net.p[OUTPUT..OUTPUT_BIAS];
        let mut d_acc = [[0.0f32; HIDDEN]; 2];
        for (half, acc) in [&us, &them].into_iter().enumerate() {
            for n in 0..HIDDEN {
                let x = acc[n];
                let a = x.clamp(0.0, 1.0);
                g[OUTPUT + half * HIDDEN + n] += d_out * a * a;
                if x > 0.0 && x < 1.0 {
                    d_acc[half][n] = d_out * w[half * HIDDEN + n] * 2.0 * x;
                }
            }
        }
        // White's view is the mover's (half 0) when white moves.
        let (white, black) = if s.input.black_to_move { (&d_acc[1], &d_acc[0]) } else { (&d_acc[0], &d_acc[1]) };
        for n in 0..HIDDEN {
            g[HIDDEN_BIAS + n] += white[n] + black[n];
        }
        for f in s.input.white_inputs() {
            for (f, d) in [(f, white), (nnue::black_view(f), black)] {
                for start in [f * HIDDEN, factor(f)] {
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
                let p = Packed::of_men(&men, rng.gen_bool(0.5), hand_made);
                let target = sigmoid(1.0, 100.0 * material);
                let mut e = Example::new(p, None, 0.5);
                e.target = target as f32;
                e
            })
            .collect()
    }

    impl Packed {
        /// The position of `men` (owner, kind, square; in square order),
        /// its hand-made value `hand_made` at full scale.
        fn of_men(men: &[(Color, Role, usize)], black_to_move: bool, hand_made: f32) -> Packed {
            let mut p = Packed { occupied: 0, pieces: [0; 16], hand_made, hand_made_scale: 64, black_to_move };
            for (i, &(owner, role, square)) in men.iter().enumerate() {
                p.occupied |= 1 << square;
                p.pieces[i / 2] |= ((owner as u8) << 3 | role as u8) << (4 * (i % 2));
            }
            p
        }
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
            nnue::for_each_feature(&pos, |white, _| expected.push(white));
            expected.sort_unstable();
            let p = Packed::of(&pos).unwrap();
            let mut inputs: Vec<usize> = p.white_inputs().collect();
            inputs.sort_unstable();
            assert_eq!(inputs, expected, "{fen}");
            assert_eq!(p.black_to_move, fen.contains(" b "));
            // The integer network reads it as the engine reads the position.
            let built_in = nnue::read(nnue::BUILT_IN_NAME).unwrap();
            assert_eq!(p.network_value(&built_in), built_in.value_with(built_in.evaluate(&pos), || pos.hand_made()));
        }
        assert_eq!(std::mem::size_of::<Packed>(), 32);
        assert_eq!(std::mem::size_of::<Example>(), 40);
    }

    fn loss_sum(net: &FloatNet, samples: &[Example], k: f64) -> f64 {
        samples.iter().map(|s| (net.predict(&s.input, k) - s.target()).powi(2)).sum()
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let mut samples = material_samples(40, 1);
        // A correction counts as much as the hand-made scale lets it.
        samples.iter_mut().enumerate().for_each(|(i, s)| s.input.hand_made_scale = [64, 40, 16, 0][i % 4]);
        let mut rng = StdRng::seed_from_u64(2);
        let mut net = FloatNet::random(Kind::Whole, &mut rng);
        net.p[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| *w *= 4.0);
        for kind in [Kind::Whole, Kind::Correction] {
            net.kind = kind;
            check_gradient(&net, &samples);
        }
    }

    fn check_gradient(net: &FloatNet, samples: &[Example]) {
        let all: Vec<u32> = (0..samples.len() as u32).collect();
        let (grad, loss) = gradient_part(net, samples, &all, 1.0);
        assert!((loss - loss_sum(net, samples, 1.0)).abs() < 1e-6);
        // The steepest parameters of each kind, against finite differences.
        for range in [0..HIDDEN_BIAS, HIDDEN_BIAS..OUTPUT, OUTPUT..OUTPUT_BIAS, OUTPUT_BIAS..FACTORS, FACTORS..PARAMS] {
            let mut steep: Vec<usize> = range.collect();
            steep.sort_by(|&a, &b| grad[b].abs().total_cmp(&grad[a].abs()));
            for &i in &steep[..steep.len().min(5)] {
                // Small enough to seldom straddle a kink of the activation.
                let h = 1e-4;
                let mut moved = net.clone();
                moved.p[i] += h;
                let up = loss_sum(&moved, samples, 1.0);
                moved.p[i] -= 2.0 * h;
                let down = loss_sum(&moved, samples, 1.0);
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

    #[test]
    fn the_integer_network_gives_the_float_network_s_values() {
        // Weights the integers hold exactly: only the arithmetic (scales,
        // views, signs, the final division) can make the two differ.
        let mut rng = StdRng::seed_from_u64(3);
        let mut net = FloatNet::random(Kind::Whole, &mut rng);
        let on_grid = |w: &mut f32, scale: i32| *w = (*w * scale as f32).round() / scale as f32;
        // Factor rows too, so that folding them into the rows is tested.
        net.p[FACTORS..].iter_mut().for_each(|w| *w = rng.gen_range(-0.2..0.2));
        net.p[..OUTPUT].iter_mut().for_each(|w| on_grid(w, QA));
        net.p[FACTORS..].iter_mut().for_each(|w| on_grid(w, QA));
        net.p[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| *w *= 8.0);
        net.p[OUTPUT..OUTPUT_BIAS].iter_mut().for_each(|w| on_grid(w, QB));
        net.p[OUTPUT_BIAS] = 0.1;
        on_grid(&mut net.p[OUTPUT_BIAS], QA * QB);
        let network = net.quantize();
        let mut spread = 0.0f64;
        for s in material_samples(50, 4) {
            let (us, them) = net.accumulate(&s.input);
            let float = f64::from(net.output(&us, &them)) * f64::from(SCALE);
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
        let untrained = FloatNet::random(settings.kind, &mut StdRng::seed_from_u64(settings.seed));
        let before = mean_loss(&validation, |s| untrained.predict(&s.input, 1.0), Example::target);
        let (net, after, _) = learn(&train, &validation, 1.0, settings, None, &mut |_| {});
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
        let start = FloatNet::random(settings.kind, &mut StdRng::seed_from_u64(settings.seed));
        let hand_made = |s: &Example| sigmoid(1.0, f64::from(s.input.hand_made));
        for s in &validation {
            assert_eq!(start.predict(&s.input, 1.0), hand_made(s));
        }
        let before = mean_loss(&validation, hand_made, Example::target);
        let (net, after, _) = learn(&train, &validation, 1.0, settings, None, &mut |_| {});
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
                .white_inputs()
                .filter(|f| f % 384 / 64 == Role::Knight as usize)
                .map(|f| if f < 384 { 1 } else { -1 })
                .sum();
            let correction = s.input.network_value(&network) - s.input.hand_made as i32;
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
        let built_in = nnue::read(nnue::BUILT_IN_NAME).unwrap();
        assert_eq!(FloatNet::from_network(&built_in).quantize(), built_in);
    }

    #[test]
    fn learning_goes_on_from_a_network() {
        let train = material_samples(3000, 5);
        let validation = material_samples(300, 6);
        let held_out = |net: &FloatNet| mean_loss(&validation, |s| net.predict(&s.input, 1.0), Example::target);
        let first =
            Settings { epochs: 1, rate: 0.01, final_rate: 0.01, batch: 256, threads: 2, seed: 7, kind: Kind::Whole };
        let network = learn(&train, &validation, 1.0, first, None, &mut |_| {}).0.quantize();
        let start = held_out(&FloatNet::from_network(&network));
        assert!(start < held_out(&FloatNet::random(Kind::Whole, &mut StdRng::seed_from_u64(7))) / 2.0);
        // At step size 0 the run keeps its start: the network given.
        let still = Settings { rate: 0.0, final_rate: 0.0, ..first };
        let (kept, loss, epoch) = learn(&train, &validation, 1.0, still, Some(&network), &mut |_| {});
        assert_eq!((kept.quantize(), loss, epoch), (network.clone(), start, 0));
        let more = Settings { epochs: 2, ..first };
        let (_, loss, epoch) = learn(&train, &validation, 1.0, more, Some(&network), &mut |_| {});
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
