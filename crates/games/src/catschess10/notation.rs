//! A turn as one token (rules §6): `[T@sq,][neutral,]move[,second cat]
//! [,M@sq][,+bonus]`, a move being `<from><to>[promotion][*<square>]`.
//! Parsing walks the step machine, inserting the `End` steps that decline
//! skipped optional steps, and names the step that is wrong. Writing
//! leaves out picks and `End`s, so each token is one step sequence.

use super::moves::{Step, StepKind};
use super::position::{CatsChess10, Phase};
use super::square::{Role, Square};
use catchess_game::{MoveError, MoveList};

/// A move's text split up: squares, promotion, neutral placement.
struct MoveText {
    from: Square,
    to: Square,
    promo: Option<Role>,
    place: Option<Square>,
}

/// Reads a square at the start of `s`: the square and the rest. A square
/// is ASCII (a file letter, then digits), so the cut after it is always
/// at a character boundary, whatever text follows or precedes.
fn take_square(s: &str) -> Option<(Square, &str)> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_lowercase() {
        return None;
    }
    let mut n = 1;
    while n < b.len() && n < 3 && b[n].is_ascii_digit() {
        n += 1;
    }
    Some((Square::parse(&s[..n])?, &s[n..]))
}

fn parse_move_text(s: &str) -> Option<MoveText> {
    let (from, rest) = take_square(s)?;
    let (to, mut rest) = take_square(rest)?;
    let mut promo = None;
    if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_lowercase()) {
        promo = Some(Role::PROMOTIONS.into_iter().find(|k| k.letter() == c)?);
        rest = &rest[1..];
    }
    let place = match rest.strip_prefix('*') {
        Some(sq) => Some(Square::parse(sq)?),
        None if rest.is_empty() => None,
        None => return None,
    };
    Some(MoveText { from, to, promo, place })
}

/// One part of a token, with the step it belongs to.
enum Part {
    /// `T@<sq>`: a teleport that kept `sq`.
    Teleport(Square),
    /// `T?<sq>`: the roll landed on a mouse; the player has not decided.
    RollMouse(Square),
    /// `T@?`: the request, which only the engine says.
    Request,
    /// `reroll`: the engine's answer to `T?<sq>`, never a move.
    Reroll,
    /// A neutral move, an own move or a second cat move: the phase decides.
    Move(MoveText),
    Mouse(Square),
    Bonus(MoveText),
}

fn parse_part(s: &str) -> Option<Part> {
    match s {
        "T@?" => return Some(Part::Request),
        "reroll" => return Some(Part::Reroll),
        _ => {}
    }
    if let Some(sq) = s.strip_prefix("T?") {
        return Square::parse(sq).map(Part::RollMouse);
    }
    if let Some(sq) = s.strip_prefix("T@") {
        return Square::parse(sq).map(Part::Teleport);
    }
    if let Some(sq) = s.strip_prefix("M@") {
        return Square::parse(sq).map(Part::Mouse);
    }
    if let Some(m) = s.strip_prefix('+') {
        return parse_move_text(m).map(Part::Bonus);
    }
    parse_move_text(s).map(Part::Move)
}

/// Whether `text` has the shape of a turn token.
pub fn is_well_formed(text: &str) -> bool {
    !text.is_empty() && text.split(',').all(|p| parse_part(p).is_some())
}

fn illegal(part: &str, why: impl std::fmt::Display) -> MoveError {
    MoveError::Illegal { text: part.to_string(), why: Some(why.to_string()) }
}

/// Plays steps while collecting them.
struct Walk {
    pos: CatsChess10,
    steps: Vec<Step>,
    /// A step so far captured the opponent's T (the state forgets it when
    /// the turn ends; error messages need it).
    took_t: bool,
}

impl Walk {
    fn step(&mut self, s: Step) -> bool {
        if !self.pos.is_legal(s) {
            return false;
        }
        let them = self.pos.side_to_move().other();
        if s.is_piece_move() && self.pos.piece_at(s.to) == Some(super::square::Piece::new(Role::TCat, them)) {
            self.took_t = true;
        }
        self.pos = self.pos.play(s);
        self.steps.push(s);
        true
    }

    /// Declines optional steps until `phase` wants `want` or the turn ends.
    fn skip_to(&mut self, want: &[Phase]) {
        while !self.pos.at_turn_start() && !want.contains(&self.pos.state.phase) {
            if !self.step(Step::END) {
                return;
            }
        }
    }

    /// A piece move of `kind` (`Own`, `SecondCat`, `Bonus`): pick, go,
    /// place the neutral if one was captured.
    fn piece_move(&mut self, part: &str, kind: StepKind, m: &MoveText, what: &str) -> Result<(), MoveError> {
        if !self.step(Step::pick(m.from)) {
            return Err(illegal(part, format!("{what}: no piece of yours on {} can move", m.from)));
        }
        let go = Step { kind, from: m.from, to: m.to, promo: m.promo };
        if !self.step(go) {
            let why = if m.promo.is_none() && self.pos.piece_at(m.from).is_some_and(|p| p.kind == Role::Pawn) {
                "not a legal move (a move to the last rank needs its promotion letter)"
            } else {
                "not a legal move"
            };
            return Err(illegal(part, format!("{what}: {}{} is {why}", m.from, m.to)));
        }
        let placing = self.pos.state.phase == Phase::Place;
        match (m.place, placing) {
            (Some(sq), true) => {
                if !self.step(Step::at(StepKind::Place, sq)) {
                    return Err(illegal(part, format!("{what}: the neutral cannot be put on {sq} (not an empty square)")));
                }
            }
            (None, true) => return Err(illegal(part, format!("{what}: captures a neutral; say where it goes (*<square>)"))),
            (Some(_), false) => return Err(illegal(part, format!("{what}: captures no neutral, so nothing is placed"))),
            (None, false) => {}
        }
        Ok(())
    }
}

impl CatsChess10 {
    /// The steps of an engine's answer here (rules §8): `T@?` (asking for
    /// the roll) at a turn's start; after a roll on a mouse (`T?<sq>`)
    /// `reroll`, or the rest of the turn with the square kept; else a
    /// turn, or the rest of one after `T@<sq>`.
    pub fn parse_answer(&self, text: &str) -> Result<Vec<Step>, MoveError> {
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        let asks_roll = |m: &Step| matches!(m.kind, StepKind::Request | StepKind::Reroll);
        if let Some(&step) = list.iter().find(|m| asks_roll(m) && m.to_string() == text) {
            return Ok(vec![step]);
        }
        if self.state.phase != Phase::MouseChoice {
            return self.parse_turn(text);
        }
        let keep = Step::at(StepKind::Keep, self.state.picked);
        let mut steps = self.play(keep).parse_turn(text)?;
        steps.insert(0, keep);
        Ok(steps)
    }

    /// The steps of the turn written `text`, checked step by step. A token
    /// that is only `T@sq` is the partial turn after a teleport.
    pub fn parse_turn(&self, text: &str) -> Result<Vec<Step>, MoveError> {
        if !is_well_formed(text) {
            return Err(MoveError::Unparsable(text.to_string()));
        }
        match self.state.phase {
            Phase::Roll | Phase::Reroll => {
                return Err(illegal(text, "step 1 (teleport): the square is being rolled; the arbiter sends it as T@<sq> or T?<sq>"))
            }
            Phase::MouseChoice if text != "reroll" => {
                return Err(illegal(
                    text,
                    format!("step 1 (teleport): the roll on the mouse on {} is undecided (keep or reroll)", self.state.picked),
                ))
            }
            _ => {}
        }
        let mut w = Walk { pos: *self, steps: Vec::new(), took_t: false };
        let parts: Vec<&str> = text.split(',').collect();
        for (i, &part) in parts.iter().enumerate() {
            if i > 0 && w.pos.at_turn_start() {
                let why = if w.pos.finished().is_some() {
                    "the game is over (a king was captured)".to_string()
                } else if part.starts_with('+') && !w.took_t {
                    return Err(illegal(part, "step 5 (bonus move): no opponent T was captured this turn"));
                } else if part.starts_with("M@") {
                    return Err(illegal(part, "step 4 (mouse): no empty square on your first rank"));
                } else {
                    format!("the turn is already complete after {:?}", parts[..i].join(","))
                };
                return Err(illegal(part, format!("out of order: {why}")));
            }
            match parse_part(part).expect("checked well formed") {
                Part::Teleport(sq) | Part::RollMouse(sq) => {
                    if i > 0 {
                        return Err(illegal(part, "out of order: step 1 (teleport) must open the turn"));
                    }
                    let undecided = matches!(parse_part(part), Some(Part::RollMouse(_)));
                    let steps = self.roll_to(sq, !undecided).map_err(|e| illegal(part, e))?;
                    if undecided {
                        if steps.len() != 2 || steps[1].kind != StepKind::RollMouse {
                            return Err(illegal(
                                part,
                                format!("step 1 (teleport): no mouse on {sq}, so there is nothing to decide (a roll on an empty square is T@{sq})"),
                            ));
                        }
                        if parts.len() > 1 {
                            return Err(illegal(
                                part,
                                format!("step 1 (teleport): T?{sq} is undecided, so nothing may follow it (a kept mouse square is T@{sq})"),
                            ));
                        }
                    }
                    for s in steps {
                        if !w.step(s) {
                            return Err(illegal(part, "step 1 (teleport): not possible here"));
                        }
                    }
                }
                Part::Request => {
                    return Err(illegal(
                        part,
                        "step 1 (teleport): the roll is the arbiter's; send the square it rolled as T@<sq> (or T?<sq> on a mouse)",
                    ))
                }
                Part::Reroll => {
                    let why = if i == 0 && w.pos.state.phase == Phase::MouseChoice && !w.pos.may_reroll() {
                        "step 1 (teleport): no reroll here: no square without a mouse is left that a roll could keep, so the mouse's square is kept (keep)"
                    } else if i == 0 && w.pos.state.phase == Phase::MouseChoice {
                        "step 1 (teleport): a reroll is not a move; the arbiter rolls again and sends the new roll in place of T?<sq>"
                    } else {
                        "step 1 (teleport): no roll on a mouse was made to reroll (reroll answers T?<sq> only)"
                    };
                    return Err(illegal(part, why));
                }
                Part::Move(m) => {
                    let st = w.pos.state;
                    let neutral_here = w.pos.piece_at(m.from).is_some_and(|p| p.kind == Role::Neutral);
                    if neutral_here && st.phase != Phase::Start {
                        return Err(illegal(part, "out of order: step 2 (neutral move) comes before step 3"));
                    }
                    match st.phase {
                        Phase::Start if neutral_here => {
                            if st.neutral_done {
                                return Err(illegal(part, "step 2 (neutral move): only one neutral moves a turn"));
                            }
                            if m.promo.is_some() || m.place.is_some() {
                                return Err(illegal(part, "step 2 (neutral move): a neutral neither promotes nor captures"));
                            }
                            if !w.step(Step::new(StepKind::Neutral, m.from, m.to)) {
                                return Err(illegal(part, "step 2 (neutral move): not a legal neutral move"));
                            }
                        }
                        Phase::Start => w.piece_move(part, StepKind::Own, &m, "step 3 (own move)")?,
                        Phase::SecondCat => {
                            w.piece_move(part, StepKind::SecondCat, &m, "step 3 (second cat move)")?
                        }
                        _ => {
                            return Err(illegal(
                                part,
                                "out of order: a second cat move only follows a cat's non-knight own move",
                            ))
                        }
                    }
                }
                Part::Mouse(sq) => {
                    if w.pos.state.phase == Phase::Start {
                        return Err(illegal(part, "out of order: step 4 (mouse) before step 3 (own move)"));
                    }
                    w.skip_to(&[Phase::Mouse]);
                    if w.pos.at_turn_start() || w.pos.state.phase != Phase::Mouse {
                        return Err(illegal(part, "step 4 (mouse): no empty square on your first rank"));
                    }
                    if !w.step(Step::at(StepKind::Mouse, sq)) {
                        return Err(illegal(part, format!("step 4 (mouse): {sq} is not an empty square of your first rank")));
                    }
                }
                Part::Bonus(m) => {
                    if w.pos.state.phase == Phase::Start {
                        return Err(illegal(part, "out of order: step 5 (bonus move) before step 3 (own move)"));
                    }
                    w.skip_to(&[Phase::Bonus]);
                    if w.pos.at_turn_start() || w.pos.state.phase != Phase::Bonus {
                        let why = if w.took_t { "no bonus move is possible" } else { "no opponent T was captured this turn" };
                        return Err(illegal(part, format!("step 5 (bonus move): {why}")));
                    }
                    w.piece_move(part, StepKind::Bonus, &m, "step 5 (bonus move)")?;
                }
            }
        }
        // A token that is only `T@sq` or `T?sq` is the partial turn that
        // the protocol sends after a roll (§8).
        let partial = parts.len() == 1 && matches!(parse_part(parts[0]), Some(Part::Teleport(_) | Part::RollMouse(_)));
        if !partial {
            w.skip_to(&[]);
            if !w.pos.at_turn_start() {
                return Err(illegal(text, "the turn is incomplete: step 3 (own move) is missing"));
            }
        }
        Ok(w.steps)
    }

    /// The token of `steps` (picks and `End`s write nothing; a placement
    /// follows its move without a comma). Step 1 writes only where it
    /// ended: `T@<sq>` for a kept square (an empty one, or a mouse's
    /// followed by `Keep`), and, when the steps stop there, `T@?` (the
    /// request), `T?<sq>` (the undecided mouse) or `reroll`. `Keep` itself
    /// writes nothing, so the rest of a turn after `T?<sq>` is written
    /// without the teleport (§8).
    pub fn turn_text(steps: &[Step]) -> String {
        let mut out = String::new();
        for (i, s) in steps.iter().enumerate() {
            let last = i + 1 == steps.len();
            let text = match s.kind {
                StepKind::Pick | StepKind::End | StepKind::None | StepKind::Keep => continue,
                StepKind::Place => {
                    out.push_str(&s.to_string());
                    continue;
                }
                StepKind::Request | StepKind::Reroll if !last => continue,
                StepKind::RollMouse if steps.get(i + 1).is_some_and(|n| n.kind == StepKind::Keep) => {
                    format!("T@{}", s.to)
                }
                StepKind::RollMouse if !last => continue,
                _ => s.to_string(),
            };
            if !out.is_empty() {
                out.push(',');
            }
            out.push_str(&text);
        }
        out
    }
}
