//! The standings of a match: every finished game added up per engine and
//! per seat, game pairs for the pentanomial statistics, the SPRT's state,
//! and their text: the final table with its Elo and SPRT lines, and the
//! score part of the progress line.

use super::play::GameReport;
use super::spec::SprtSpec;
use super::stats::{estimate, sprt_bounds, sprt_llr, sprt_llr_of, Bound, EloEstimate, Model, Outcomes, Penta, Wdl};
use catchess_game::pgn::record::capitalised;
use catchess_game::pgn::record::FaultKind;
use catchess_game::Game;
use std::collections::BTreeMap;

/// The SPRT's state at the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `Some(true)`: H1 accepted, `Some(false)`: H0 accepted.
    pub decision: Option<bool>,
    /// Where the LLR crossed its bound, if it has: the games that were
    /// being played then still finish and move the LLR on, maybe back
    /// inside the bounds, so the report says where the decision was made.
    pub crossing: Option<Crossing>,
}

/// The SPRT's decision point: the games finished and the LLR then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    pub games: u32,
    pub llr: f64,
}

impl SprtStatus {
    /// The test at `llr` against `spec`'s bounds.
    pub fn of(llr: f64, spec: &SprtSpec) -> SprtStatus {
        let (lower, upper) = sprt_bounds(spec.alpha, spec.beta);
        let decision = if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        };
        SprtStatus { llr, lower, upper, decision, crossing: None }
    }

    pub fn verdict(&self) -> &'static str {
        match self.decision {
            Some(true) => "H1 accepted",
            Some(false) => "H0 accepted",
            None => "no decision",
        }
    }

    /// The verdict, and where it was reached if the games in play at
    /// that moment have moved the LLR since.
    pub fn verdict_text(&self) -> String {
        match self.crossing {
            Some(c) if c.llr != self.llr => format!(
                "{} after {} games at LLR {:.2}; the games then in play moved it since",
                self.verdict(),
                c.games,
                c.llr
            ),
            _ => self.verdict().to_string(),
        }
    }
}

/// Per-engine totals.
#[derive(Clone, Default)]
struct Totals {
    wdl: Wdl,
    seat_points: Vec<f64>,
    seat_games: Vec<u32>,
    faults: BTreeMap<FaultKind, u32>,
}

/// Every finished game of a match, added up.
pub struct Standings {
    names: Vec<String>,
    seat_names: Vec<&'static str>,
    engines: Vec<Totals>,
    /// Games won per seat, and drawn games.
    seat_wins: Vec<u32>,
    draws: u32,
    games: u32,
    model: Model,
    /// The engines not pinned to a seat: with two of them, the Elo, the
    /// SPRT and the game pairs are theirs (pinned engines are the setting).
    rotating: Vec<usize>,
    /// The first rotating engine's games against the second, scored
    /// head to head: its points minus the other's, mapped to 0..1 (a game
    /// a pinned engine wins is a draw between them).
    duel: Wdl,
    /// The first rotating engine's game pairs, and its points in pairs with one
    /// game in so far (by pair id).
    penta: Penta,
    half_pairs: BTreeMap<(usize, usize), f64>,
}

impl Standings {
    pub fn new<G: Game>(names: Vec<String>, rotating: Vec<usize>, model: Model) -> Standings {
        let seats = G::SEATS.len();
        let blank = Totals { seat_points: vec![0.0; seats], seat_games: vec![0; seats], ..Totals::default() };
        Standings {
            engines: vec![blank; names.len()],
            names,
            seat_names: G::SEATS.iter().map(|s| s.name).collect(),
            seat_wins: vec![0; seats],
            draws: 0,
            games: 0,
            model,
            rotating,
            duel: Wdl::default(),
            penta: Penta::default(),
            half_pairs: BTreeMap::new(),
        }
    }

    /// Adds a game; `pair` names the pair of games (same opening, the two
    /// rotating engines swapped) it belongs to.
    pub fn add(&mut self, r: &GameReport, pair: Option<(usize, usize)>) {
        let points_of =
            |e: usize| -> f64 { r.seating.iter().zip(&r.points).filter(|(x, _)| **x == e).map(|(_, p)| p).sum() };
        if let &[a, b] = self.rotating.as_slice() {
            let first = (1.0 + points_of(a) - points_of(b)) / 2.0;
            self.duel.add(first);
            let Some(id) = pair else { return self.add_seats(r) };
            match self.half_pairs.remove(&id) {
                Some(other) => self.penta.add(first + other),
                None => {
                    self.half_pairs.insert(id, first);
                }
            }
        }
        self.add_seats(r);
    }

    /// Adds a game to every engine's and every seat's totals.
    fn add_seats(&mut self, r: &GameReport) {
        self.games += 1;
        let mut seen = Vec::new();
        for (s, &e) in r.seating.iter().enumerate() {
            let t = &mut self.engines[e];
            t.seat_points[s] += r.points[s];
            t.seat_games[s] += 1;
            if r.points[s] == 1.0 {
                self.seat_wins[s] += 1;
            }
            if !seen.contains(&e) {
                seen.push(e);
                let p: f64 = r.seating.iter().zip(&r.points).filter(|(x, _)| **x == e).map(|(_, p)| p).sum();
                t.wdl.add(p);
            }
        }
        if r.winner.is_none() {
            self.draws += 1;
        }
        for f in &r.faults {
            *self.engines[f.engine].faults.entry(f.kind).or_default() += 1;
        }
    }

    /// The engines not pinned to a seat.
    pub fn rotating(&self) -> &[usize] {
        &self.rotating
    }

    /// Points per engine, in engine order.
    pub fn points(&self) -> Vec<f64> {
        self.engines.iter().map(|t| t.seat_points.iter().sum()).collect()
    }

    /// `a 3.5, b 2.5`: every engine's points.
    pub fn line(&self) -> String {
        let points = self.points();
        let parts: Vec<String> = self.names.iter().zip(points).map(|(n, p)| format!("{n} {p}")).collect();
        parts.join(", ")
    }

    /// The record the statistics rest on: game pairs (pentanomial) when
    /// there is a complete pair, else single games.
    fn outcomes(&self) -> (Outcomes, &'static str) {
        if self.model == Model::Pentanomial && self.penta.pairs() > 0 {
            (Outcomes::pentanomial(&self.penta), "game pair")
        } else {
            (Outcomes::trinomial(&self.duel), "game")
        }
    }

    /// The first rotating engine's LLR under the match's model.
    fn llr(&self, spec: &SprtSpec) -> f64 {
        match self.model {
            Model::Pentanomial => sprt_llr_of(&Outcomes::pentanomial(&self.penta), spec.elo0, spec.elo1),
            Model::Trinomial => sprt_llr(&self.duel, spec.elo0, spec.elo1),
        }
    }

    /// The SPRT after the latest game: the first decision stands (games
    /// already running still count).
    pub fn sprt(&self, spec: &SprtSpec, before: Option<SprtStatus>) -> SprtStatus {
        let now = SprtStatus::of(self.llr(spec), spec);
        match before.filter(|b| b.decision.is_some()) {
            Some(b) => SprtStatus { decision: b.decision, crossing: b.crossing, ..now },
            None => SprtStatus { crossing: now.decision.map(|_| Crossing { games: self.games, llr: now.llr }), ..now },
        }
    }

    /// The score part of the progress line: with two engines the first
    /// one's score and Elo (`a 3.5 - b 1.5 (70.0 %) | Elo +147.2 ± 90.1`),
    /// else every engine's points.
    pub fn progress_parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        let &[a, b] = self.rotating.as_slice() else {
            parts.push(self.line());
            return parts;
        };
        let r = &self.duel;
        let score = 100.0 * r.points() / r.games().max(1) as f64;
        parts.push(format!(
            "{} {:.1} - {} {:.1} ({score:.1} %)",
            self.names[a],
            r.points(),
            self.names[b],
            r.games() as f64 - r.points()
        ));
        let (o, _) = self.outcomes();
        if let Some(e) = estimate(&o) {
            parts.push(match (e.elo, e.low, e.high) {
                (Some(x), Bound::At(l), Bound::At(h)) => format!("Elo {x:+.1} ± {:.1}", (h - l) / 2.0),
                (Some(x), _, _) => format!("Elo {x:+.1} ± ?"),
                (None, Bound::At(l), _) => format!("Elo ≥ {l:+.1}"),
                (None, _, Bound::At(h)) => format!("Elo ≤ {h:+.1}"),
                _ => "Elo ?".to_string(),
            });
        }
        parts
    }

    /// Elo, normalised Elo, LOS and the counts they come from, for a match
    /// of two rotating engines; bounds the data cannot give are said, not
    /// printed as infinities.
    fn elo_lines(&self) -> String {
        let &[a, b] = self.rotating.as_slice() else { return String::new() };
        let r = &self.duel;
        let (o, unit) = self.outcomes();
        let Some(e) = estimate(&o) else { return String::new() };
        let (a, b) = (&self.names[a], &self.names[b]);
        let against = if self.names.len() > 2 {
            format!(" against {b} (a game the pinned engines win counts as a draw)")
        } else {
            String::new()
        };
        let elo = elo_text(&e, unit);
        let nelo = match e.nelo {
            Some(n) => format!("{n:+.1} (95 % interval {:+.1} to {:+.1})", e.nelo_low, e.nelo_high),
            None => "undefined (no spread in the results yet)".to_string(),
        };
        let n = e.n as u32;
        let from = if unit == "game pair" {
            let c = self.penta.counts;
            let left = r.games() - 2 * self.penta.pairs();
            let left = if left > 0 { format!("; {left} games outside complete pairs") } else { String::new() };
            format!(
                "{n} game pairs (pentanomial, pairs scoring 0/0.5/1/1.5/2: {} {} {} {} {}{left})",
                c[0], c[1], c[2], c[3], c[4]
            )
        } else {
            format!("{n} games (trinomial)")
        };
        let games = r.games().max(1) as f64;
        format!(
            "Elo difference {a} vs {b}: {elo}, nElo {nelo}, LOS {:.1} %, from {from}\n\
             Games of {a}{against}: W {} D {} L {}, score {:.1} %, draw ratio {:.1} %\n",
            e.los * 100.0,
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.points() / games,
            100.0 * r.draws as f64 / games,
        )
    }

    /// The final table: a row per engine with its points per seat and its
    /// faults, the games won per seat, and for two engines the Elo lines
    /// and the SPRT's.
    pub fn table(&self, sprt: Option<(&SprtSpec, SprtStatus)>) -> String {
        let mut out = String::new();
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
        let mut header = format!(
            "{:>4}  {:<width$}  {:>5}  {:>6}  {:>6}  {:>4} {:>4} {:>4}",
            "Rank", "Engine", "Games", "Points", "Score", "W", "D", "L"
        );
        for seat in &self.seat_names {
            header.push_str(&format!("  {:>9}", capitalised(seat)));
        }
        header.push_str("  Faults");
        out.push_str(&header);
        out.push('\n');
        let points = self.points();
        // Only the rotating engines are ranked: a pinned engine plays
        // another game (one seat only), so its points say nothing about
        // theirs. Its row follows theirs, ranked `-`.
        let mut order = self.rotating.clone();
        order.sort_by(|&a, &b| points[b].total_cmp(&points[a]).then(a.cmp(&b)));
        let pinned: Vec<usize> = (0..self.names.len()).filter(|e| !self.rotating.contains(e)).collect();
        let ranks = (1..=order.len()).map(|r| r.to_string()).chain(std::iter::repeat("-".to_string()));
        for (rank, &e) in ranks.zip(order.iter().chain(&pinned)) {
            let t = &self.engines[e];
            let games = t.wdl.games();
            let score = if games > 0 { 100.0 * points[e] / games as f64 } else { 0.0 };
            let mut row = format!(
                "{:>4}  {:<width$}  {:>5}  {:>6}  {:>5.1}%  {:>4} {:>4} {:>4}",
                rank,
                self.names[e],
                games,
                format!("{:.1}", points[e]),
                score,
                t.wdl.wins,
                t.wdl.draws,
                t.wdl.losses
            );
            for (p, g) in t.seat_points.iter().zip(&t.seat_games) {
                row.push_str(&format!("  {:>9}", format!("{p}/{g}")));
            }
            let faults: u32 = t.faults.values().sum();
            row.push_str(&format!("  {faults:>6}"));
            out.push_str(&row);
            out.push('\n');
        }
        // Games won by each seat, then faults by kind.
        let mut seats: Vec<String> =
            self.seat_names.iter().zip(&self.seat_wins).map(|(s, w)| format!("{s} {w}")).collect();
        seats.push(format!("draw {}", self.draws));
        out.push_str(&format!("\nGames won by seat: {} ({} games)\n", seats.join(", "), self.games));
        if !pinned.is_empty() {
            let names: Vec<&str> = pinned.iter().map(|&e| self.names[e].as_str()).collect();
            out.push_str(&format!("Not ranked (pinned to a seat): {}\n", names.join(", ")));
        }
        for (e, t) in self.engines.iter().enumerate() {
            if !t.faults.is_empty() {
                let kinds: Vec<String> = t.faults.iter().map(|(k, n)| format!("{n} {}", k.name())).collect();
                out.push_str(&format!("Faults of {}: {}\n", self.names[e], kinds.join(", ")));
            }
        }
        out.push_str(&self.elo_lines());
        if let Some((spec, status)) = sprt {
            let verdict = status.verdict_text();
            let model = match self.model {
                Model::Pentanomial => "pentanomial",
                Model::Trinomial => "trinomial",
            };
            out.push_str(&format!(
                "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} (bounds {:.2}, {:.2}, {model}): {verdict}\n",
                spec.elo0, spec.elo1, spec.alpha, spec.beta, status.llr, status.lower, status.upper
            ));
        }
        out
    }
}

/// Game pairs as the final table prints them: the counts of pairs that
/// scored 0, ½, 1, 1½ and 2 points for the first engine, `a,b,c,d,e`.
pub fn parse_pairs(text: &str) -> Result<Penta, String> {
    let bad = || {
        format!("--pairs {text:?}: expected five counts of game pairs scoring 0,0.5,1,1.5,2 (e.g. 151,345,799,357,179)")
    };
    let counts: Vec<u32> =
        text.split(',').map(|c| c.trim().parse::<u32>()).collect::<Result<_, _>>().map_err(|_| bad())?;
    let counts: [u32; 5] = counts.try_into().map_err(|_| bad())?;
    Ok(Penta { counts })
}

/// The statistics of several runs of one test joined (`catchess sprt`):
/// their game pairs added up, with the Elo, LOS and the SPRT's LLR and
/// verdict as one match of all of them would give. A test cut off with
/// its machine goes on as a new run (same builds, another seed), and the
/// runs together decide it.
pub fn joined_report(runs: &[Penta], spec: &SprtSpec) -> Result<String, String> {
    let mut sums = [0u64; 5];
    for run in runs {
        for (sum, c) in sums.iter_mut().zip(run.counts) {
            *sum += u64::from(c);
        }
    }
    if sums.iter().sum::<u64>() > u64::from(u32::MAX) {
        return Err("--pairs: more game pairs than any match plays".into());
    }
    let all = Penta { counts: sums.map(|c| c as u32) };
    let o = Outcomes::pentanomial(&all);
    let e = estimate(&o).ok_or("--pairs: no game pairs")?;
    let elo = elo_text(&e, "game pair");
    let status = SprtStatus::of(sprt_llr_of(&o, spec.elo0, spec.elo1), spec);
    let c = all.counts;
    Ok(format!(
        "{} runs, {} game pairs ({} games; pairs scoring 0/0.5/1/1.5/2: {} {} {} {} {})\n\
         Elo difference: {elo}, LOS {:.1} %\n\
         SPRT [{}, {}] (alpha {}, beta {}): LLR {:.2} (bounds {:.2}, {:.2}): {}\n",
        runs.len(),
        all.pairs(),
        2 * u64::from(all.pairs()),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        e.los * 100.0,
        spec.elo0,
        spec.elo1,
        spec.alpha,
        spec.beta,
        status.llr,
        status.lower,
        status.upper,
        status.verdict(),
    ))
}

/// An Elo estimate with its interval, or its one bound when every `unit`
/// (game or game pair) was won or lost.
fn elo_text(e: &EloEstimate, unit: &str) -> String {
    match (e.elo, e.low, e.high) {
        (Some(x), low, high) => format!("{x:+.1} ({})", interval_text(low, high)),
        (None, Bound::At(l), _) => format!("at least {l:+.1} (95 %: every {unit} won, no upper bound yet)"),
        (None, _, Bound::At(h)) => format!("at most {h:+.1} (95 %: every {unit} lost, no lower bound yet)"),
        (None, _, _) => "unknown".to_string(),
    }
}

/// `95 % interval -12.0 to +30.5`, or what can be said when the data put
/// no bound on one side yet.
fn interval_text(low: Bound, high: Bound) -> String {
    match (low, high) {
        (Bound::At(l), Bound::At(h)) => format!("95 % interval {l:+.1} to {h:+.1}"),
        (Bound::At(l), Bound::Unbounded) => format!("95 % interval: above {l:+.1}, no upper bound yet"),
        (Bound::Unbounded, Bound::At(h)) => format!("95 % interval: below {h:+.1}, no lower bound yet"),
        (Bound::Unbounded, Bound::Unbounded) => "no 95 % bounds yet".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::schedule::{pair_of, round};
    use super::*;
    use catchess_game::Seat;
    use catchess_games::{CatChess, Chess};

    fn report(number: usize, seating: &[usize], winner: Option<Seat>, points: &[f64]) -> GameReport {
        GameReport {
            number,
            seating: seating.to_vec(),
            winner,
            result: String::new(),
            points: points.to_vec(),
            termination: String::new(),
            faults: vec![],
            plies: 0,
            record: String::new(),
        }
    }

    #[test]
    fn standings_count_an_engine_in_two_seats_once_per_game() {
        let mut s = Standings::new::<CatChess>(vec!["a".into(), "b".into()], vec![0, 1], Model::default());
        // a holds white and black: black wins, a gets 1.
        s.add(&report(1, &[0, 0, 1], Some(Seat::new(1)), &[0.0, 1.0, 0.0]), None);
        // b's cats faulted, the game was drawn: a (white) ½, b (black) ½, cats 0.
        s.add(&report(2, &[0, 1, 1], None, &[0.5, 0.5, 0.0]), None);
        // b's cats win.
        s.add(&report(3, &[0, 0, 1], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), None);
        assert_eq!(s.points(), [1.5, 1.5]);
        assert_eq!(s.engines[0].wdl, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(s.engines[1].wdl, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(s.engines[0].seat_games, [3, 2, 0]);
        assert_eq!(s.engines[1].seat_points, [0.0, 0.5, 1.0]);
        assert_eq!((s.seat_wins.clone(), s.draws), (vec![0, 1, 1], 1));
        let table = s.table(None);
        assert!(table.contains("Elo difference a vs b: +0.0"), "{table}");
        assert!(table.contains("Games won by seat: white 0, black 1, cats 1, draw 1 (3 games)"), "{table}");
    }

    #[test]
    fn a_pinned_engine_is_listed_but_not_ranked() {
        // c holds the cats in every game and wins both; a and b rotate.
        let names = vec!["a".into(), "b".into(), "c".into()];
        let mut s = Standings::new::<CatChess>(names, vec![0, 1], Model::default());
        s.add(&report(1, &[0, 1, 2], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), None);
        s.add(&report(2, &[1, 0, 2], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), None);
        s.add(&report(3, &[1, 0, 2], Some(Seat::new(0)), &[1.0, 0.0, 0.0]), None);
        let table = s.table(None);
        let ranks: Vec<(&str, &str)> = table
            .lines()
            .skip(1)
            .take(3)
            .map(|l| {
                let mut w = l.split_whitespace();
                (w.next().unwrap(), w.next().unwrap())
            })
            .collect();
        assert_eq!(ranks, [("1", "b"), ("2", "a"), ("-", "c")], "{table}");
        assert!(table.contains("Not ranked (pinned to a seat): c\n"), "{table}");
        // Without pins every engine is ranked and no such line is written.
        let mut s =
            Standings::new::<CatChess>(vec!["a".into(), "b".into(), "c".into()], vec![0, 1, 2], Model::default());
        s.add(&report(1, &[0, 1, 2], Some(Seat::new(2)), &[0.0, 0.0, 1.0]), None);
        let table = s.table(None);
        assert!(table.lines().nth(1).unwrap().trim_start().starts_with("1  c"), "{table}");
        assert!(!table.contains("Not ranked"), "{table}");
    }

    #[test]
    fn the_report_says_where_the_sprt_decided_when_later_games_moved_the_llr() {
        let spec = SprtSpec::parse("0,10,0.05,0.05").unwrap();
        let mut s = Standings::new::<Chess>(vec!["a".into(), "b".into()], vec![0, 1], Model::Trinomial);
        let (mut status, mut n) = (None, 0u32);
        let win = |n: u32| report(n as usize, &[0, 1], Some(Seat::new(0)), &[1.0, 0.0]);
        let loss = |n: u32| report(n as usize, &[0, 1], Some(Seat::new(1)), &[0.0, 1.0]);
        let draw = |n: u32| report(n as usize, &[0, 1], None, &[0.5, 0.5]);
        let pattern: [fn(u32) -> GameReport; 4] = [win, win, loss, draw];
        while status.is_none_or(|st: SprtStatus| st.decision.is_none()) {
            n += 1;
            assert!(n < 5000, "no decision");
            s.add(&pattern[n as usize % 4](n), None);
            status = Some(s.sprt(&spec, status));
        }
        let decided = status.unwrap();
        assert_eq!(decided.crossing, Some(Crossing { games: n, llr: decided.llr }));
        let table = s.table(Some((&spec, decided)));
        assert!(table.trim_end().ends_with(": H1 accepted"), "nothing moved it yet: {table}");
        // Two games that were in play end in losses: the decision stands,
        // and the report says where it was made.
        for _ in 0..2 {
            n += 1;
            s.add(&loss(n), None);
            status = Some(s.sprt(&spec, status));
        }
        let after = status.unwrap();
        assert_eq!((after.decision, after.crossing), (Some(true), decided.crossing));
        assert!(after.llr < decided.llr);
        let table = s.table(Some((&spec, after)));
        let expected = format!(
            "LLR {:.2} (bounds -2.94, 2.94, trinomial): H1 accepted after {} games at LLR {:.2}; the games then in play moved it since",
            after.llr,
            n - 2,
            decided.llr
        );
        assert!(table.contains(&expected), "{table}\nexpected {expected}");
    }

    #[test]
    fn pentanomial_counts_complete_pairs_only() {
        let chess = round(2, 2);
        // 2-0 in one pair, then a 1-1 pair: pentanomial [0, 0, 1, 0, 1].
        let mut s = Standings::new::<Chess>(vec!["a".into(), "b".into()], vec![0, 1], Model::default());
        s.add(&report(1, &[0, 1], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 0, &[0, 1]));
        let t = s.table(None);
        assert!(t.contains("from 1 games (trinomial)") && t.contains("at least"), "no pair complete yet: {t}");
        s.add(&report(2, &[1, 0], Some(Seat::new(1)), &[0.0, 1.0]), pair_of(&chess, 1, &[0, 1]));
        let t = s.table(None);
        assert!(!t.contains("inf"), "{t}");
        assert!(
            t.contains("Elo difference a vs b: at least -511.5 (95 %: every game pair won, no upper bound yet)"),
            "{t}"
        );
        s.add(&report(3, &[0, 1], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 2, &[0, 1]));
        s.add(&report(5, &[0, 1], None, &[0.5, 0.5]), pair_of(&chess, 4, &[0, 1]));
        s.add(&report(4, &[1, 0], Some(Seat::new(0)), &[1.0, 0.0]), pair_of(&chess, 3, &[0, 1]));
        assert_eq!(s.penta.counts, [0, 0, 1, 0, 1]);
        let t = s.table(None);
        assert!(t.contains("from 2 game pairs (pentanomial, pairs scoring 0/0.5/1/1.5/2: 0 0 1 0 1; 1 games outside complete pairs)"), "{t}");
        assert!(t.contains("Games of a: W 3 D 1 L 1, score 70.0 %, draw ratio 20.0 %"), "{t}");
        assert!(t.contains("+190.8 (95 % interval") && t.contains("nElo +"), "{t}");
        s.model = Model::Trinomial;
        assert!(s.table(None).contains("from 5 games (trinomial)"));
    }

    #[test]
    fn runs_joined_count_as_one_record() {
        let spec = SprtSpec::parse("0,10,0.05,0.05").unwrap();
        let (a, b) = (parse_pairs("151,345,799,357,179").unwrap(), parse_pairs(" 20, 41,97,44,18").unwrap());
        let sum = Penta { counts: [171, 386, 896, 401, 197] };
        let two = joined_report(&[a, b], &spec).unwrap();
        let one = joined_report(&[sum], &spec).unwrap();
        assert!(two.starts_with("2 runs, 2051 game pairs (4102 games;"), "{two}");
        assert_eq!(two.lines().skip(1).collect::<Vec<_>>(), one.lines().skip(1).collect::<Vec<_>>());
        let llr = sprt_llr_of(&Outcomes::pentanomial(&sum), 0.0, 10.0);
        assert!(two.contains(&format!("LLR {llr:.2} (bounds -2.94, 2.94): no decision")), "{two}");
        // The verdicts.
        let strong = joined_report(&[parse_pairs("10,40,300,150,100").unwrap()], &spec).unwrap();
        assert!(strong.contains(": H1 accepted"), "{strong}");
        let weak = joined_report(&[parse_pairs("100,150,300,40,10").unwrap()], &spec).unwrap();
        assert!(weak.contains(": H0 accepted"), "{weak}");
    }

    #[test]
    fn bad_pairs_are_refused_with_the_reason() {
        for text in ["1,2,3,4", "1,2,3,4,5,6", "1,2,x,4,5", "1,2,-3,4,5", ""] {
            assert!(parse_pairs(text).unwrap_err().contains("expected five counts"), "{text}");
        }
        let spec = SprtSpec::parse("0,10,0.05,0.05").unwrap();
        assert!(joined_report(&[parse_pairs("0,0,0,0,0").unwrap()], &spec).unwrap_err().contains("no game pairs"));
        let huge = parse_pairs(&format!("{},1,0,0,0", u32::MAX)).unwrap();
        assert!(joined_report(&[huge], &spec).unwrap_err().contains("more game pairs"));
        assert!(joined_report(&[huge, huge], &spec).unwrap_err().contains("more game pairs"));
    }
}
