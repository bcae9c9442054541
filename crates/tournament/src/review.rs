//! `catchess pgn stats FILE --engine NAME`: what match records say beyond
//! their score, per engine and seat (Cat Chess's three seats included):
//! the clock each used against its budget, the clock left, its time
//! forfeits; and, for NAME, where its losses turned as it saw them: in how
//! many it had scored itself +1.0 or better, and the move at which its own
//! score first fell below -1.5.
//!
//! Read with the project's PGN reader and each game's rules (`game::pgn`),
//! so a seat's turns are its own whatever the game (passes, 10×10 turns,
//! a start from a FEN). Move times come from the arbiter's move comments
//! (`record::move_comment`, `+0.35/12 0.051s`) or `[%emt]`, clocks from
//! `[%clk]`.

use catchess_core::files::read_bounded;
use catchess_game::pgn::record::FaultKind;
use catchess_game::pgn::record::Score;
use catchess_game::pgn::record::{capitalised, read_move_comment, termination_by, winner_of_result};
use catchess_game::pgn::{self, Numbering, PgnGame, Stop};
use catchess_game::{Arbitration, Notation, Seat};
use catchess_games::{with_game, VariantKind};
use std::fmt::Write;

/// A score of +1.0 (centipawns): a loss from here was a game the engine
/// thought it was winning.
const GOOD: i64 = 100;
/// A score below -1.5: where the game turned, as the engine saw it.
const TURNED: i64 = -150;
/// A mate's score in centipawns, for these thresholds.
const MATE_CP: i64 = 10_000;
/// The move numbers a turn's loss is binned by: before 20, 20–39, 40 on.
const BINS: [u64; 2] = [20, 40];

/// One seat of one game: who sat there and what its turns say.
#[derive(Clone, Debug, Default, PartialEq)]
struct SeatGame {
    engine: String,
    seat: &'static str,
    /// Its turns.
    turns: usize,
    /// Seconds its moves took (the comments' times), if they say.
    used: Option<f64>,
    /// Its clock after its last turn (`%clk`), if the record says.
    clock: Option<f64>,
    /// Seconds its time control gave it for its turns, if the record says.
    budget: Option<f64>,
    time_forfeit: bool,
    /// Another seat won.
    lost: bool,
    /// Its own scores after its turns: (move number, centipawns).
    scores: Vec<(u64, i64)>,
}

impl SeatGame {
    /// The clock it used: its moves' times, or its budget less the clock left.
    fn clock_used(&self) -> Option<f64> {
        self.used.or_else(|| Some(self.budget? - self.clock?))
    }

    /// The clock it had left: `%clk`, or its budget less the time it used.
    fn clock_left(&self) -> Option<f64> {
        self.clock.or_else(|| Some(self.budget? - self.used?))
    }
}

/// Seconds a PGN `TimeControl` (`300+2`, `60`, `40/5400`) gives for `turns`
/// turns; `None` for `-`, `?` and what is no clock.
fn budget(tc: &str, turns: usize) -> Option<f64> {
    let secs = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
    if let Some((moves, base)) = tc.split_once('/') {
        let moves = moves.parse::<usize>().ok().filter(|&m| m > 0)?;
        return Some(secs(base)? * turns.max(1).div_ceil(moves) as f64);
    }
    match tc.split_once('+') {
        Some((base, inc)) => Some(secs(base)? + secs(inc)? * turns as f64),
        None => secs(tc),
    }
}

fn centipawns(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) => MATE_CP * n.signum(),
    }
}

/// The seats of one game of `G`, replayed.
fn seat_games<G: Notation + Arbitration>(game: &PgnGame) -> Result<Vec<SeatGame>, String> {
    let history = pgn::replay::<G>(game, Stop::AtEnd).map_err(|e| e.to_string())?;
    let result = game.tag("Result").or(game.result.as_deref()).unwrap_or("*");
    let winner = winner_of_result::<G>(result, game.tag("Winner")).flatten();
    let details = game.tag("TerminationDetails").unwrap_or("");
    let mut seats: Vec<SeatGame> = G::SEATS
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = capitalised(s.name);
            let on_time = termination_by(FaultKind::TimeForfeit.name(), s.name);
            let fault = format!("{} (", s.name);
            SeatGame {
                engine: game.tag(&name).unwrap_or("?").to_string(),
                seat: s.name,
                time_forfeit: details == on_time
                    || game.tag("Faults").is_some_and(|f| {
                        f.split("; ").any(|x| x.starts_with(&fault) && x.contains(FaultKind::TimeForfeit.name()))
                    }),
                lost: winner.is_some_and(|w| w != Seat::new(i)),
                ..SeatGame::default()
            }
        })
        .collect();
    let mut numbering = Numbering::new(history.start());
    for (i, (pos, _)) in history.turns().into_iter().enumerate() {
        let number = numbering.next(pos).number;
        let seat = &mut seats[pos.to_move().index()];
        seat.turns += 1;
        let Some(comment) = game.comment_after(i) else { continue };
        let (note, elapsed) = read_move_comment(comment);
        if let Some(t) = elapsed.or_else(|| pgn::read_elapsed(comment)) {
            seat.used = Some(seat.used.unwrap_or(0.0) + t.as_secs_f64());
        }
        if let Some(left) = pgn::read_clock(comment) {
            seat.clock = Some(left.as_secs_f64());
        }
        if let Some(score) = note.score {
            seat.scores.push((number, centipawns(score)));
        }
    }
    for seat in &mut seats {
        let own = format!("{}TimeControl", capitalised(seat.seat));
        seat.budget = game.tag(&own).or(game.tag("TimeControl")).and_then(|tc| budget(tc, seat.turns));
    }
    Ok(seats)
}

/// The sums of an engine's games in one seat.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    /// Clock used and budget, over the games where both are known.
    used: f64,
    budget: f64,
    timed_games: usize,
    /// Clock used over the games where only it is known.
    used_untimed: f64,
    untimed_games: usize,
    left: Vec<f64>,
    time_forfeits: usize,
    losses: usize,
    from_good: usize,
    /// Losses by the move its score first fell below -1.5: before 20,
    /// 20–39, 40 on, never.
    turned: [usize; 4],
}

impl Tally {
    fn add(&mut self, g: &SeatGame) {
        self.games += 1;
        match (g.clock_used(), g.budget) {
            (Some(u), Some(b)) => {
                self.used += u;
                self.budget += b;
                self.timed_games += 1;
            }
            (Some(u), None) => {
                self.used_untimed += u;
                self.untimed_games += 1;
            }
            _ => {}
        }
        self.left.extend(g.clock_left());
        self.time_forfeits += usize::from(g.time_forfeit);
        if g.lost {
            self.losses += 1;
            self.from_good += usize::from(g.scores.iter().any(|&(_, cp)| cp >= GOOD));
            let turned = g.scores.iter().find(|&&(_, cp)| cp < TURNED).map(|&(n, _)| n);
            self.turned[turned.map_or(3, |n| BINS.iter().filter(|&&b| n >= b).count())] += 1;
        }
    }

    fn clock_line(&self) -> String {
        let mut parts = vec![format!("{} games", self.games)];
        if self.timed_games > 0 {
            let n = self.timed_games as f64;
            let percent = if self.budget > 0.0 { 100.0 * self.used / self.budget } else { 0.0 };
            parts.push(format!(
                "clock used {:.1} s of {:.1} s a game ({percent:.0} %)",
                self.used / n,
                self.budget / n
            ));
        } else if self.untimed_games > 0 {
            parts.push(format!("clock used {:.1} s a game", self.used_untimed / self.untimed_games as f64));
        }
        if !self.left.is_empty() {
            let mut left = self.left.clone();
            left.sort_by(f64::total_cmp);
            let mid = left.len() / 2;
            let median = if left.len() % 2 == 1 { left[mid] } else { (left[mid - 1] + left[mid]) / 2.0 };
            parts.push(format!("clock left median {median:.2} s"));
        }
        parts.push(format!("{} time forfeits", self.time_forfeits));
        parts.join(", ")
    }

    fn loss_line(&self) -> String {
        let [a, b, c, never] = self.turned;
        format!(
            "{} losses, {} from its own score of +1.0 or better; its score first below -1.5 \
             before move 20: {a}, at moves 20-39: {b}, at move 40 or later: {c}, never: {never}",
            self.losses, self.from_good
        )
    }
}

/// The report on the records in `text` (of any variant: each game's
/// `Variant` tag, else `default`) for `engine`.
pub fn report(text: &str, engine: &str, default: VariantKind, what: &str) -> Result<String, String> {
    let words = VariantKind::all_result_words();
    // (engine, seat) in the order first met, with their tallies.
    let mut tallies: Vec<((String, &'static str), Tally)> = Vec::new();
    let mut unreadable = Vec::new();
    let mut games = 0;
    for (n, game) in pgn::games(text, &words).enumerate() {
        let game = game.map_err(|e| format!("{what}: {e}"))?;
        games += 1;
        let seats = VariantKind::of_record(game.tag("Variant"), default)
            .and_then(|v| with_game!(v, G => seat_games::<G>(&game)));
        let seats = match seats {
            Ok(seats) => seats,
            Err(e) => {
                unreadable.push(format!("game {} (line {}): {e}", n + 1, game.line));
                continue;
            }
        };
        for s in seats {
            let key = (s.engine.clone(), s.seat);
            match tallies.iter_mut().find(|(k, _)| *k == key) {
                Some((_, t)) => t.add(&s),
                None => {
                    let mut t = Tally::default();
                    t.add(&s);
                    tallies.push((key, t));
                }
            }
        }
    }
    if !tallies.iter().any(|((e, _), _)| e == engine) {
        let mut players: Vec<&str> = Vec::new();
        for ((e, _), _) in &tallies {
            if !players.contains(&e.as_str()) {
                players.push(e);
            }
        }
        return Err(format!("{what}: {engine:?} plays no game of the {games} read (players: {})", players.join(", ")));
    }
    let mut out = String::new();
    let _ = writeln!(out, "{games} games read from {what}");
    for u in &unreadable {
        let _ = writeln!(out, "left out: {u}");
    }
    let mut names: Vec<&str> = tallies.iter().map(|((e, _), _)| e.as_str()).collect();
    names.sort_by_key(|&n| (n != engine, tallies.iter().position(|((e, _), _)| e == n)));
    names.dedup();
    for name in names {
        for ((e, seat), t) in tallies.iter().filter(|((e, _), _)| e == name) {
            let _ = writeln!(out, "{e} as {seat}: {}", t.clock_line());
        }
    }
    for ((_, seat), t) in tallies.iter().filter(|((e, _), _)| e == engine) {
        let _ = writeln!(out, "{engine}'s losses as {seat}: {}", t.loss_line());
    }
    Ok(out)
}

/// `catchess pgn stats`: prints the report.
pub fn command(path: &str, engine: &str, default: VariantKind) -> Result<(), String> {
    let text = read_bounded(path, catchess_game::pgn::MAX_PGN_BYTES).map_err(|e| format!("cannot read {path}: {e}"))?;
    print!("{}", report(&text, engine, default, path)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_game::pgn::record::SearchNote;
    use catchess_game::pgn::record::{move_comment, write, RecordTags};
    use catchess_game::History;
    use catchess_games::{CatChess, Chess};
    use std::time::Duration;

    fn tags(players: &[&str], winner: Option<Seat>, tc: &str, termination: &str) -> RecordTags {
        RecordTags {
            event: "t".into(),
            date: "2025.01.02".into(),
            round: "1".into(),
            players: players.iter().map(|p| p.to_string()).collect(),
            winner,
            finished: true,
            points: vec![0.0; players.len()],
            time_controls: vec![tc.into(); players.len()],
            termination: termination.into(),
            faults: vec![],
        }
    }

    /// A game of `G`, each turn's comment its score (centipawns) and a
    /// time of `ms`.
    fn record<G: Notation + Arbitration>(t: &RecordTags, moves: &str, scores: &[i64], ms: u64) -> String {
        let mut h = History::new(G::startpos());
        moves.split_whitespace().for_each(|m| h.push_protocol(m).unwrap());
        let comments: Vec<Option<String>> = scores
            .iter()
            .map(|&cp| {
                let note = SearchNote { depth: Some(5), score: Some(Score::Cp(cp)) };
                Some(move_comment(&note, Duration::from_millis(ms)))
            })
            .collect();
        write(t, &h, &comments, None, None)
    }

    #[test]
    fn clocks_and_where_losses_turned() {
        // a loses as white, from +1.20, its score below -1.5 at move 2.
        let mate = record::<Chess>(
            &tags(&["a", "b"], Some(Seat::new(1)), "10+0.1", "checkmate"),
            "f2f3 e7e5 g2g4 d8h4",
            &[120, -30, -200, 30000],
            500,
        );
        // a wins as black on b's time forfeit: no loss.
        let forfeit = record::<Chess>(
            &tags(&["b", "a"], Some(Seat::new(1)), "10+0.1", "time forfeit by white"),
            "e2e4 e7e5",
            &[10, 20],
            250,
        );
        let text = mate + &forfeit;
        let out = report(&text, "a", VariantKind::Chess, "r.pgn").unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "2 games read from r.pgn",
                // 2 turns of 0.5 s against 10 + 2 × 0.1 s; 1 turn of 0.25 s against 10.1 s.
                "a as white: 1 games, clock used 1.0 s of 10.2 s a game (10 %), clock left median 9.20 s, 0 time forfeits",
                "a as black: 1 games, clock used 0.2 s of 10.1 s a game (2 %), clock left median 9.85 s, 0 time forfeits",
                "b as black: 1 games, clock used 1.0 s of 10.2 s a game (10 %), clock left median 9.20 s, 0 time forfeits",
                "b as white: 1 games, clock used 0.2 s of 10.1 s a game (2 %), clock left median 9.85 s, 1 time forfeits",
                "a's losses as white: 1 losses, 1 from its own score of +1.0 or better; its score first below -1.5 \
                 before move 20: 1, at moves 20-39: 0, at move 40 or later: 0, never: 0",
                "a's losses as black: 0 losses, 0 from its own score of +1.0 or better; its score first below -1.5 \
                 before move 20: 0, at moves 20-39: 0, at move 40 or later: 0, never: 0",
            ]
        );
        let err = report(&text, "c", VariantKind::Chess, "r.pgn").unwrap_err();
        assert_eq!(err, "r.pgn: \"c\" plays no game of the 2 read (players: a, b)");
    }

    /// Three seats: the cats' turns are theirs (a pass after their time
    /// forfeit too), and a win of black is a loss of the cats and of white.
    #[test]
    fn every_seat_of_cat_chess() {
        let mut t = tags(&["w", "b", "c"], Some(Seat::new(1)), "60", "checkmate");
        t.faults = vec!["cats (c) time forfeit at ply 3: its clock ran out; it passes from then on".into()];
        let mut h = History::new(CatChess::startpos());
        "f2f3 e7e5 0000 g2g4 d8h4".split_whitespace().for_each(|m| h.push_protocol(m).unwrap());
        let clocks = ["[%clk 0:00:59]", "[%clk 0:00:58]", "[%clk 0:00:50]", "[%clk 0:00:40]", "[%clk 0:00:30]"];
        let comments: Vec<Option<String>> = clocks.iter().map(|c| Some(c.to_string())).collect();
        let text = write(&t, &h, &comments, None, None);
        let out = report(&text, "c", VariantKind::Chess, "c.pgn").unwrap();
        assert!(out.contains("c as cats: 1 games, clock used 10.0 s of 60.0 s a game (17 %), clock left median 50.00 s, 1 time forfeits"), "{out}");
        assert!(
            out.contains("w as white: 1 games, clock used 20.0 s of 60.0 s a game (33 %), clock left median 40.00 s"),
            "{out}"
        );
        assert!(out.contains("c's losses as cats: 1 losses, 0 from its own score of +1.0 or better"), "{out}");
        assert!(out.contains("never: 1"), "{out}");
    }

    #[test]
    fn budgets_of_pgn_time_controls() {
        assert_eq!(budget("300+2", 10), Some(320.0));
        assert_eq!(budget("60", 10), Some(60.0));
        assert_eq!(budget("40/5400", 41), Some(10800.0));
        assert_eq!(budget("40/5400", 0), Some(5400.0));
        for none in ["-", "?", "", "x+1", "0/60", "1e999"] {
            assert_eq!(budget(none, 3), None, "{none}");
        }
    }
}
