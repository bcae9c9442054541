//! Tapered scores: middlegame and endgame parts blended by the phase, the
//! shape every hand-written evaluation here uses.

/// A score split into middlegame and endgame parts, blended by the phase.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    /// The blend at `phase` out of `max` (max = all pieces on the board).
    #[inline(always)]
    pub fn blend(self, phase: i32, max: i32) -> i32 {
        (self.mg * phase + self.eg * (max - phase)) / max
    }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn add(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for Tapered {
    #[inline(always)]
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn sub(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::Mul<i32> for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn mul(self, k: i32) -> Tapered {
        Tapered::new(self.mg * k, self.eg * k)
    }
}
