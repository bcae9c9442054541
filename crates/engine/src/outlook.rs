//! What a search's score means for each seat, in words people and GUIs
//! read: a two-sided game's win, draw and loss chances (`UCI_ShowWDL`),
//! and each seat's chance in a game with a near-zero seat (Cat Chess's
//! outlook: white, black and the cats). One reading for the protocol and
//! the page.

use catchess_game::{Goal, Seat, SeatInfo};
use catchess_search::{Score, SearchGame, SearchInfo};

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

/// One seat's chance in the three-way [`outlook`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatOutlook {
    /// How likely the seat is to win, in percent (the seats' sum is 100).
    pub percent: u32,
    /// The position as it stands denies the seat a win, however large its
    /// edge ([`SearchGame::cannot_win`]): its percent is 0 unless a mate is
    /// proved, and the page and the protocol say why.
    pub cannot_win: bool,
}

/// How likely each seat of `pos` is to win, in percent, in seat order,
/// after a search of `pos` reported `info`: a logistic reading of the
/// first-seat score (documented in protocol.md) for the maximising and
/// minimising seats, the rest for the near-zero seat. A mate score is a
/// certainty for the mating seat; short of one, a seat that cannot win as
/// things stand (a king sheltered by a cat) has no chance, whatever the
/// material says.
pub fn outlook<G: SearchGame>(pos: &G, info: &SearchInfo) -> Vec<SeatOutlook> {
    let first_view = info.first_seat_cp;
    let mate = matches!(info.score, Score::Mate(_));
    // A seat needs a clear edge to convert: about +3 pawns is an even chance.
    let win = |edge: i32| match mate {
        true => 100 * (edge > 0) as u32,
        false => (100.0 / (1.0 + (-(edge as f64 - 300.0) / 120.0).exp())).round() as u32,
    };
    let mut chances: Vec<SeatOutlook> = G::SEATS
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let cannot_win = pos.cannot_win(Seat::new(i));
            let percent = match s.goal {
                _ if cannot_win && !mate => 0,
                Goal::Maximise => win(first_view),
                Goal::Minimise => win(-first_view),
                Goal::NearZero => 0,
            };
            SeatOutlook { percent, cannot_win }
        })
        .collect();
    let rest = 100u32.saturating_sub(chances.iter().map(|c| c.percent).sum());
    if let Some(i) = G::SEATS.iter().position(|s| s.goal == Goal::NearZero) {
        chances[i].percent = rest;
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

    /// A report of a search with this first-seat score (and no line).
    fn info(score: Score, first_seat_cp: i32) -> SearchInfo {
        SearchInfo {
            depth: 1,
            seldepth: 1,
            nodes: 1,
            time: std::time::Duration::ZERO,
            hashfull: 0,
            score,
            first_seat_cp,
            pv: vec![],
            multipv: 1,
            tbhits: 0,
        }
    }

    #[test]
    fn a_king_beside_a_cat_leaves_its_enemy_no_chance_short_of_a_proved_mate() {
        use catchess_games::CatChess;
        let percents = |o: Vec<SeatOutlook>| o.iter().map(|c| c.percent).collect::<Vec<_>>();
        // White has two queens; black's king is on b8 beside the a8 cat.
        let sheltered = CatChess::from_fen("*k6/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1").unwrap();
        let out = outlook(&sheltered, &info(Score::Cp(-1800), 1800));
        assert_eq!(out.iter().map(|c| c.cannot_win).collect::<Vec<_>>(), [true, false, false]);
        assert_eq!(percents(out), [0, 0, 100]);
        // With white's king beside the other cat neither can win.
        let both = CatChess::from_fen("*k6/8/8/8/8/8/2QQ4/6K* b - - 0 1").unwrap();
        let out = outlook(&both, &info(Score::Cp(-300), 300));
        assert_eq!(out.iter().map(|c| c.cannot_win).collect::<Vec<_>>(), [true, true, false]);
        assert_eq!(percents(out), [0, 0, 100]);
        // The same material with the king in the open: white all but wins.
        let open = CatChess::from_fen("1k5*/8/8/3*4/8/8/2QQ4/6K1 b - - 0 1").unwrap();
        let out = outlook(&open, &info(Score::Cp(-1800), 1800));
        assert_eq!(out.iter().map(|c| c.cannot_win).collect::<Vec<_>>(), [false, false, false]);
        assert_eq!(percents(out), [100, 0, 0]);
        // A proved mate stands even beside a cat (a cat may step away).
        let out = outlook(&sheltered, &info(Score::Mate(-3), 31_990));
        assert!(out[0].cannot_win);
        assert_eq!(percents(out), [100, 0, 0]);
        // Standard chess never has a sheltered king.
        let chess = catchess_games::Chess::from_fen("1k6/8/8/8/8/8/2QQ4/6K1 b - - 0 1").unwrap();
        assert!(!chess.cannot_win(Seat::new(0)));
    }
}
