//! What a search's score means for each seat, in words people and GUIs
//! read: a two-sided game's win, draw and loss chances (`UCI_ShowWDL`),
//! and each seat's chance in a game with a near-zero seat (Cat Chess's
//! outlook: white, black and the cats). One reading for the protocol and
//! the page.

use catchess_game::{Goal, SeatInfo};
use catchess_search::{Score, SearchInfo};

/// Win, draw and loss chances in per mille for the side to move of a
/// two-sided game: a logistic reading of the score (a side needs about
/// +1.5 pawns for an even chance to win), not a fitted model.
pub fn wdl(score: Score) -> [u32; 3] {
    let cp = match score {
        Score::Mate(n) if n > 0 => return [1000, 0, 0],
        Score::Mate(_) => return [0, 0, 1000],
        Score::Cp(cp) => cp as f64,
    };
    let win = |edge: f64| 1.0 / (1.0 + (-(edge - 150.0) / 75.0).exp());
    let w = (win(cp) * 1000.0).round() as u32;
    let l = (win(-cp) * 1000.0).round() as u32;
    [w, 1000u32.saturating_sub(w + l), l]
}

/// Whether a game's seats call for the three-way [`outlook`]: one of them
/// wins by keeping the score near zero (Cat Chess's cats win every draw).
pub fn has_outlook(seats: &[SeatInfo]) -> bool {
    seats.iter().any(|s| s.goal == Goal::NearZero)
}

/// How likely each seat is to win, in percent, in seat order: a logistic
/// reading of the first-seat score (documented in protocol.md) for the
/// maximising and minimising seats, the rest for the near-zero seat. A
/// mate score is a certainty for the mating seat.
pub fn outlook(seats: &[SeatInfo], info: &SearchInfo) -> Vec<u32> {
    let first_view = info.first_seat_cp;
    let mate = matches!(info.score, Score::Mate(_));
    // A seat needs a clear edge to convert: about +3 pawns is an even chance.
    let win = |edge: i32| match mate {
        true => 100 * (edge > 0) as u32,
        false => (100.0 / (1.0 + (-(edge as f64 - 300.0) / 120.0).exp())).round() as u32,
    };
    let mut chances: Vec<u32> = seats
        .iter()
        .map(|s| match s.goal {
            Goal::Maximise => win(first_view),
            Goal::Minimise => win(-first_view),
            Goal::NearZero => 0,
        })
        .collect();
    let rest = 100u32.saturating_sub(chances.iter().sum());
    if let Some(i) = seats.iter().position(|s| s.goal == Goal::NearZero) {
        chances[i] = rest;
    }
    chances
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_a_thousand_and_leans_with_the_score() {
        for cp in [-2000, -300, -1, 0, 1, 150, 4000] {
            let [w, d, l] = wdl(Score::Cp(cp));
            assert_eq!(w + d + l, 1000, "{cp}");
            assert_eq!(w > l, cp > 0, "{cp}");
        }
        assert_eq!(wdl(Score::Mate(3)), [1000, 0, 0]);
        assert_eq!(wdl(Score::Mate(-1)), [0, 0, 1000]);
    }
}
