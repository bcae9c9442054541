//! What a search's score means for each seat, in words people and GUIs
//! read: a two-sided game's win, draw and loss chances (`UCI_ShowWDL`),
//! and each seat's chance in a game with a near-zero seat (Cat Chess's
//! outlook: white, black and the cats). One reading for the protocol and
//! the page; each seat's expected score ([`expected_scores`]) and the
//! slips a game's review marks ([`Slip`]) are read from the same.

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
    chances(pos, info.first_seat_cp, matches!(info.score, Score::Mate(_)))
}

/// [`outlook`] of a value from the first seat's view, `mate` when the
/// search found a forced end.
fn chances<G: SearchGame>(pos: &G, first_view: i32, mate: bool) -> Vec<SeatOutlook> {
    // A seat needs a clear edge to convert (`three_way`: about +3 pawns is an even chance).
    let win = |edge: i32| match mate {
        true => 100 * (edge > 0) as u32,
        false => (100.0 * catchess_search::three_way::win_chance(f64::from(edge))).round() as u32,
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

/// Each seat's expected score in per mille, in seat order, after a search
/// of `pos` found `score` (its seat to move's view) and `first_seat_cp`: in a two-sided game the mover's
/// win plus half its draw ([`wdl`]) and the rest for the other seat; in a
/// game with a near-zero seat each seat's own chance ([`outlook`]), since
/// there a draw is the cats' win, not half of anyone's.
pub fn expected_scores<G: SearchGame>(pos: &G, score: Score, first_seat_cp: i32) -> Vec<u32> {
    if has_outlook(G::SEATS) {
        return chances(pos, first_seat_cp, matches!(score, Score::Mate(_)))
            .into_iter()
            .map(|c| c.percent * 10)
            .collect();
    }
    let [w, _, l] = wdl(score);
    let mover = (1000 + w - l) / 2;
    let to_move = pos.to_move().index();
    (0..G::SEATS.len()).map(|i| if i == to_move { mover } else { 1000 - mover }).collect()
}

/// Each seat's expected score in per mille at a game's end: all of it for
/// the winner; a draw that rewards nobody shares it.
pub fn expected_at_end(seats: &[SeatInfo], winner: Option<usize>) -> Vec<u32> {
    let share = 1000 / seats.len().max(1) as u32;
    (0..seats.len())
        .map(|i| match winner {
            Some(w) => 1000 * u32::from(i == w),
            None => share,
        })
        .collect()
}

/// How much a turn cost its seat, as a review marks it: the drop in the
/// seat's own expected score ([`expected_scores`]) from before its turn to
/// after it, at 10, 20 and 30 percentage points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slip {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Slip {
    /// The slip of a drop of `per_mille` in the seat's expected score
    /// (a rise, or a drop under 100, is none).
    pub fn of_drop(per_mille: i64) -> Option<Slip> {
        match per_mille {
            300.. => Some(Slip::Blunder),
            200.. => Some(Slip::Mistake),
            100.. => Some(Slip::Inaccuracy),
            _ => None,
        }
    }

    /// As records annotate a move: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Slip::Inaccuracy => "?!",
            Slip::Mistake => "?",
            Slip::Blunder => "??",
        }
    }

    /// In words, for screen readers: "an inaccuracy", "a mistake", "a blunder".
    pub fn words(self) -> &'static str {
        match self {
            Slip::Inaccuracy => "an inaccuracy",
            Slip::Mistake => "a mistake",
            Slip::Blunder => "a blunder",
        }
    }
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

    use catchess_game::Game;
    use catchess_games::{CatChess, Chess};

    /// The start position with seat `seat` to move.
    fn chess(seat: usize) -> Chess {
        let side = ["w", "b"][seat];
        Chess::from_fen(&format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR {side} KQkq - 0 1")).unwrap()
    }

    fn cat_chess(seat: usize) -> CatChess {
        let side = ["w", "b", "c"][seat];
        CatChess::from_fen(&format!("rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR {side} KQkq - 0 1")).unwrap()
    }

    #[test]
    fn a_two_sided_seat_expects_its_win_and_half_its_draw() {
        // wdl(+3.00) = [881, 117, 2]: 881 + 117/2.
        assert_eq!(expected_scores(&chess(0), Score::Cp(300), 300), [939, 61]);
        // Black to move, three pawns down: the same position's reading from the other side.
        assert_eq!(expected_scores(&chess(1), Score::Cp(-300), 300), [940, 60]);
        assert_eq!(expected_scores(&chess(1), Score::Cp(0), 0), [500, 500]);
        assert_eq!(expected_scores(&chess(1), Score::Mate(2), -30_000), [0, 1000]);
    }

    #[test]
    fn a_cat_chess_seat_expects_its_own_three_way_chance() {
        // An even position: 8 % each for white and black, the cats' 84 % (a draw is theirs).
        assert_eq!(expected_scores(&cat_chess(2), Score::Cp(0), 0), [80, 80, 840]);
        // White six pawns up: 92 %, black none, the cats 8 %.
        assert_eq!(expected_scores(&cat_chess(1), Score::Cp(-600), 600), [920, 0, 80]);
        assert_eq!(expected_scores(&cat_chess(0), Score::Mate(1), 30_000), [1000, 0, 0]);
        assert_eq!(expected_at_end(CatChess::SEATS, Some(2)), [0, 0, 1000]);
        assert_eq!(expected_at_end(Chess::SEATS, None), [500, 500]);
    }

    #[test]
    fn a_slip_is_read_from_the_drop_in_the_movers_own_expected_score() {
        assert_eq!(Slip::of_drop(99), None);
        assert_eq!(Slip::of_drop(-400), None);
        assert_eq!(Slip::of_drop(100), Some(Slip::Inaccuracy));
        assert_eq!(Slip::of_drop(250), Some(Slip::Mistake));
        assert_eq!(Slip::of_drop(300), Some(Slip::Blunder));
        // White, even (500), lets a mate in two through (0): a blunder.
        let before = expected_scores(&chess(0), Score::Cp(0), 0)[0];
        let after = expected_scores(&chess(1), Score::Mate(2), -30_000)[0];
        assert_eq!(Slip::of_drop(i64::from(before) - i64::from(after)).map(Slip::symbol), Some("??"));
        // White from +1.50 (wdl [500, 482, 18]: 741) to even (500): 24 points, a mistake.
        let before = expected_scores(&chess(0), Score::Cp(150), 150)[0];
        assert_eq!(before, 741);
        let after = expected_scores(&chess(1), Score::Cp(0), 0)[0];
        assert_eq!(Slip::of_drop(i64::from(before) - i64::from(after)), Some(Slip::Mistake));
        // The cats from 84 % (even) to 8 % (white six pawns up): a blunder of the cats' own.
        let cats_before = expected_scores(&cat_chess(2), Score::Cp(0), 0)[2];
        let cats_after = expected_scores(&cat_chess(0), Score::Cp(600), 600)[2];
        assert_eq!(Slip::of_drop(i64::from(cats_before) - i64::from(cats_after)), Some(Slip::Blunder));
        assert_eq!((Slip::Mistake.symbol(), Slip::Mistake.words()), ("?", "a mistake"));
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
        let chess = Chess::from_fen("1k6/8/8/8/8/8/2QQ4/6K1 b - - 0 1").unwrap();
        assert!(!chess.cannot_win(Seat::new(0)));
    }
}
