//! Small neural-network evaluations in the NNUE shape, for any game of two
//! sides whose men stand on squares, with or without neutral men (standard
//! chess, xiangqi, Cat Chess and its cats): each side's view of the board
//! (an input per owner, kind and square, and per neutral kind and square:
//! `Shape`) feeds
//! one hidden layer of `HIDDEN` neurons with the same weights; the side to
//! move's layer and the other's, each through a squared clipped ReLU, feed
//! one output, or three (the chances of Cat Chess's three outcomes:
//! `Outputs`). A network is learnt by `catchess train` from the project's
//! own games (`tune::nnue`) and kept as integers, so that evaluating sums
//! 16-bit rows. Each game's module says which men are which inputs
//! (`chess::nnue`, `chess::nnue::cats`, `xiangqi::nnue`) and holds its
//! network (`Choice`); the
//! protocol's one `EvalFile` ([`EVAL_FILE`]) sends a file to the game its
//! magic names.
//!
//! A network's output is either the whole value or a correction added to
//! the hand-made evaluation (`Kind`).
//!
//! The file format (little-endian): the game's magic (`Shape::magic`), the
//! hidden size as a u32, the kind as a u32 (0 whole, 1 correction), then
//! the first layer's weights (input by input) and biases as i16, the output
//! weights (output by output, each the mover's half, then the other's) as
//! i16 and the output biases as i32.

mod choice;
mod file;
pub(crate) mod incremental;

pub use choice::{Choice, BUILT_IN_NAME, DEFAULT_NAME, NO_NETWORK};
pub use file::{Kind, Network, Outputs, Shape, CATCHESS, CHESS, HIDDEN, MAX_OUTPUT_WEIGHT, XIANGQI};

use catchess_game::GameOption;
use std::io::Read;

/// Every game's network, in `games!` order.
static CHOICES: [&Choice; 3] =
    [&crate::chess::nnue::CHOICE, &crate::chess::nnue::cats::CHOICE, &crate::xiangqi::nnue::CHOICE];

/// The protocol's `EvalFile`, one option for every game with a network: a
/// network file goes to the game whose magic it starts with (`Shape`), the
/// others keep theirs; `<built-in>` (or the empty default) gives each game
/// its built-in network (none for a game without one), `<none>` every game
/// the hand-made evaluation alone.
pub const EVAL_FILE: GameOption = GameOption { name: "EvalFile", default: BUILT_IN_NAME, set: load };

/// `EVAL_FILE`'s setter: chooses (`Choice::load`) for the games the value
/// concerns; `before_change` runs once, before the first evaluation that
/// changes. Answers whether any evaluation changed.
fn load(value: &str, before_change: &mut dyn FnMut()) -> Result<bool, String> {
    let mut stopped = false;
    let mut stop_once = || {
        if !std::mem::replace(&mut stopped, true) {
            before_change();
        }
    };
    match value {
        BUILT_IN_NAME | DEFAULT_NAME | NO_NETWORK => {
            // Refused for every game before any changes: a choice made
            // for one game already stands.
            for choice in CHOICES {
                let name = if value == NO_NETWORK { NO_NETWORK } else { choice.default_name() };
                choice.check(name)?;
            }
            let mut changed = false;
            for choice in CHOICES {
                let name = if value == NO_NETWORK { NO_NETWORK } else { choice.default_name() };
                changed |= choice.load(name, &mut stop_once)?;
            }
            Ok(changed)
        }
        path => {
            let magic = magic_of(path)?;
            let choice = CHOICES.iter().find(|c| c.shape().magic == &magic).ok_or_else(|| {
                let known: Vec<String> =
                    CHOICES.iter().map(|c| String::from_utf8_lossy(c.shape().magic).into()).collect();
                format!("{path}: not a catchess network file (it starts with none of {})", known.join(", "))
            })?;
            choice.load(path, &mut stop_once)
        }
    }
}

/// The first 8 bytes of the file at `path` (a regular file only,
/// `open_regular`: a device or a pipe named by a client must not hang).
fn magic_of(path: &str) -> Result<[u8; 8], String> {
    let (mut file, _) = catchess_core::files::open_regular(path)?;
    let mut magic = [0u8; 8];
    let read = file.read(&mut magic).map_err(|e| format!("cannot read {path}: {e}"))?;
    if read < magic.len() {
        return Err(format!("{path}: not a catchess network file (it has {read} bytes)"));
    }
    Ok(magic)
}

/// The hidden layer's integer scale (its clip at 1.0 is `QA`).
pub const QA: i32 = 255;
/// The output weights' integer scale.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The learnt first-layer weights and biases stay within ±CLIP, so that
/// a sum of 34 men's rows and the bias stays within i16 (35 × 1.98 × 255
/// < 32767).
pub const CLIP: f32 = 1.98;
/// The learnt output weights stay within ±OUTPUT_CLIP (`MAX_OUTPUT_WEIGHT`
/// once times QB).
pub const OUTPUT_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
const _: () = assert!(HIDDEN as i64 * (QA * QA) as i64 * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64);
// An activated neuron times its output weight fits in 16 bits (`activated_dot`).
const _: () = assert!(QA * MAX_OUTPUT_WEIGHT as i32 <= i16::MAX as i32);

/// What a correction needs of the hand-made evaluation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HandMade {
    /// Centipawns, white's view.
    pub value: i32,
    /// How much of an advantage counts, in 1/64 (0 for insufficient
    /// material).
    pub scale: i32,
}

/// One view's hidden layer before activation.
pub(crate) type Accumulator = [i16; HIDDEN];

impl Network {
    /// The value (white's view) of a position with hand-made evaluation
    /// `hand_made` whose network `output` is given: the output itself, or
    /// the hand-made value corrected by it, scaled as the hand-made
    /// advantage is (`Kind`).
    #[inline(always)]
    pub fn value_with(&self, output: i32, hand_made: impl FnOnce() -> HandMade) -> i32 {
        match self.kind {
            Kind::Whole => output,
            Kind::Correction => {
                let h = hand_made();
                h.value + output * h.scale / 64
            }
        }
    }

    /// The output (white's view) for a position given by white's view's
    /// inputs: each game's evaluation, and the trainer's packed positions.
    #[inline]
    pub fn evaluate_inputs(&self, white_inputs: impl Iterator<Item = usize>, black_to_move: bool) -> i32 {
        self.value(&self.views_of_inputs(white_inputs), black_to_move)
    }

    /// White's and black's hidden layers of the position given by white's
    /// view's inputs, every man summed.
    fn views_of_inputs(&self, white_inputs: impl Iterator<Item = usize>) -> [Accumulator; 2] {
        let mut views = self.biases();
        for w in white_inputs {
            self.add_input(&mut views, w, self.shape.other_view(w));
        }
        views
    }

    /// The chances (white's view: white, black, the near-zero seat) of a
    /// three-outcome network for a position given by white's view's inputs
    /// and its hand-made evaluation (which a correction adds to).
    pub fn chances_of_inputs(
        &self,
        white_inputs: impl Iterator<Item = usize>,
        black_to_move: bool,
        hand_made: impl FnOnce() -> HandMade,
    ) -> [f32; 3] {
        self.chances(&self.views_of_inputs(white_inputs), black_to_move, hand_made)
    }

    /// White's and black's hidden layers of an empty board.
    #[inline(always)]
    pub(crate) fn biases(&self) -> [Accumulator; 2] {
        let bias: Accumulator = self.hidden_bias[..].try_into().expect("HIDDEN biases");
        [bias, bias]
    }

    /// Adds one man, as white's input `w` and black's input `b`.
    #[inline(always)]
    pub(crate) fn add_input(&self, views: &mut [Accumulator; 2], w: usize, b: usize) {
        self.change_input(views, w, b, true);
    }

    /// Adds (`add`) or removes one man, as white's input `w` and black's
    /// input `b`.
    #[inline(always)]
    pub(crate) fn change_input(&self, [white, black]: &mut [Accumulator; 2], w: usize, b: usize, add: bool) {
        let row = |f: usize| &self.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN];
        if add {
            add_row(white, row(w));
            add_row(black, row(b));
        } else {
            sub_row(white, row(w));
            sub_row(black, row(b));
        }
    }

    /// The output (white's view) from white's and black's hidden layers,
    /// of a network of one output (`Outputs::Value`).
    #[inline(always)]
    pub(crate) fn value(&self, [white, black]: &[Accumulator; 2], black_to_move: bool) -> i32 {
        if black_to_move {
            -self.output(black, white)
        } else {
            self.output(white, black)
        }
    }

    /// The output from the mover's and the other side's hidden layers, in
    /// centipawns from the mover's view.
    fn output(&self, us: &Accumulator, them: &Accumulator) -> i32 {
        let value = self.output_sum(0, us, them);
        (value * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// Output `o` in units of 1 / (QA · QB), from the mover's and the
    /// other side's hidden layers.
    #[inline(always)]
    fn output_sum(&self, o: usize, us: &Accumulator, them: &Accumulator) -> i64 {
        let weights = &self.output_weights[o * 2 * HIDDEN..(o + 1) * 2 * HIDDEN];
        let (ours, theirs) = weights.split_at(HIDDEN);
        let sum = activated_dot(us, ours) + activated_dot(them, theirs);
        sum / i64::from(QA) + i64::from(self.output_biases[o])
    }

    /// The chances of a three-outcome network (`Outputs::ThreeOutcomes`)
    /// from white's and black's hidden layers, from white's view: white
    /// mates, black mates, the near-zero seat wins (a softmax of the three
    /// outputs, read as logits). A correction's outputs are added to the
    /// logarithms of the chances the hand-made value reads as
    /// (`three_way::chances`), scaled as its advantage is (`Kind`): a zero
    /// correction is the hand-made evaluation's own reading.
    pub(crate) fn chances(
        &self,
        [white, black]: &[Accumulator; 2],
        black_to_move: bool,
        hand_made: impl FnOnce() -> HandMade,
    ) -> [f32; 3] {
        let (us, them) = if black_to_move { (black, white) } else { (white, black) };
        let logit = |o: usize| self.output_sum(o, us, them) as f32 / (QA * QB) as f32;
        let mut z = [logit(0), logit(1), logit(2)];
        if self.kind == Kind::Correction {
            let h = hand_made();
            let base = mover_view(black_to_move, catchess_search::three_way::chances(f64::from(h.value)));
            for (z, base) in z.iter_mut().zip(base) {
                *z = *z * h.scale as f32 / 64.0 + base.max(1e-12).ln() as f32;
            }
        }
        mover_view(black_to_move, softmax(z))
    }
}

/// Three chances from white's view (white, black, the near-zero seat) as
/// the mover's (the mover, the other side, the near-zero seat), or back:
/// the swap is its own inverse.
#[inline]
pub fn mover_view<T>(black_to_move: bool, [white, black, neutral]: [T; 3]) -> [T; 3] {
    if black_to_move {
        [black, white, neutral]
    } else {
        [white, black, neutral]
    }
}

/// The softmax of three logits: chances that sum to 1.
#[inline]
pub fn softmax(z: [f32; 3]) -> [f32; 3] {
    let top = z[0].max(z[1]).max(z[2]);
    let e = z.map(|x| (x - top).exp());
    let sum = e[0] + e[1] + e[2];
    e.map(|x| x / sum)
}

/// Adds one input's row to a hidden layer (the range check on loading
/// keeps every sum within i16).
#[inline(always)]
fn add_row(acc: &mut Accumulator, row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

/// Takes one input's row from a hidden layer.
#[inline(always)]
fn sub_row(acc: &mut Accumulator, row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

/// Σ screlu(acc[i]) · w[i], screlu(x) = clamp(x, 0, QA)², the scalar
/// reference of `activated_dot`. Each term is at most QA² ·
/// `MAX_OUTPUT_WEIGHT` and `HIDDEN` of them stay below 2³¹ (checked on
/// loading).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn activated_dot_scalar(acc: &Accumulator, weights: &[i16]) -> i64 {
    let sum: i32 = acc
        .iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let v = i32::from(a).clamp(0, QA);
            v * i32::from(w) * v
        })
        .sum();
    i64::from(sum)
}

/// `activated_dot_scalar` in eight 16-bit lanes, as (v · w) · v with v =
/// clamp(x, 0, QA): v · w stays within i16 (asserted above, with the
/// output weights checked on loading), and `pmaddwd` multiplies it by v
/// and sums neighbours into i32. The compiler's own vectorisation of the
/// scalar loop squares in 32-bit lanes, half as many per instruction.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn activated_dot(acc: &Accumulator, weights: &[i16]) -> i64 {
    use std::arch::x86_64::*;
    let weights: &[i16; HIDDEN] = weights.try_into().expect("HIDDEN output weights");
    // SAFETY: SSE2 is part of every x86-64 processor, and each chunk is
    // eight i16, the 16 bytes an unaligned load reads.
    unsafe {
        let (zero, top) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
        let mut sum = _mm_setzero_si128();
        for (a, w) in acc.chunks_exact(8).zip(weights.chunks_exact(8)) {
            let (a, w) = (_mm_loadu_si128(a.as_ptr().cast()), _mm_loadu_si128(w.as_ptr().cast()));
            let v = _mm_min_epi16(_mm_max_epi16(a, zero), top);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_mullo_epi16(v, w), v));
        }
        let pairs = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
        i64::from(_mm_cvtsi128_si32(total))
    }
}

#[cfg(not(target_arch = "x86_64"))]
use activated_dot_scalar as activated_dot;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A network of `shape` whose weights follow a fixed pattern: small,
    /// varied, and different for every input and neuron.
    pub(crate) fn patterned(shape: &'static Shape) -> Network {
        let w = |i: usize, m: usize| ((i * 7919 + 13) % m) as i16 - (m / 2) as i16;
        Network {
            shape,
            kind: Kind::Whole,
            hidden_weights: (0..shape.inputs() * HIDDEN).map(|i| w(i, 61)).collect(),
            hidden_bias: (0..HIDDEN).map(|i| w(i, 201)).collect(),
            output_weights: (0..shape.output_weights()).map(|i| w(i, 101)).collect(),
            output_biases: (0..shape.outputs.count() as i32).map(|o| -1234 + 999 * o).collect(),
        }
    }

    /// Checks that `incremental` (which updates the thread's last position)
    /// gives `summed` (every man added up) along random games of `G` from
    /// `start`, `plies` each: each position after its parent, a sibling,
    /// now and then a position `far` away, and two networks of `shape` so
    /// that the thread's cache also changes hands.
    pub(crate) fn check_incremental<G: catchess_game::Game>(
        shape: &'static Shape,
        start: G,
        far: G,
        plies: usize,
        incremental: impl Fn(&'static Network, &G) -> i32,
        summed: impl Fn(&Network, &G) -> i32,
    ) {
        let a: &'static Network = Box::leak(Box::new(patterned(shape)));
        let mut other = patterned(shape);
        other.hidden_weights.iter_mut().for_each(|w| *w = -*w / 2);
        let b: &'static Network = Box::leak(Box::new(other));
        let mut below = numbers(0x2545_f491_4f6c_dd1d);
        let mut next = |n: usize| below(n as u64) as usize;
        let mut checked = 0;
        for game in 0..6 {
            let mut pos = start;
            for ply in 0..plies {
                let mut list = catchess_game::MoveList::default();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let net = if (game + ply) % 7 == 0 { b } else { a };
                let sibling = pos.play(list.as_slice()[next(list.len())]);
                for p in [&pos, &sibling] {
                    assert_eq!(incremental(net, p), summed(net, p), "{}: game {game}, ply {ply}", shape.game);
                    checked += 1;
                }
                pos = pos.play(list.as_slice()[next(list.len())]);
            }
            assert_eq!(incremental(a, &far), summed(a, &far));
        }
        assert!(checked > 500, "{checked} positions");
    }

    /// Repeatable pseudo-random numbers (xorshift): `below(n)` is in 0..n.
    pub(crate) fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    #[test]
    fn the_other_view_swaps_the_owner_and_turns_the_board_round() {
        for shape in [&CHESS, &XIANGQI, &CATCHESS] {
            let (files, ranks) = (shape.files, shape.ranks);
            for f in 0..shape.inputs() {
                let o = shape.other_view(f);
                assert_eq!(shape.other_view(o), f, "{}: {f}", shape.game);
                let (half, squares) = (shape.roles * shape.squares(), shape.squares());
                if f >= 2 * half {
                    assert_eq!(f / squares, o / squares, "a neutral man stays nobody's, of its kind");
                } else {
                    assert_ne!(f / half, o / half, "the owner is swapped");
                    assert_eq!(f % half / squares, o % half / squares, "the kind stays");
                }
                let (sq, osq) = (f % squares, o % squares);
                assert_eq!((sq % files, ranks - 1 - sq / files), (osq % files, osq / files));
            }
        }
        // Chess's squares turn round as a1 = 0 ^ 56 = a8.
        assert_eq!(CHESS.other_view(CHESS.input(false, 0, 12)), CHESS.input(true, 0, 12 ^ 56));
        // Xiangqi's red soldier on e4 (point 31) is, to black, an enemy soldier on e7 (point 58).
        assert_eq!(XIANGQI.other_view(XIANGQI.input(false, 6, 31)), XIANGQI.input(true, 6, 58));
        // A cat on h5 (39) is, to black, a cat on h4 (31), after every side's input.
        assert_eq!(CATCHESS.other_view(CATCHESS.neutral_input(0, 39)), CATCHESS.neutral_input(0, 31));
        assert_eq!(CATCHESS.neutral_input(0, 0), CATCHESS.input(true, 5, 63) + 1);
        assert_eq!(CATCHESS.inputs(), 832);
    }

    #[test]
    fn the_vector_output_sum_is_the_scalar_one() {
        // Layers below 0, within the clip and beyond it, against the
        // largest output weights of either sign.
        let mut below = numbers(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: i32| below(n as u64) as i32;
        let big = i32::from(MAX_OUTPUT_WEIGHT);
        for round in 0..200 {
            let acc: Accumulator = std::array::from_fn(|_| (next(2 * 600) - 600) as i16);
            let weights: Vec<i16> = (0..HIDDEN)
                .map(|i| if round % 4 == 0 { [big, -big][i % 2] } else { next(2 * big + 1) - big } as i16)
                .collect();
            assert_eq!(activated_dot(&acc, &weights), activated_dot_scalar(&acc, &weights), "round {round}");
        }
        let full: Accumulator = [QA as i16; HIDDEN];
        let most = vec![MAX_OUTPUT_WEIGHT; HIDDEN];
        assert_eq!(activated_dot(&full, &most), i64::from(QA * QA * big) * HIDDEN as i64);
    }

    #[test]
    fn a_correction_is_scaled_as_the_hand_made_advantage() {
        let whole = patterned(&CHESS);
        let correction = Network { kind: Kind::Correction, ..patterned(&CHESS) };
        let hand_made = |scale| move || HandMade { value: 30, scale };
        assert_eq!(whole.value_with(100, hand_made(0)), 100);
        assert_eq!(correction.value_with(100, hand_made(64)), 130);
        assert_eq!(correction.value_with(100, hand_made(16)), 55);
        // A dead draw (scale 0) stays the hand-made value.
        assert_eq!(correction.value_with(100, hand_made(0)), 30);
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        for shape in [&CHESS, &XIANGQI, &CATCHESS] {
            let net = patterned(shape);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), shape.file_bytes());
            assert_eq!(Network::from_bytes(shape, &bytes).unwrap(), net);
            assert!(Network::from_bytes(shape, &bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
            let magic = String::from_utf8_lossy(shape.magic).into_owned();
            assert!(Network::from_bytes(shape, b"not a network").unwrap_err().contains(&magic));
            let mut wide = bytes.clone();
            wide[8..12].copy_from_slice(&64u32.to_le_bytes());
            assert!(Network::from_bytes(shape, &wide).unwrap_err().contains("64 hidden"));
            let correction = Network { kind: Kind::Correction, ..net.clone() };
            assert_eq!(Network::from_bytes(shape, &correction.to_bytes()).unwrap(), correction);
            let mut strange = bytes.clone();
            strange[12..16].copy_from_slice(&2u32.to_le_bytes());
            assert!(Network::from_bytes(shape, &strange).unwrap_err().contains("kind is 2"));
            // Weights whose sums could overflow 16 bits.
            let mut big = net.clone();
            big.hidden_weights[5 * HIDDEN + 3] = 20_000;
            big.hidden_weights[9 * HIDDEN + 3] = 20_000;
            assert!(Network::from_bytes(shape, &big.to_bytes()).unwrap_err().contains("neuron 3"));
            // An output weight whose products could overflow 32 bits.
            let mut loud = net.clone();
            loud.output_weights[7] = -(MAX_OUTPUT_WEIGHT + 1);
            assert!(Network::from_bytes(shape, &loud.to_bytes()).unwrap_err().contains("output weight is -128"));
            loud.output_weights[7] = -MAX_OUTPUT_WEIGHT;
            assert!(Network::from_bytes(shape, &loud.to_bytes()).is_ok());
        }
        // No game reads another's network.
        let chess = patterned(&CHESS).to_bytes();
        assert!(Network::from_bytes(&XIANGQI, &chess).unwrap_err().contains("not a catchess xiangqi network"));
        assert!(Network::from_bytes(&CATCHESS, &chess).unwrap_err().contains("not a catchess Cat Chess network"));
        assert_eq!(CATCHESS.file_bytes(), 16 + 2 * (832 * HIDDEN + HIDDEN + 3 * 2 * HIDDEN) + 3 * 4);
    }

    #[test]
    fn three_outcome_chances_are_a_softmax_seen_from_white() {
        let net = patterned(&CATCHESS);
        let mut views = net.biases();
        net.add_input(&mut views, CATCHESS.input(false, 4, 3), CATCHESS.input(true, 4, 59));
        let none = || unreachable!("a whole network reads no hand-made value");
        let white = net.chances(&views, false, none);
        assert!((white.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{white:?}");
        // The colours swapped (black to move, its layer white's was):
        // black has the chance white had.
        let swapped = net.chances(&[views[1], views[0]], true, none);
        assert_eq!(swapped, [white[1], white[0], white[2]]);
        assert_ne!(white[0], white[1], "the test needs unequal chances");
        let p = softmax([1.0, 0.0, -1.0]);
        assert!(p[0] > p[1] && p[1] > p[2] && (p[0] / p[1] - std::f32::consts::E).abs() < 1e-4);
        assert_eq!(softmax([1000.0, 0.0, 0.0])[0], 1.0, "no overflow");
    }
}
