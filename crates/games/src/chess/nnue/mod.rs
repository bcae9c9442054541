//! A small neural-network evaluation for standard chess, in the NNUE
//! shape: each side's view of the board (768 inputs: whose piece, which
//! kind, on which square, the board turned round for black) feeds one
//! hidden layer of `HIDDEN` neurons with the same weights; the side to
//! move's layer and the other's, each through a squared clipped ReLU,
//! feed one output. A network is learnt by `catchess train` from
//! the project's own games (`tune::nnue`) and kept as integers, so that
//! evaluating sums 16-bit rows.
//!
//! A network's output is either the whole value or a correction added to
//! the hand-made evaluation (`Kind`). Standard chess evaluates with the
//! correction built into the engine unless the protocol's `EvalFile`
//! chooses another network or none (`load`).
//!
//! The file format (little-endian): `MAGIC`, the hidden size as a u32,
//! the kind as a u32 (0 whole, 1 correction), then the first layer's
//! weights (input by input) and biases as i16, the output weights (the
//! mover's half, then the other's) as i16 and the output bias as i32.

mod file;

pub use file::{Kind, Network, HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT};
use file::FILE_BYTES;

use super::position::{Position, Variant};
use super::types::Role;
use catchess_core::Color;
use catchess_game::GameOption;
use once_cell::sync::{Lazy, OnceCell};
use std::io::Read;

/// The hidden layer's integer scale (its clip at 1.0 is `QA`).
pub const QA: i32 = 255;
/// The output weights' integer scale.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The learnt first-layer weights and biases stay within ±CLIP, so that
/// a sum of 32 pieces' rows and the bias stays within i16 (33 × 1.98 × 255
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

/// The network built into the engine: a correction to the hand-made
/// evaluation, learnt from 59,630 of the project's own games and refined
/// by 8,917 more of its own self-play (see README,
/// "A chess network", for the command and its measured strength), from
/// `correction.nnue`; or the file `CATCHESS_EVALFILE` named at build time
/// (`make EVALFILE=...`, as OpenBench builds an engine with its network).
/// The build script reads it with `file.rs`, so it is a valid network.
static BUILT_IN_FILE: &[u8] = include_bytes!(env!("CATCHESS_BUILT_IN_NETWORK"));
static BUILT_IN: Lazy<Network> =
    Lazy::new(|| Network::from_bytes(BUILT_IN_FILE).expect("the built-in network is a valid network file (tested)"));

/// What the protocol's `EvalFile` calls the built-in network (its default),
/// no network (the hand-made evaluation alone), and the default (what a
/// GUI's empty string field sends).
pub const BUILT_IN_NAME: &str = "<built-in>";
pub const NO_NETWORK: &str = "<none>";
pub const DEFAULT_NAME: &str = "<empty>";

/// The protocol's `EvalFile`: standard chess's network (see [`load`]).
pub const EVAL_FILE: GameOption = GameOption {
    name: "EvalFile",
    default: BUILT_IN_NAME,
    set: |value, before_change| load(value, before_change),
};

/// The network standard chess evaluates with once the protocol's
/// `EvalFile` has chosen one (`None`: no network), with its name. The
/// built-in network serves until then. Chosen at most once per process: a
/// search never sees its evaluation change but for that first choice, and
/// no client can make the engine hold more than one file's network.
static CHOSEN: OnceCell<(String, Option<&'static Network>)> = OnceCell::new();

/// The network standard chess evaluates with, if any.
#[inline(always)]
pub fn loaded() -> Option<&'static Network> {
    match CHOSEN.get() {
        Some((_, net)) => *net,
        None => Some(&*BUILT_IN),
    }
}

/// The name (a path, `BUILT_IN_NAME` or `NO_NETWORK`) of what standard
/// chess evaluates with.
pub fn loaded_file() -> &'static str {
    CHOSEN.get().map_or(BUILT_IN_NAME, |(name, _)| name.as_str())
}

/// Chooses what standard chess evaluates with (see `CHOSEN`): the network
/// file at `name`, the built-in network (`DEFAULT_NAME` too) or none.
/// Asking again for what is chosen changes nothing; asking for anything
/// else after a choice is refused. `before_change` runs just before the
/// evaluation changes, once the new network is read: the caller stops any
/// search there, which must not see two evaluations. Answers whether the
/// evaluation changed (then what the caller's table keeps is stale).
pub fn load(name: &str, before_change: impl FnOnce()) -> Result<bool, String> {
    let name = if name == DEFAULT_NAME { BUILT_IN_NAME } else { name };
    if let Some(answer) = answer_if_chosen(name) {
        return answer.map(|()| false);
    }
    let net = match name {
        BUILT_IN_NAME => Some(&*BUILT_IN),
        NO_NETWORK => None,
        path => Some(&*Box::leak(Box::new(read_file(path)?))),
    };
    let address = |net: Option<&'static Network>| net.map(|n| n as *const Network);
    let changes = address(net) != address(loaded());
    if changes {
        before_change();
    }
    // Another thread may have won the race: then its choice stays (and a
    // file's network read for nothing stays in memory, once per process).
    let won = CHOSEN.set((name.to_string(), net)).is_ok();
    answer_if_chosen(name).expect("a choice was made just now").map(|()| won && changes)
}

/// The network `name` (as `EvalFile` names one: a file, or the built-in)
/// without choosing it for play: what `catchess train --init` starts from.
pub fn read(name: &str) -> Result<Network, String> {
    match name {
        BUILT_IN_NAME | DEFAULT_NAME => Ok(BUILT_IN.clone()),
        NO_NETWORK => Err(format!("{NO_NETWORK} is no network: name a network file or {BUILT_IN_NAME}")),
        path => read_file(path),
    }
}

/// `load`'s answer once a choice is made, if one is: fine for the same
/// name, refused for another.
fn answer_if_chosen(name: &str) -> Option<Result<(), String>> {
    let (current, _) = CHOSEN.get()?;
    Some(if current == name {
        Ok(())
    } else {
        Err(format!("EvalFile is {current} already; restart the engine to choose another"))
    })
}

/// Reads a network file.
fn read_file(path: &str) -> Result<Network, String> {
    // Only a regular file, and no more of it than a network takes: a
    // device or a pipe named by a client must not hang or fill memory.
    let cannot = |e: std::io::Error| format!("cannot read {path}: {e}");
    if !std::fs::metadata(path).map_err(cannot)?.is_file() {
        return Err(format!("{path} is not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).and_then(|f| f.take(FILE_BYTES as u64 + 1).read_to_end(&mut bytes)).map_err(cannot)?;
    Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
}

/// The input for a piece of `owner`'s of kind `role` on `square` (a1 = 0,
/// h8 = 63) as `view` sees the board: its own pieces first, and black's
/// view turned round so that each side's pieces move up the board.
#[inline(always)]
pub fn feature(view: Color, owner: Color, role: Role, square: usize) -> usize {
    let (theirs, square) = match view {
        Color::White => (owner != Color::White, square),
        Color::Black => (owner != Color::Black, square ^ 56),
    };
    usize::from(theirs) * 384 + role as usize * 64 + square
}

/// Black's view's input for white's view's input `f` (the owner swapped,
/// the board turned round).
#[inline(always)]
pub fn black_view(f: usize) -> usize {
    let (theirs, rest) = (f / 384, f % 384);
    (1 - theirs) * 384 + (rest & !63) + ((rest & 63) ^ 56)
}

/// Calls `f(white's input, black's input)` for every piece of `pos`.
#[inline]
pub fn for_each_feature<V: Variant>(pos: &Position<V>, mut f: impl FnMut(usize, usize)) {
    for (slot, &bits) in Pieces::of(pos).0.iter().enumerate() {
        Pieces::features(slot, bits, &mut f);
    }
}

/// One view's hidden layer before activation.
type Accumulator = [i16; HIDDEN];

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

    /// The network's output for the position in centipawns from white's
    /// view (see `Kind` for what it is), computed from its pieces alone.
    pub fn evaluate<V: Variant>(&self, pos: &Position<V>) -> i32 {
        let mut views = self.biases();
        for_each_feature(pos, |w, b| self.add_input(&mut views, w, b));
        self.value(&views, pos.side_to_move().color() == Some(Color::Black))
    }

    /// The same value as [`Network::evaluate`], found by updating the
    /// hidden layers of the position this thread evaluated last: the
    /// search copies positions rather than undoing moves, so it has no
    /// parent's layers to hand, but the last position it evaluated is
    /// nearly always a parent, sibling or cousin, a few pieces away.
    /// (Sums wrap in i16 as they go; the range check on loading keeps
    /// the true sums within it, so the result is exact.) The network is
    /// `'static` so that its address names it for the thread's cache: it
    /// can never be freed and another put in its place.
    pub fn evaluate_incremental<V: Variant>(&'static self, pos: &Position<V>) -> i32 {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            let pieces = Pieces::of(pos);
            let moved: u32 = last.pieces.0.iter().zip(&pieces.0).map(|(a, b)| (a ^ b).count_ones()).sum();
            if !std::ptr::eq(last.network, self) || moved > pieces.count() {
                last.network = self;
                last.views = self.biases();
                for_each_feature(pos, |w, b| self.add_input(&mut last.views, w, b));
            } else {
                let Last { views, pieces: before, .. } = &mut *last;
                for (slot, (&old, &new)) in before.0.iter().zip(&pieces.0).enumerate() {
                    Pieces::features(slot, old & !new, |w, b| self.change_input(views, w, b, false));
                    Pieces::features(slot, new & !old, |w, b| self.change_input(views, w, b, true));
                }
            }
            last.pieces = pieces;
            self.value(&last.views, pos.side_to_move().color() == Some(Color::Black))
        })
    }

    /// The output (white's view) for a position given by white's view's
    /// inputs, for the trainer's packed positions.
    pub fn evaluate_inputs(&self, white_inputs: impl Iterator<Item = usize>, black_to_move: bool) -> i32 {
        let mut views = self.biases();
        for w in white_inputs {
            self.add_input(&mut views, w, black_view(w));
        }
        self.value(&views, black_to_move)
    }

    /// White's and black's hidden layers of an empty board.
    #[inline(always)]
    fn biases(&self) -> [Accumulator; 2] {
        let bias: Accumulator = self.hidden_bias[..].try_into().expect("HIDDEN biases");
        [bias, bias]
    }

    /// Adds one piece, as white's input `w` and black's input `b`.
    #[inline(always)]
    fn add_input(&self, views: &mut [Accumulator; 2], w: usize, b: usize) {
        self.change_input(views, w, b, true);
    }

    /// Adds (`add`) or removes one piece, as white's input `w` and black's
    /// input `b`.
    #[inline(always)]
    fn change_input(&self, [white, black]: &mut [Accumulator; 2], w: usize, b: usize, add: bool) {
        let row = |f: usize| &self.hidden_weights[f * HIDDEN..(f + 1) * HIDDEN];
        if add {
            add_row(white, row(w));
            add_row(black, row(b));
        } else {
            sub_row(white, row(w));
            sub_row(black, row(b));
        }
    }

    fn value(&self, [white, black]: &[Accumulator; 2], black_to_move: bool) -> i32 {
        if black_to_move {
            -self.output(black, white)
        } else {
            self.output(white, black)
        }
    }

    /// The output from the mover's and the other side's hidden layers, in
    /// centipawns from the mover's view.
    fn output(&self, us: &Accumulator, them: &Accumulator) -> i32 {
        let (ours, theirs) = self.output_weights.split_at(HIDDEN);
        let sum = activated_dot(us, ours) + activated_dot(them, theirs);
        let value = sum / i64::from(QA) + i64::from(self.output_bias);
        (value * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
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

/// Where each kind of piece of each side stands: white's pawns to king,
/// then black's (`Role::ALL` order).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Pieces([u64; 12]);

impl Pieces {
    fn of<V: Variant>(pos: &Position<V>) -> Pieces {
        let mut p = Pieces::default();
        for (i, slot) in p.0.iter_mut().enumerate() {
            *slot = pos.pieces(Pieces::owner(i), Role::ALL[i % 6]).0;
        }
        p
    }

    fn owner(slot: usize) -> Color {
        if slot < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Calls `f(white's input, black's input)` for each square of `bits`
    /// holding a piece of slot `slot`'s side and kind.
    #[inline(always)]
    fn features(slot: usize, mut bits: u64, mut f: impl FnMut(usize, usize)) {
        let (owner, role) = (Pieces::owner(slot), Role::ALL[slot % 6]);
        while bits != 0 {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(feature(Color::White, owner, role, square), feature(Color::Black, owner, role, square));
        }
    }

    fn count(&self) -> u32 {
        self.0.iter().map(|b| b.count_ones()).sum()
    }
}

/// A thread's last evaluated position (see `evaluate_incremental`): its
/// pieces and hidden layers, and the network they belong to.
struct Last {
    network: *const Network,
    pieces: Pieces,
    views: [Accumulator; 2],
}

thread_local! {
    static LAST: std::cell::RefCell<Last> = const {
        std::cell::RefCell::new(Last { network: std::ptr::null(), pieces: Pieces([0; 12]), views: [[0; HIDDEN]; 2] })
    };
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
mod tests {
    use super::*;
    use crate::Chess;

    /// A network whose weights follow a fixed pattern: small, varied, and
    /// different for every input and neuron.
    fn patterned() -> Network {
        let w = |i: usize, m: usize| ((i * 7919 + 13) % m) as i16 - (m / 2) as i16;
        Network {
            kind: Kind::Whole,
            hidden_weights: (0..INPUTS * HIDDEN).map(|i| w(i, 61)).collect(),
            hidden_bias: (0..HIDDEN).map(|i| w(i, 201)).collect(),
            output_weights: (0..2 * HIDDEN).map(|i| w(i, 101)).collect(),
            output_bias: -1234,
        }
    }

    /// Repeatable pseudo-random numbers (xorshift): `below(n)` is in 0..n.
    fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    #[test]
    fn each_view_sees_its_own_pieces_first_and_moving_up() {
        // White's pawn on e2 is, to black, an enemy pawn on e7; black's
        // pawn on e7 is, to black, its own pawn on e2.
        let e2 = 12;
        let e7 = 52;
        assert_eq!(feature(Color::White, Color::White, Role::Pawn, e2), e2);
        assert_eq!(feature(Color::Black, Color::White, Role::Pawn, e2), 384 + e7);
        assert_eq!(feature(Color::Black, Color::Black, Role::Pawn, e7), e2);
        assert_eq!(feature(Color::White, Color::Black, Role::King, 63), 384 + 5 * 64 + 63);
        for owner in [Color::White, Color::Black] {
            for role in Role::ALL {
                for square in 0..64 {
                    let white = feature(Color::White, owner, role, square);
                    assert_eq!(black_view(white), feature(Color::Black, owner, role, square));
                }
            }
        }
    }

    #[test]
    fn a_mirrored_position_has_the_mirrored_value() {
        // The same position with colours swapped and the board turned
        // round is, for the side to move, the same: the value flips sign.
        let net = patterned();
        let a = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let b = Chess::from_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4").unwrap();
        let v = net.evaluate(&a);
        assert_ne!(v, 0);
        assert_eq!(net.evaluate(&b), -v);
    }

    #[test]
    fn updating_the_last_position_s_layers_gives_the_full_sum() {
        // Two networks, so that the thread's cache also changes hands.
        let a: &'static Network = Box::leak(Box::new(patterned()));
        let mut other = patterned();
        other.hidden_weights.iter_mut().for_each(|w| *w = -*w / 2);
        let b: &'static Network = Box::leak(Box::new(other));
        // Random games: each position after its parent, a sibling and,
        // now and then, a position of another game far away.
        let mut below = numbers(0x2545_f491_4f6c_dd1d);
        let mut next = |n: usize| below(n as u64) as usize;
        let mut checked = 0;
        for game in 0..6 {
            let mut pos = Chess::startpos();
            for ply in 0..120 {
                let mut list = catchess_game::MoveList::default();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let net = if (game + ply) % 7 == 0 { b } else { a };
                let sibling = pos.play(list.as_slice()[next(list.len())]);
                for p in [&pos, &sibling] {
                    assert_eq!(net.evaluate_incremental(p), net.evaluate(p), "game {game}, ply {ply}");
                    checked += 1;
                }
                pos = pos.play(list.as_slice()[next(list.len())]);
            }
            let far = Chess::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
            assert_eq!(a.evaluate_incremental(&far), a.evaluate(&far));
        }
        assert!(checked > 500, "{checked} positions");
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
        let whole = patterned();
        let correction = Network { kind: Kind::Correction, ..patterned() };
        let hand_made = |scale| move || HandMade { value: 30, scale };
        assert_eq!(whole.value_with(100, hand_made(0)), 100);
        assert_eq!(correction.value_with(100, hand_made(64)), 130);
        assert_eq!(correction.value_with(100, hand_made(16)), 55);
        // A dead draw (scale 0) stays the hand-made value.
        assert_eq!(correction.value_with(100, hand_made(0)), 30);
    }

    #[test]
    fn the_built_in_network_is_a_valid_correction() {
        let net = Network::from_bytes(BUILT_IN_FILE).unwrap();
        assert_eq!(net.kind, Kind::Correction);
        // It corrects, but does not overturn, the hand-made evaluation.
        let start = Chess::startpos();
        assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let net = patterned();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("bytes"));
        assert!(Network::from_bytes(b"not a network").unwrap_err().contains("CATNNUE2"));
        let mut wide = bytes.clone();
        wide[8..12].copy_from_slice(&64u32.to_le_bytes());
        assert!(Network::from_bytes(&wide).unwrap_err().contains("64 hidden"));
        let correction = Network { kind: Kind::Correction, ..net.clone() };
        assert_eq!(Network::from_bytes(&correction.to_bytes()).unwrap(), correction);
        let mut strange = bytes.clone();
        strange[12..16].copy_from_slice(&2u32.to_le_bytes());
        assert!(Network::from_bytes(&strange).unwrap_err().contains("kind is 2"));
        // Weights whose sums could overflow 16 bits.
        let mut big = net.clone();
        big.hidden_weights[5 * HIDDEN + 3] = 20_000;
        big.hidden_weights[9 * HIDDEN + 3] = 20_000;
        assert!(Network::from_bytes(&big.to_bytes()).unwrap_err().contains("neuron 3"));
        // An output weight whose products could overflow 32 bits.
        let mut loud = net.clone();
        loud.output_weights[7] = -(MAX_OUTPUT_WEIGHT + 1);
        assert!(Network::from_bytes(&loud.to_bytes()).unwrap_err().contains("output weight is -128"));
        loud.output_weights[7] = -MAX_OUTPUT_WEIGHT;
        assert!(Network::from_bytes(&loud.to_bytes()).is_ok());
    }
}
