//! A table's result: who wins and in how many plies, or nobody (the cats'
//! win in Cat Chess, a draw in chess), and how each seat chooses among them.

use crate::chess::Side;
use catchess_core::Color;

/// The result of a position under perfect play by every seat.
///
/// `plies` counts every move to the end of the game, the cats' moves
/// included: 0 when the side to move is mated now. The fifty-move rule and
/// repetition are ignored, as in classical distance-to-mate tables.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Verdict {
    /// Nobody can force a mate: stalemate, insufficient material or play
    /// that never ends. The cats' win in Cat Chess, a draw in chess.
    Draw,
    Win {
        winner: Color,
        plies: u16,
    },
}

impl Verdict {
    /// The same result seen one ply earlier.
    pub fn before_move(self) -> Verdict {
        match self {
            Verdict::Draw => Verdict::Draw,
            Verdict::Win { winner, plies } => Verdict::Win { winner, plies: plies + 1 },
        }
    }

    /// How much `mover` likes this result of one of its moves (larger is
    /// better): white and black take their fastest win, then the draw, then
    /// their slowest loss; the cats take the draw, then the slowest win of
    /// either side (on equal length, black's, an arbitrary but fixed choice).
    pub fn preference(self, mover: Side) -> (u8, i32) {
        match (self, mover.color()) {
            (Verdict::Draw, Some(_)) => (1, 0),
            (Verdict::Draw, None) => (2, 0),
            (Verdict::Win { winner, plies }, Some(us)) if winner == us => (2, -(plies as i32)),
            (Verdict::Win { plies, .. }, Some(_)) => (0, plies as i32),
            (Verdict::Win { winner, plies }, None) => (1, 2 * plies as i32 + (winner == Color::Black) as i32),
        }
    }

    /// The result of a position whose side to move is `mover` and whose
    /// moves lead to `children`: the one `mover` likes best, one ply
    /// earlier. `None` without children (the caller judges mate and
    /// stalemate).
    pub fn choose(mover: Side, children: impl IntoIterator<Item = Verdict>) -> Option<Verdict> {
        children.into_iter().max_by_key(|v| v.preference(mover)).map(Verdict::before_move)
    }

    /// The protocol's words: `white 17`, `black 4`, `cats -` (`draw -` in
    /// chess).
    pub fn words(self, cats: bool) -> String {
        match self {
            Verdict::Draw if cats => "cats -".to_string(),
            Verdict::Draw => "draw -".to_string(),
            Verdict::Win { winner, plies } => format!("{} {plies}", Side::from(winner)),
        }
    }

    /// In a sentence, for people: "white mates in 17 plies", "the cats hold".
    pub fn sentence(self, cats: bool) -> String {
        match self {
            Verdict::Draw if cats => "the cats hold (a draw, the cats' win)".to_string(),
            Verdict::Draw => "a draw".to_string(),
            Verdict::Win { winner, plies: 0 } => format!("{} has mated", Side::from(winner)),
            Verdict::Win { winner, plies } => format!("{} mates in {plies} plies", Side::from(winner)),
        }
    }
}

/// Entries as the generator keeps them and the files store them: 0 the
/// draw (and, while generating, "not known yet"), 1 an index that is no
/// position, then `2 + 2·plies + (black wins)`.
pub mod code {
    use super::Verdict;
    use catchess_core::Color;

    pub const DRAW: u16 = 0;
    pub const INVALID: u16 = 1;
    /// While generating: a win known from a move leaving the table (a
    /// promotion), which a faster win inside the table may still beat.
    pub const TENTATIVE: u16 = 0x8000;
    /// The longest win an entry can hold.
    pub const MAX_PLIES: u16 = (TENTATIVE - 3) / 2;

    pub const fn win(winner: Color, plies: u16) -> u16 {
        2 + 2 * plies + matches!(winner, Color::Black) as u16
    }

    pub fn encode(v: Verdict) -> u16 {
        match v {
            Verdict::Draw => DRAW,
            Verdict::Win { winner, plies } => win(winner, plies),
        }
    }

    /// The verdict of a valid entry (`None` for an invalid one).
    pub fn decode(c: u16) -> Option<Verdict> {
        match c & !TENTATIVE {
            DRAW => Some(Verdict::Draw),
            INVALID => None,
            c => {
                Some(Verdict::Win { winner: if c & 1 == 1 { Color::Black } else { Color::White }, plies: (c - 2) / 2 })
            }
        }
    }

    /// The plies of a win entry (tentative or not).
    pub fn plies(c: u16) -> Option<u16> {
        let c = c & !TENTATIVE;
        (c >= 2).then(|| (c - 2) / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn w(plies: u16) -> Verdict {
        Verdict::Win { winner: Color::White, plies }
    }
    const fn b(plies: u16) -> Verdict {
        Verdict::Win { winner: Color::Black, plies }
    }

    #[test]
    fn each_seat_chooses_as_the_model_says() {
        let all = [w(3), w(9), Verdict::Draw, b(2), b(8)];
        assert_eq!(Verdict::choose(Side::White, all), Some(w(4)));
        assert_eq!(Verdict::choose(Side::Black, all), Some(b(3)));
        assert_eq!(Verdict::choose(Side::Cats, all), Some(Verdict::Draw));
        assert_eq!(Verdict::choose(Side::Cats, [w(3), w(9), b(8)]), Some(w(10)));
        assert_eq!(Verdict::choose(Side::White, [b(2), b(8)]), Some(b(9)));
        assert_eq!(Verdict::choose(Side::Black, [w(3), w(9)]), Some(w(10)));
        assert_eq!(Verdict::choose(Side::Black, [w(3), Verdict::Draw]), Some(Verdict::Draw));
        assert_eq!(Verdict::choose(Side::Cats, []), None);
    }

    #[test]
    fn codes_round_trip() {
        for v in [Verdict::Draw, w(0), b(0), w(126), b(code::MAX_PLIES)] {
            assert_eq!(code::decode(code::encode(v)), Some(v));
            assert_eq!(code::decode(code::encode(v) | code::TENTATIVE), Some(v));
        }
        assert_eq!(code::decode(code::INVALID), None);
        assert_eq!(code::encode(b(126)), 255);
    }
}
