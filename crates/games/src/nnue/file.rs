//! A network file (its format in `mod.rs`'s doc): its game's shape, its
//! kind, and reading and writing it, checked. Plain Rust with nothing of the
//! engine, so that the build script (`crates/games/build.rs`) reads the
//! networks it builds in with this same code: a network file that the
//! engine would refuse fails the build, with this reader's words.

/// A game's inputs: for each view, one per (owner as that view sees it,
/// kind of man, square), own men first, then one per (kind of neutral man,
/// square) for men of nobody's (Cat Chess's cats); each view's board is
/// turned round (rank r read as rank `ranks - 1 - r`) so that its own men
/// move up it. Its outputs: one value, or the chances of a game's three
/// outcomes. The file's magic names the game, so that no game reads
/// another's network.
#[derive(PartialEq, Eq, Debug)]
pub struct Shape {
    /// The game, for messages.
    pub game: &'static str,
    pub magic: &'static [u8; 8],
    /// Kinds of men per side.
    pub roles: usize,
    /// Kinds of neutral men (no side's).
    pub neutrals: usize,
    pub files: usize,
    pub ranks: usize,
    /// What the network predicts (`Outputs`).
    pub outputs: Outputs,
    /// The most men a position holds: every accumulator sum stays within
    /// i16 for this many rows and the bias (checked on loading).
    pub max_pieces: usize,
}

/// What a network's output layer gives.
#[derive(PartialEq, Eq, Debug, Clone, Copy)]
pub enum Outputs {
    /// One value, centipawns from the mover's view.
    Value,
    /// The logits of three outcomes from the mover's view: the mover
    /// mates, the other side mates, the near-zero seat wins (Cat Chess's
    /// cats: every draw).
    ThreeOutcomes,
}

impl Outputs {
    /// Output neurons.
    pub const fn count(self) -> usize {
        match self {
            Outputs::Value => 1,
            Outputs::ThreeOutcomes => 3,
        }
    }
}

/// Standard chess: 2 owners × 6 kinds × 64 squares, 32 men at most.
pub const CHESS: Shape = Shape {
    game: "standard chess",
    magic: b"CATNNUE2",
    roles: 6,
    neutrals: 0,
    files: 8,
    ranks: 8,
    outputs: Outputs::Value,
    max_pieces: 32,
};
/// Xiangqi: 2 owners × 7 kinds × 90 points, 32 men at most (no promotion).
pub const XIANGQI: Shape = Shape {
    game: "xiangqi",
    magic: b"CATNNXQ1",
    roles: 7,
    neutrals: 0,
    files: 9,
    ranks: 10,
    outputs: Outputs::Value,
    max_pieces: 32,
};
/// Cat Chess: 2 owners × 6 kinds × 64 squares and the cats' 64 (one
/// kind: the two cats are alike), 32 men and 2 cats at most; three
/// outcomes, since white's mate, black's and the cats' hold are three
/// seats' wins, not one scale (`catchess_search::three_way`).
pub const CATCHESS: Shape = Shape {
    game: "Cat Chess",
    magic: b"CATNNCC1",
    roles: 6,
    neutrals: 1,
    files: 8,
    ranks: 8,
    outputs: Outputs::ThreeOutcomes,
    max_pieces: 34,
};

impl Shape {
    pub const fn squares(&self) -> usize {
        self.files * self.ranks
    }

    /// Inputs per view.
    pub const fn inputs(&self) -> usize {
        (2 * self.roles + self.neutrals) * self.squares()
    }

    /// Inputs per view for the sides' men (the neutral men's follow).
    const fn sides_inputs(&self) -> usize {
        2 * self.roles * self.squares()
    }

    /// The input of a man of the view's own side (`theirs` false) or the
    /// other's, of kind `role`, on `square` as the view sees the board.
    #[inline(always)]
    pub const fn input(&self, theirs: bool, role: usize, square: usize) -> usize {
        (theirs as usize * self.roles + role) * self.squares() + square
    }

    /// The input of a neutral man of kind `kind` on `square` as the view
    /// sees the board.
    #[inline(always)]
    pub const fn neutral_input(&self, kind: usize, square: usize) -> usize {
        self.sides_inputs() + kind * self.squares() + square
    }

    /// The other view's input for input `f`: the owner swapped (a neutral
    /// man stays nobody's) and the board turned round.
    #[inline(always)]
    pub const fn other_view(&self, f: usize) -> usize {
        let square = f % self.squares();
        let turned = (self.ranks - 1 - square / self.files) * self.files + square % self.files;
        if f >= self.sides_inputs() {
            return f - square + turned;
        }
        let half = self.roles * self.squares();
        let (theirs, rest) = (f / half, f % half);
        (1 - theirs) * half + rest - square + turned
    }

    /// Output weights: each output's mover's `HIDDEN` then the other's.
    pub const fn output_weights(&self) -> usize {
        self.outputs.count() * 2 * HIDDEN
    }

    /// The size of a network file of this shape (see the module doc).
    pub const fn file_bytes(&self) -> usize {
        HEADER_BYTES + 2 * (self.inputs() * HIDDEN + HIDDEN + self.output_weights()) + 4 * self.outputs.count()
    }
}

/// Hidden neurons per view.
pub const HIDDEN: usize = 128;
/// The largest output weight a network may have: one half's
/// `HIDDEN` · QA² · 127 sum stays within i32 (checked in `mod.rs`).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// What a network's output is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// The position's whole value.
    Whole,
    /// A correction added to the hand-made evaluation (a three-outcome
    /// network's: to the logarithms of the chances it reads as). A network learnt
    /// from the few games this project can play need not relearn what
    /// the hand-made evaluation (and the search tuned with it) knows; it
    /// starts from it and learns what it misses. The correction is an
    /// advantage like any other, so the hand-made evaluation's scale
    /// (`HandMade::scale`) shrinks it too: a dead draw stays a draw.
    Correction,
}

impl Kind {
    fn code(self) -> u32 {
        match self {
            Kind::Whole => 0,
            Kind::Correction => 1,
        }
    }

    fn from_code(code: u32) -> Option<Kind> {
        [Kind::Whole, Kind::Correction].into_iter().find(|k| k.code() == code)
    }
}

/// The magic, the hidden size and the kind.
const HEADER_BYTES: usize = 8 + 4 + 4;

/// A network with integer weights (see the module doc).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Network {
    pub shape: &'static Shape,
    pub kind: Kind,
    /// `shape.inputs()` rows of `HIDDEN`.
    pub hidden_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// For each output, the mover's `HIDDEN` then the other side's.
    pub output_weights: Vec<i16>,
    /// One per output.
    pub output_biases: Vec<i32>,
}

impl Network {
    /// Reads a network file of `shape`'s game, refusing one of another
    /// game or size or whose sums could leave i16 (see `CLIP` in `mod.rs`).
    pub fn from_bytes(shape: &'static Shape, bytes: &[u8]) -> Result<Network, String> {
        let expected = shape.file_bytes();
        if bytes.len() < HEADER_BYTES || &bytes[..8] != shape.magic {
            let magic = String::from_utf8_lossy(shape.magic);
            return Err(format!("not a catchess {} network file (it does not start with {magic})", shape.game));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let hidden = word(8) as usize;
        if hidden != HIDDEN {
            return Err(format!("the network has {hidden} hidden neurons; this build reads {HIDDEN}"));
        }
        let kind = Kind::from_code(word(12)).ok_or_else(|| {
            format!("the network's kind is {}; this build reads 0 (whole) and 1 (correction)", word(12))
        })?;
        if bytes.len() != expected {
            return Err(format!(
                "the network file has {} bytes; a {HIDDEN}-neuron network has {expected}",
                bytes.len()
            ));
        }
        let mut at = HEADER_BYTES;
        let mut words = |n: usize| {
            let v: Vec<i16> = bytes[at..at + 2 * n].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
            at += 2 * n;
            v
        };
        let hidden_weights = words(shape.inputs() * HIDDEN);
        let hidden_bias = words(HIDDEN);
        let output_weights = words(shape.output_weights());
        let output_biases =
            bytes[at..].chunks_exact(4).map(|b| i32::from_le_bytes(b.try_into().expect("4 bytes"))).collect();
        let net = Network { shape, kind, hidden_weights, hidden_bias, output_weights, output_biases };
        net.check_range()?;
        Ok(net)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.shape.magic.to_vec();
        out.extend((HIDDEN as u32).to_le_bytes());
        out.extend(self.kind.code().to_le_bytes());
        for w in self.hidden_weights.iter().chain(&self.hidden_bias).chain(&self.output_weights) {
            out.extend(w.to_le_bytes());
        }
        for b in &self.output_biases {
            out.extend(b.to_le_bytes());
        }
        out
    }

    /// Every neuron's bias and its `max_pieces` largest rows in size must
    /// sum within i16, whatever the position; and the output weights stay
    /// within ±`MAX_OUTPUT_WEIGHT`.
    fn check_range(&self) -> Result<(), String> {
        if let Some(w) = self.output_weights.iter().find(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(format!("an output weight is {w}, beyond ±{MAX_OUTPUT_WEIGHT}: weights out of range"));
        }
        for n in 0..HIDDEN {
            let mut sizes: Vec<i32> =
                (0..self.shape.inputs()).map(|i| i32::from(self.hidden_weights[i * HIDDEN + n]).abs()).collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            let worst = i32::from(self.hidden_bias[n]).abs() + sizes[..self.shape.max_pieces].iter().sum::<i32>();
            if worst > i32::from(i16::MAX) {
                return Err(format!("hidden neuron {n} can reach {worst}, beyond 16 bits: weights out of range"));
            }
        }
        Ok(())
    }
}
