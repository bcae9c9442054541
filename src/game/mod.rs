//! The game abstraction one perft, one search and one protocol are written
//! against. A game is a copy-make position: `play` returns the next
//! position, so "unmake" is dropping it and search stacks need no undo data.

pub mod fen;
mod movelist;

pub use movelist::{MoveList, MAX_MOVES};

use crate::games::chess::types::Side;
use fen::FenError;
use std::fmt;
use std::hash::Hash;

/// Who won a finished game. Chess draws are `Draw`; in Cat Chess every draw
/// is a win for the cats, so `Draw` never occurs there.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Winner {
    White,
    Black,
    Cats,
    Draw,
}

impl Winner {
    pub fn name(self) -> &'static str {
        match self {
            Winner::White => "white",
            Winner::Black => "black",
            Winner::Cats => "cats",
            Winner::Draw => "draw",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Reason {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Xiangqi: the side that keeps checking in a repetition loses.
    PerpetualCheck,
    /// Xiangqi: the side that keeps chasing an unprotected piece loses.
    PerpetualChase,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Winner,
    pub reason: Reason,
}

/// The generic names (`white (checkmate)`): right for chess and Cat Chess,
/// wrong for xiangqi, whose first side is red. Text for a user of game `G`
/// goes through [`describe`] (or [`winner_name`]) instead.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.winner.name(), self.reason.name())
    }
}

/// Why a move string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move in this game's notation at all.
    Unparsable(String),
    /// Well formed, but not legal in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(m) => write!(f, "cannot parse move {m:?}"),
            MoveError::Illegal(m) => write!(f, "illegal move {m:?}"),
        }
    }
}

impl std::error::Error for MoveError {}

pub trait Game: Copy + Send + Sync + fmt::Debug + 'static {
    type Move: Copy + Default + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The `UCI_Variant` name.
    const VARIANT: &'static str;
    /// Squares on the board (64 on 8×8, 90 in xiangqi): the size of tables
    /// indexed by square, such as the search's move history.
    const SQUARES: usize;

    fn startpos() -> Self;
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    fn to_fen(&self) -> String;
    fn turn(&self) -> Side;
    /// What this game calls a side (xiangqi's first side is red).
    fn side_name(side: Side) -> &'static str {
        side.name()
    }
    /// The sides that take turns, in turn order: the seats of a match. The
    /// chess family's two by default; Cat Chess adds the cats. A match needs
    /// this before any position exists (to seat engines and set clocks), so
    /// it is a property of the game, not read off `turn()` as play goes.
    fn sides() -> &'static [Side] {
        &[Side::White, Side::Black]
    }
    fn legal_moves(&self, list: &mut MoveList<Self::Move>);
    /// The number of legal moves, ideally without generating them.
    fn count_legal_moves(&self) -> u64;
    /// The position after a legal move.
    fn play(&self, m: Self::Move) -> Self;
    fn key(&self) -> u64;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Origin and destination squares of a move, each below `SQUARES`
    /// (a pass may give any pair).
    fn move_squares(m: Self::Move) -> (usize, usize);

    /// Whether the end of the game is judged at this position (Cat Chess:
    /// never on the cats' turn).
    fn is_judged(&self) -> bool {
        true
    }
    /// The result when the side to move has no legal move.
    fn no_moves_outcome(&self) -> Outcome;
    /// A draw this position alone proves (fifty-move rule, insufficient
    /// material), if any. Repetition needs the history and is not included.
    fn rule_draw(&self) -> Option<Reason>;
    /// Who a draw rewards.
    fn draw_winner() -> Winner;

    /// The result, if the game is over at the end of `history`. The default
    /// is the chess family's (RULES.md §8): no legal move first (mate or
    /// stalemate), then threefold repetition, then the rule draws.
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        let pos = history.current();
        if !pos.is_judged() {
            return None;
        }
        if pos.count_legal_moves() == 0 {
            return Some(pos.no_moves_outcome());
        }
        let draw = |reason| Some(Outcome { winner: Self::draw_winner(), reason });
        if history.repetitions() >= 3 {
            return draw(Reason::Repetition);
        }
        pos.rule_draw().and_then(draw)
    }

    /// Finds the legal move written `text`; errors say whether the text was
    /// malformed or the move illegal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        if !self.is_well_formed_move(text) {
            return Err(MoveError::Unparsable(text.to_string()));
        }
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        list.iter().copied().find(|m| m.to_string() == text).ok_or_else(|| MoveError::Illegal(text.to_string()))
    }

    /// Whether `text` has the shape of a move in this game's notation.
    fn is_well_formed_move(&self, text: &str) -> bool;

    /// The move an arbiter plays for the side to move when that side has
    /// forfeited its moves but the game goes on: in Cat Chess the cats'
    /// pass (`0000`) after a cats fault (protocol.md, "Matches and faults"),
    /// legal or not. `None` (the default) where a fault ends the game:
    /// white, black, and every side of a two-sided game. `play` must accept
    /// the move; `History::push_protocol` accepts its text.
    fn arbiter_pass(&self) -> Option<Self::Move> {
        None
    }

    /// How a game record (PGN) writes `m`, a legal move from this position.
    /// The protocol's notation by default; chess overrides it with SAN.
    fn record_move(&self, m: Self::Move) -> String {
        m.to_string()
    }

    /// A picture of the position for humans (the protocol's `d`).
    fn render(&self) -> String;
}

/// How an outcome reads in game `G`: `white (checkmate)`, `red (stalemate)`.
pub fn describe<G: Game>(o: &Outcome) -> String {
    format!("{} ({})", winner_name::<G>(o.winner), o.reason.name())
}

/// The winner's name in game `G` (`draw` for a draw).
pub fn winner_name<G: Game>(w: Winner) -> &'static str {
    match w {
        Winner::White => G::side_name(Side::White),
        Winner::Black => G::side_name(Side::Black),
        Winner::Cats => G::side_name(Side::Cats),
        Winner::Draw => "draw",
    }
}

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

    /// Parses and plays a move; on error nothing changes.
    pub fn push_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        let m = self.current().parse_move(text)?;
        self.push(m);
        Ok(m)
    }

    /// Plays a move as a `position ... moves` list writes it: a legal move,
    /// or the arbiter's forced pass where the game allows one
    /// ([`Game::arbiter_pass`]). On error nothing changes.
    pub fn push_protocol(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if let Some(pass) = self.current().arbiter_pass() {
            if pass.to_string() == text {
                self.push(pass);
                return Ok(pass);
            }
        }
        self.push_text(text)
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
}
