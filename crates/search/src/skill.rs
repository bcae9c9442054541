//! Playing below full strength (`Skill Level`, `UCI_LimitStrength` +
//! `UCI_Elo`), for every game and every seat.
//!
//! A weakened engine plays as strong engines make themselves weaker
//! (Stockfish's skill levels): it searches less deep, looks at a few best
//! lines instead of one, and picks among them with randomness, leaning
//! towards the better ones the higher the level. It never sleeps: a low
//! level answers sooner, not later.
//!
//! The pick reads each line's score from the seat to move's own view (the
//! protocol's score), so the cats of Cat Chess, whose best is the value
//! nearest zero, are weakened by their own values like any seat. The lines
//! come from the search's MultiPV, so they are legal root moves whatever the
//! game (a 10×10 root move is one step of the turn; the caller completes the
//! turn as usual).

use super::{Limits, Score, SearchControl, SearchGame, SearchInfo, SearchResult, Searcher, MATE, MATE_BOUND};
use catchess_game::{Game, History as GameHistory, MoveList};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The `Skill Level` option's range: 20 is the full strength.
pub const SKILL_MAX: u32 = 20;
/// The `UCI_Elo` option's range. At `ELO_MAX` the engine plays at full
/// strength.
pub const ELO_MIN: u32 = 800;
pub const ELO_MAX: u32 = 2850;

/// `UCI_Elo` to the internal level, piecewise linear between the points of
/// a table; each game may bring its own (`SearchGame::ELO_TO_LEVEL`), since
/// a level's depth buys a different strength in each game. Levels below 0,
/// which `Skill Level` cannot name, are weaker still (more candidates, a
/// wider random spread); a level of 20 or more is the full strength.
pub type EloTable = &'static [(u32, f64)];

/// Measured in chess against Stockfish 15.1's own `UCI_Elo` at 10+0.1
/// (README, "Playing strength"): level 5 scores about half against its
/// 1500 and level 12.5 against its 2000; the line through them reaches the
/// full strength (20) at 2500, close to where the full strength scored
/// 48.7 % against its 2400. Below 1500, where
/// Stockfish has no level to measure against (its lowest is 1350), the
/// points only continue the line down to depth 1 and the wider picks.
/// Games without a calibration of their own use this table.
pub const DEFAULT_ELO_TO_LEVEL: EloTable =
    &[(ELO_MIN, -10.0), (1000, -4.0), (1200, 0.0), (1500, 5.0), (2000, 12.5), (2500, SKILL_MAX as f64)];

/// A playing strength below the full one: a level from -10 (weakest) to
/// just under 20 (full strength is no `Skill` at all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
    /// The `UCI_Elo` asked for, if the level came from one: each game
    /// reads it in its own table ([`Skill::in_game`]).
    elo: Option<u32>,
}

impl Skill {
    /// `Skill Level` 0..=20; `None` at 20 (full strength) or beyond.
    pub fn from_level(level: u32) -> Option<Skill> {
        (level < SKILL_MAX).then_some(Skill { level: level as f64, elo: None })
    }

    /// `UCI_Elo` (clamped into `ELO_MIN..=ELO_MAX`); `None` at `ELO_MAX`.
    /// Its level here is [`DEFAULT_ELO_TO_LEVEL`]'s; the search reads the
    /// Elo again in its game's table ([`Skill::in_game`]), which may call
    /// it full strength.
    pub fn from_elo(elo: u32) -> Option<Skill> {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        (elo < ELO_MAX).then_some(Skill { level: elo_to_level(DEFAULT_ELO_TO_LEVEL, elo), elo: Some(elo) })
    }

    /// This strength in game `G`: an Elo read in `G`'s table; `None` where
    /// that is the full strength.
    pub fn in_game<G: SearchGame>(self) -> Option<Skill> {
        let level = match self.elo {
            Some(elo) => elo_to_level(G::ELO_TO_LEVEL, elo),
            None => self.level,
        };
        (level < SKILL_MAX as f64).then_some(Skill { level, ..self })
    }

    /// What the options ask for: `UCI_LimitStrength` with `UCI_Elo` wins
    /// over `Skill Level` (as in Stockfish).
    pub fn from_options(limit_strength: bool, elo: u32, skill_level: u32) -> Option<Skill> {
        if limit_strength {
            Skill::from_elo(elo)
        } else {
            Skill::from_level(skill_level)
        }
    }

    pub fn level(&self) -> f64 {
        self.level
    }

    /// The deepest iteration searched: one ply more per whole level above
    /// 0, a single ply at 0 and below.
    pub fn depth(&self) -> u32 {
        1 + self.level.max(0.0).floor() as u32
    }

    /// How many best lines the pick chooses among: 4, and up to 8 below
    /// level 0.
    pub fn candidates(&self) -> usize {
        4 + ((-self.level).max(0.0) * 0.4).ceil() as usize
    }

    /// How far (centipawns) the random part may lift a worse line: the
    /// spread of the candidates' values, at most a pawn at level 0 and
    /// above, up to three below.
    pub fn spread_cap(&self) -> f64 {
        100.0 + 20.0 * (-self.level).max(0.0)
    }

    /// Stockfish's "weakness": 120 at level 0, 2 less a level up to level
    /// 10, then falling evenly to 0 at full strength. Stockfish keeps 120 −
    /// 2 × level all the way (82 at level 19), but its candidates come
    /// from a far stronger evaluation: measured against Stockfish 15.1,
    /// our level 13 with that curve scored 25 % against its `UCI_Elo`
    /// 2000 (level 6.6), and level 17 no better, so the random pick, not
    /// the depth, set the strength of every upper level.
    pub fn weakness(&self) -> f64 {
        const KNEE: f64 = 10.0;
        let at_knee = 120.0 - 2.0 * KNEE;
        if self.level <= KNEE {
            120.0 - 2.0 * self.level
        } else {
            at_knee * (SKILL_MAX as f64 - self.level) / (SKILL_MAX as f64 - KNEE)
        }
    }

    /// The index of the line played among `values` (the candidates' values
    /// from the seat to move's view, best first, at least one). Each
    /// value is pulled towards the best by a share that grows with the
    /// weakness (so the worse lines keep only part of their handicap), then
    /// lifted by a random amount up to the candidates' spread, scaled by the
    /// weakness; the highest result is played.
    ///
    /// A line the search has seen lose by mate is never played while another
    /// is not: the weakest levels' spread is wide enough to lift one (the
    /// cats of Cat Chess at their lowest choose among 16 lines), and walking
    /// into a mate that was seen is no way to play weakly, only a way to
    /// lose at once (a beginner's losses come from mates not seen).
    pub fn pick(&self, values: &[i32], rng: &mut impl Rng) -> usize {
        let mated = |v: i32| v <= -MATE_BOUND;
        let all_mated = values.iter().all(|&v| mated(v));
        let playable = |v: i32| all_mated || !mated(v);
        let top = values.iter().copied().max().unwrap_or(0) as f64;
        let worst = values.iter().copied().filter(|&v| playable(v)).min().unwrap_or(0) as f64;
        let spread = (top - worst).min(self.spread_cap());
        let weakness = self.weakness();
        // Never the whole handicap: a line far worse (a mate against) stays
        // out of reach of the random part.
        let pull = (weakness / 128.0).min(0.97);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &v) in values.iter().enumerate().filter(|&(_, &v)| playable(v)) {
            let v = v as f64;
            let lifted = v + pull * (top - v) + spread * weakness / 128.0 * rng.gen::<f64>();
            if lifted > best.1 {
                best = (i, lifted);
            }
        }
        best.0
    }
}

/// A search's playing strength and the seed of its pick's randomness
/// (the same seed, the same pick: tests repeat).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    pub skill: Option<Skill>,
    pub seed: u64,
}

impl Strength {
    pub fn new(skill: Option<Skill>, seed: u64) -> Strength {
        Strength { skill, seed }
    }

    /// Full strength.
    pub fn full() -> Strength {
        Strength { skill: None, seed: 0 }
    }

    /// The same strength with another seed derived from this one (for the
    /// next search of one answer: the rest of a 10×10 turn).
    pub fn reseeded(self, salt: u64) -> Strength {
        Strength { seed: self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15), ..self }
    }
}

/// The internal level of `UCI_Elo` `elo` in `table`; beyond the table's
/// last point, its last level.
pub fn elo_to_level(table: EloTable, elo: u32) -> f64 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    for pair in table.windows(2) {
        let ((e0, l0), (e1, l1)) = (pair[0], pair[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * elo.saturating_sub(e0) as f64 / (e1 - e0) as f64;
        }
    }
    table.last().map_or(SKILL_MAX as f64, |&(_, level)| level)
}

/// A score as one number for comparing lines: centipawns, mates beyond
/// every evaluation (sooner is better for the mating side).
fn value_of(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - 2 * n,
        Score::Mate(n) => -MATE + 2 * n.abs(),
    }
}

/// One reported line of the search.
struct Line {
    depth: u32,
    multipv: usize,
    info: SearchInfo,
}

impl<G: SearchGame> Searcher<G> {
    /// As [`search_among`](Searcher::search_among), at `strength` (no
    /// skill: full strength, the very same search). Its seed makes the
    /// pick's randomness repeatable. `on_info` hears the lines the
    /// client asked for (`limits.multipv`); the result is the picked line.
    pub fn search_with_skill(
        &mut self,
        game: &GameHistory<G>,
        limits: &Limits,
        root_moves: &[G::Move],
        strength: Strength,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        let Strength { skill, seed } = strength;
        let Some(skill) = skill.and_then(Skill::in_game::<G>) else {
            return self.search_among(game, limits, root_moves, control, on_info);
        };
        let asked = limits.multipv.max(1);
        let mut weak = limits.clone();
        weak.depth = Some(limits.depth.map_or(skill.depth(), |d| d.min(skill.depth())));
        weak.multipv = asked.max(skill.candidates());
        let mut lines: Vec<Line> = Vec::new();
        let result = self.search_among(game, &weak, root_moves, control, &mut |info| {
            if info.multipv <= asked {
                on_info(info);
            }
            lines.push(Line { depth: info.depth, multipv: info.multipv, info: info.clone() });
        });
        let root = *game.current();
        let chosen = choose(&root, &lines, weak.multipv, root_moves.len(), skill, seed);
        match chosen.and_then(|line| line_moves(&root, &line.info.pv).map(|pv| (line, pv))) {
            Some((line, pv)) => SearchResult {
                best: pv.first().copied(),
                score: line.info.score,
                first_seat_cp: line.info.first_seat_cp,
                depth: line.depth,
                nodes: result.nodes,
                pv,
            },
            None => result,
        }
    }
}

/// The line played: picked among the deepest iteration that reported all
/// its lines (an iteration cut short reports fewer), or the deepest one
/// reported at all.
fn choose<'a, G: Game>(
    root: &G,
    lines: &'a [Line],
    wanted: usize,
    restricted_to: usize,
    skill: Skill,
    seed: u64,
) -> Option<&'a Line> {
    let legal = if restricted_to > 0 {
        restricted_to
    } else {
        let mut list = MoveList::default();
        root.legal_moves(&mut list);
        list.len()
    };
    let full = wanted.min(legal).max(1);
    let depth_of = |complete: bool| {
        lines
            .iter()
            .map(|l| l.depth)
            .filter(|&d| !complete || lines.iter().filter(|l| l.depth == d).count() >= full)
            .max()
    };
    let depth = depth_of(true).or_else(|| depth_of(false))?;
    // The last report of each line at that depth, best first.
    let mut group: Vec<&Line> = Vec::new();
    for l in lines.iter().filter(|l| l.depth == depth) {
        match group.iter_mut().find(|g| g.multipv == l.multipv) {
            Some(g) => *g = l,
            None => group.push(l),
        }
    }
    group.sort_by_key(|l| l.multipv);
    let values: Vec<i32> = group.iter().map(|l| value_of(l.info.score)).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    group.get(skill.pick(&values, &mut rng)).copied()
}

/// The moves of a reported line, read back from their text.
fn line_moves<G: Game>(root: &G, pv: &[String]) -> Option<Vec<G::Move>> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for text in pv {
        let mut list = MoveList::default();
        pos.legal_moves(&mut list);
        let Some(m) = list.iter().copied().find(|m| m.to_string() == *text) else { break };
        out.push(m);
        pos = pos.play(m);
    }
    (!out.is_empty()).then_some(out)
}
