//! The game abstraction one perft, one search and one protocol are written
//! against. A game is a copy-make position: `play` returns the next
//! position, so "unmake" is dropping it and search stacks need no undo data.

use crate::core::Side;
use crate::moves::MoveList;
use crate::position::FenError;
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
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Outcome {
    pub winner: Winner,
    pub reason: Reason,
}

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

    fn startpos() -> Self;
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    fn to_fen(&self) -> String;
    fn turn(&self) -> Side;
    fn legal_moves(&self, list: &mut MoveList<Self::Move>);
    /// The number of legal moves, ideally without generating them.
    fn count_legal_moves(&self) -> u64;
    /// The position after a legal move.
    fn play(&self, m: Self::Move) -> Self;
    fn key(&self) -> u64;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    fn halfmove_clock(&self) -> u32;
    fn insufficient_material(&self) -> bool;
    /// Whether the game end is judged here (Cat Chess: not on the cats' turn).
    fn is_judged(&self) -> bool;
    /// Who a draw rewards.
    fn draw_winner() -> Winner;
    /// Who wins if the side to move is mated here.
    fn mate_winner(&self) -> Winner;

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

    /// The result if the game is over at the current position (rules §5:
    /// checkmate first, then stalemate, repetition, fifty moves, material).
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.current();
        if !pos.is_judged() {
            return None;
        }
        if pos.count_legal_moves() == 0 {
            return Some(if pos.in_check() {
                Outcome { winner: pos.mate_winner(), reason: Reason::Checkmate }
            } else {
                Outcome { winner: G::draw_winner(), reason: Reason::Stalemate }
            });
        }
        let draw = |reason| Some(Outcome { winner: G::draw_winner(), reason });
        let key = pos.key();
        if self.positions.iter().filter(|p| p.key() == key).count() >= 3 {
            return draw(Reason::Repetition);
        }
        if pos.halfmove_clock() >= 100 {
            return draw(Reason::FiftyMoves);
        }
        if pos.insufficient_material() {
            return draw(Reason::InsufficientMaterial);
        }
        None
    }
}
