//! Seats: the sides of a game that take turns, as the game names them, and
//! what each plays for.

/// One of a game's seats: an index into [`Game::SEATS`](super::Game::SEATS),
/// in turn order (0 moves first in the start position).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Seat(u8);

impl Seat {
    pub const fn new(index: usize) -> Seat {
        assert!(index < 8, "a game has at most 8 seats");
        Seat(index as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a seat plays for, read on the one value every game is searched
/// with: a number from the first seat's point of view, +mate when a
/// maximising seat wins, -mate when a minimising one does, 0 for a draw.
///
/// That one scale serves any number of seats: chess has a maximiser and a
/// minimiser; Cat Chess adds the cats, who win every draw and so want the
/// value as near zero as possible (either mate is equally their loss).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Goal {
    Maximise,
    Minimise,
    NearZero,
}

impl Goal {
    /// The sign that turns the first seat's value into this seat's view
    /// (a near-zero seat reads it as the first seat does).
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Goal::Minimise => -1,
            Goal::Maximise | Goal::NearZero => 1,
        }
    }
}

/// How a game describes one seat: to players, in FEN, on the clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeatInfo {
    /// The name in the protocol's `outcome`, in records and tables
    /// (`white`, `red`, `cats`).
    pub name: &'static str,
    /// The letter of the side to move in FEN (`w`, `b`, `c`).
    pub fen: char,
    /// The letter of its clock in `go`: `<c>time` and `<c>inc` (`wtime`,
    /// `ctime`).
    pub clock: char,
    pub goal: Goal,
}
