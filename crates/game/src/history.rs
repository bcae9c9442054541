//! A game in progress: the positions so far (for repetition) and the moves.

use super::{Arbitration, Game, MoveError, Notation, Outcome};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A game in progress: the positions so far (for repetition) and the moves.
#[derive(Clone, Debug)]
pub struct History<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Game> History<G> {
    pub fn new(start: G) -> Self {
        History { positions: vec![start], moves: Vec::new() }
    }

    pub fn current(&self) -> &G {
        self.positions.last().expect("a history always holds its start")
    }

    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Keys of every position so far, oldest first (the search's repetition
    /// detection starts from these).
    pub fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions.iter().map(|p| p.key())
    }

    /// Plays a legal move.
    pub fn push(&mut self, m: G::Move) {
        let next = self.current().play(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last `n` moves (at most all of them).
    pub fn take_back(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        self.moves.truncate(keep);
        self.positions.truncate(keep + 1);
    }

    /// How many times the current position has occurred so far, itself
    /// included (positions compare by key: placement, side to move and the
    /// rights that matter).
    pub fn repetitions(&self) -> usize {
        let key = self.current().key();
        self.positions.iter().filter(|p| p.key() == key).count()
    }

    /// The positions so far, oldest first.
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The result if the game is over at the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        G::outcome(self)
    }

    /// Where each turn begins in [`moves`](Self::moves): every index in a
    /// game of one move a turn; in a game of several steps the moves played
    /// from a turn's start (`Game::at_turn_start`). A record, a `position`
    /// line and every move counter count these, not steps; a last turn
    /// still under way counts as one.
    pub fn turn_starts(&self) -> Vec<usize> {
        (0..self.moves.len()).filter(|&i| i == 0 || self.positions[i].at_turn_start()).collect()
    }

    /// The number of turns played (a turn under way counts).
    pub fn turn_count(&self) -> usize {
        if G::ONE_MOVE_TURNS {
            return self.moves.len();
        }
        self.turn_starts().len()
    }

    /// Each turn as (its position before, its moves).
    pub fn turns(&self) -> Vec<(&G, &[G::Move])> {
        let starts = self.turn_starts();
        let ends = starts.iter().skip(1).copied().chain(std::iter::once(self.moves.len()));
        starts.iter().zip(ends).map(|(&a, b)| (&self.positions[a], &self.moves[a..b])).collect()
    }
}

impl<G: Notation> History<G> {
    /// Each turn as the protocol writes it (one token a turn,
    /// [`Notation::turn_text`]): the moves of a `position ... moves` line.
    pub fn turn_texts(&self) -> Vec<String> {
        if G::ONE_MOVE_TURNS {
            return self.moves.iter().map(|m| m.to_string()).collect();
        }
        self.turns().into_iter().map(|(pos, steps)| pos.turn_text(steps)).collect()
    }
}

impl<G: Notation + Arbitration> History<G> {
    /// Parses and plays a turn (one token: a move in most games; the
    /// steps of a turn in a game of several, [`Notation::parse_turn`]); on
    /// error nothing changes.
    pub fn push_text(&mut self, text: &str) -> Result<(), MoveError> {
        for m in self.current().parse_turn(text)? {
            self.push(m);
        }
        Ok(())
    }

    /// Plays an engine's answer to `go` ([`Notation::parse_answer`]); on
    /// error nothing changes.
    pub fn push_answer(&mut self, text: &str) -> Result<(), MoveError> {
        for m in self.current().parse_answer(text)? {
            self.push(m);
        }
        Ok(())
    }

    /// The client's roll at a chance position (the arbiter's in a match,
    /// the server's in the web app; never the engine's): goes back where
    /// the rules roll ([`Arbitration::arbiter_rewind`]), draws an outcome by
    /// the game's weights (`Game::chance_weight`) and plays it. `None`,
    /// with nothing changed, when this is no chance position or it has no
    /// outcome.
    pub fn roll(&mut self, rng: &mut impl rand::Rng) -> Option<G::Move> {
        if !self.current().is_chance() {
            return None;
        }
        let back = self.current().arbiter_rewind();
        let outcomes = self.roll_outcomes();
        let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..total);
        let outcome = outcomes.iter().find_map(|&(m, w)| match pick.checked_sub(u64::from(w)) {
            Some(rest) => {
                pick = rest;
                None
            }
            None => Some(m),
        })?;
        self.take_back(back);
        self.push(outcome);
        Some(outcome)
    }

    /// The roll a client makes for the side to move, as its outcomes and
    /// their weights (an outcome's chance is its weight over their sum),
    /// in the game's order: rolled where the rules roll
    /// ([`Arbitration::arbiter_rewind`]) from this chance position, or
    /// from the one that the move asking for a roll here leads to (Cat's
    /// Chess 10×10: `T@?` at a turn's start, `reroll` after a roll on a
    /// mouse). Empty when no roll is made or may be asked for here.
    pub fn roll_outcomes(&self) -> Vec<(G::Move, u32)> {
        let here = self.current();
        let asked;
        let (chance, back) = if here.is_chance() {
            (here, here.arbiter_rewind())
        } else {
            let mut list = super::MoveList::default();
            here.legal_moves(&mut list);
            let Some(next) = list.iter().map(|&m| here.play(m)).find(|p| p.is_chance()) else {
                return Vec::new();
            };
            asked = next;
            // The asking move is one more to go back over.
            (&asked, asked.arbiter_rewind().saturating_sub(1))
        };
        let roll =
            if back == 0 { *chance } else { self.positions[self.positions.len() - 1 - back.min(self.moves.len())] };
        let mut list = super::MoveList::default();
        roll.legal_moves(&mut list);
        list.iter().map(|&m| (m, roll.chance_weight(m))).collect()
    }

    /// Plays one step as a game's list of moves keeps it (each move's
    /// `Display`: a roll's outcome and the request for it included, as the
    /// web app's database and a record's turn under way keep them), or the
    /// arbiter's pass. On error nothing changes.
    pub fn push_step(&mut self, text: &str) -> Result<(), MoveError> {
        let pos = self.current();
        let m = match pos.arbiter_pass().filter(|p| p.to_string() == text) {
            Some(pass) => pass,
            None => pos.parse_move(text)?,
        };
        self.push(m);
        Ok(())
    }

    /// Plays a turn as a `position ... moves` list writes it: a legal turn
    /// (one token, [`Notation::parse_turn`]), or the arbiter's forced pass
    /// where the game allows one ([`Arbitration::arbiter_pass`]). On error
    /// nothing changes.
    pub fn push_protocol(&mut self, text: &str) -> Result<(), MoveError> {
        if let Some(pass) = self.current().arbiter_pass() {
            if pass.to_string() == text {
                self.push(pass);
                return Ok(());
            }
        }
        self.push_text(text)
    }
}

/// A random legal turn from `pos`: random moves until a turn begins again
/// (one move in most games). A move into a chance position (asking for a
/// roll, which the arbiter makes) is one of the choices when `rolls`, and
/// ends the walk there; else it is never chosen. `choose(position, steps
/// so far, attempt, n)` picks an index below `n`. A walk that reaches a
/// dead end mid-turn (no move that completes it) is drawn again, up to 64
/// times; `None` when no turn was found (the game is over).
pub fn random_turn<G: Game>(
    pos: &G,
    rolls: bool,
    mut choose: impl FnMut(&G, usize, u64, usize) -> usize,
) -> Option<Vec<G::Move>> {
    /// Steps a turn may take before the walk is given up (no game here
    /// comes near: a turn is at most a dozen steps).
    const MAX_STEPS: usize = 64;
    for attempt in 0..64 {
        let (mut p, mut steps) = (*pos, Vec::new());
        while steps.len() < MAX_STEPS {
            let mut list = super::MoveList::default();
            p.legal_moves(&mut list);
            if !rolls {
                list.retain(|&m| !p.play(m).is_chance());
            }
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[choose(&p, steps.len(), attempt, list.len()) % list.len()];
            steps.push(m);
            p = p.play(m);
            if p.at_turn_start() || p.is_chance() {
                return Some(steps);
            }
        }
        if steps.is_empty() {
            return None;
        }
    }
    None
}

/// A game of at most `turns` random legal turns from `start` (fewer if the
/// rules end it), the client rolling at chance positions
/// ([`History::roll`]), every turn complete: the generated games that
/// the readers of games (records, the protocol) are tested on.
pub fn random_game<G: Notation + Arbitration>(start: G, turns: usize, rng: &mut impl rand::Rng) -> History<G> {
    let mut h = History::new(start);
    while h.turn_count() < turns && h.outcome().is_none() {
        if h.current().is_chance() {
            if h.roll(rng).is_none() {
                break;
            }
            continue;
        }
        let Some(steps) = random_turn(h.current(), true, |_, _, _, n| rng.gen_range(0..n)) else { break };
        steps.into_iter().for_each(|m| h.push(m));
    }
    // A turn cut off mid-way (its roll could not be made) is taken back.
    while !h.moves().is_empty() && !h.current().at_turn_start() && h.outcome().is_none() {
        h.take_back(1);
    }
    h
}

/// A random number generator for opening `index` of a match seeded `seed`
/// (SplitMix64 of both, so neighbouring indices are unrelated).
pub fn rng_for(seed: u64, index: u64) -> StdRng {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    StdRng::seed_from_u64(z ^ (z >> 31))
}

/// `plies` random legal turns from `start` that do not end the game (each
/// a uniformly random move in a game of one move a turn; in a game of
/// several steps random steps until the next turn, `random_turn`); a line
/// that ends it early is thrown away and drawn again. The moves of every
/// step, in order.
pub fn random_line<G: Notation + Arbitration>(
    start: &G,
    plies: usize,
    rng: &mut StdRng,
) -> Result<Vec<G::Move>, String> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    for _ in 0..1000 {
        let mut h = History::new(*start);
        for _ in 0..plies {
            if h.outcome().is_some() {
                break;
            }
            let Some(turn) = random_turn(h.current(), false, |_, _, _, n| rng.gen_range(0..n)) else { break };
            turn.into_iter().for_each(|m| h.push(m));
        }
        if h.turn_count() == plies && h.outcome().is_none() {
            return Ok(h.moves().to_vec());
        }
    }
    Err(format!("found no {plies}-ply random opening from {} that leaves the game going", start.to_fen()))
}
