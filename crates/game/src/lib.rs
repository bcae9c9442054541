//! The traits every game implements, and that perft, the search, the
//! protocol and the arbiter are written against; nothing here names a game.
//!
//! * [`Game`]: the rules and the turn model: seats, whose turn it is, legal
//!   moves, playing one (copy-make: `play` returns the next position, so
//!   "unmake" is dropping it), and how the game ends.
//! * [`Notation`]: the game as text: FEN, move text, records, a picture.
//! * [`Arbitration`]: what an arbiter does when a seat forfeits.
//!
//! The search's hooks (evaluation, move ordering) are `search::SearchGame`;
//! `crates/games/src/README.md` shows how a game implements all of them.

pub mod fen;
mod history;
mod movelist;
mod option;
mod outcome;
pub mod perft;
pub mod pgn;
mod seat;
pub mod view;

pub use fen::{FenError, FenField};
pub use history::{random_game, random_line, random_turn, rng_for, History};
pub use movelist::{MoveList, MAX_MOVES};
pub use option::GameOption;
pub use outcome::{describe, rule_draw, standard_outcome, winner_name, Outcome, Reason};
pub use seat::{Goal, Seat, SeatInfo};

use std::fmt;
use std::hash::Hash;

/// The rules of a game and its turn model.
pub trait Game: Copy + Send + Sync + fmt::Debug + 'static {
    /// A move; `Display` writes it as the protocol does (`e2e4`, `h3e3`).
    type Move: Copy + Default + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The `UCI_Variant` name.
    const VARIANT: &'static str;
    /// Squares on the board (64 on 8×8, 90 in xiangqi): the size of tables
    /// indexed by square, such as the search's move history.
    const SQUARES: usize;
    /// The seats, in turn order from the start position. A match seats
    /// engines by this before any position exists.
    const SEATS: &'static [SeatInfo];
    /// Whether every turn is one move (chess, xiangqi, Cat Chess). A game
    /// whose turns take several steps (each a move of the tree: optional
    /// steps, a second move) sets it to false and says where turns begin
    /// with [`at_turn_start`](Self::at_turn_start); perft then counts
    /// complete turns, and the protocol reads and writes a turn as one
    /// token ([`Notation::parse_turn`], [`Notation::turn_text`]).
    const ONE_MOVE_TURNS: bool = true;

    fn startpos() -> Self;
    /// The seat to move. Each game's own position type names the same
    /// `side_to_move()`, as its own colour type: one name per type, so that
    /// a call says which it gives (a method of the same name would shadow
    /// this one on the concrete type).
    fn to_move(&self) -> Seat;
    /// Whether a turn begins here (false between the steps of a turn; a
    /// position where the game ended mid-turn counts as a turn's start).
    fn at_turn_start(&self) -> bool {
        true
    }
    fn legal_moves(&self, list: &mut MoveList<Self::Move>);
    /// The number of legal moves, ideally without generating them.
    fn count_legal_moves(&self) -> u64;
    /// The position after a legal move.
    fn play(&self, m: Self::Move) -> Self;
    /// The position's hash: equal for positions that repeat (placement,
    /// seat to move and the rights that matter).
    fn key(&self) -> u64;
    /// Origin and destination squares of a move, each below `SQUARES`
    /// (a pass may give any pair); the search's history table is indexed
    /// by them.
    fn move_squares(m: Self::Move) -> (usize, usize);

    /// The result that this position decides by itself, if any: with
    /// `no_moves`, what it means that the seat to move has no legal move
    /// (chess: mate or stalemate; must be `Some`); without, the rules that
    /// need no history (chess: the fifty-move rule and insufficient
    /// material, unless the move that completed the count mated).
    fn position_outcome(&self, no_moves: bool) -> Option<Outcome>;
    /// Who a draw by the rules (repetition, the position's own draws)
    /// rewards: nobody by default; the cats in Cat Chess.
    fn draw_winner() -> Option<Seat> {
        None
    }
    /// Whether the next move is rolled, not chosen (a die): the legal moves
    /// are then the outcomes, each as likely as its
    /// [`chance_weight`](Self::chance_weight), and the search values the
    /// position as their expectation. No game of the chess family rolls.
    fn is_chance(&self) -> bool {
        false
    }
    /// The relative likelihood of the outcome `m` of a chance position.
    fn chance_weight(&self, _m: Self::Move) -> u32 {
        1
    }
    /// Whether this chance position rolls again the roll just made two
    /// moves before, after its outcome was declined (Cat's Chess 10×10's
    /// `reroll`): its outcomes are positions of that roll, whose values
    /// the search has just found, so it values this one from them instead
    /// of searching them again.
    fn is_reroll(&self) -> bool {
        false
    }
    /// The result, if the game is over at the end of `history`; by default
    /// [`standard_outcome`].
    fn outcome(history: &History<Self>) -> Option<Outcome> {
        standard_outcome(history)
    }
}

/// Why a move string was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move in this game's notation at all.
    Unparsable(String),
    /// Well formed, but not legal in the position; `why`, where the
    /// game's rules can say, is the rule it breaks in a player's words.
    Illegal { text: String, why: Option<String> },
}

impl MoveError {
    /// `text` is not legal here, for no reason the rules name.
    pub fn illegal(text: &str) -> MoveError {
        MoveError::Illegal { text: text.to_string(), why: None }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(m) => write!(f, "cannot parse move {m:?}"),
            MoveError::Illegal { text, why: None } => write!(f, "illegal move {text:?}"),
            MoveError::Illegal { text, why: Some(why) } => write!(f, "illegal move {text:?}: {why}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A game written down: FEN, moves as text, records, a picture for humans.
pub trait Notation: Game {
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    fn to_fen(&self) -> String;

    /// Whether `text` has the shape of a move in this game's notation.
    fn is_well_formed_move(&self, text: &str) -> bool;

    /// Finds the legal move written `text`; errors say whether the text was
    /// malformed or the move illegal.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        if !self.is_well_formed_move(text) {
            return Err(MoveError::Unparsable(text.to_string()));
        }
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|m| m.to_string() == text)
            .ok_or_else(|| MoveError::Illegal { text: text.to_string(), why: self.why_illegal(text) })
    }

    /// Why the well-formed move `text` is not legal here, in a player's
    /// words (the rule it breaks), where the game can say; asked only of
    /// a refused move.
    fn why_illegal(&self, _text: &str) -> Option<String> {
        None
    }

    /// The moves of the turn written `text` (one token: `e2e4`; in a game
    /// of several steps a turn, the steps joined as the game writes them),
    /// checked step by step; errors name the step that is wrong.
    fn parse_turn(&self, text: &str) -> Result<Vec<Self::Move>, MoveError> {
        self.parse_move(text).map(|m| vec![m])
    }

    /// The moves of an engine's answer to `go` here (its `bestmove`): a
    /// turn, or the rest of one the client began with a partial token (Cat's
    /// Chess 10×10 after a roll on a mouse: `reroll`, or the rest of the
    /// turn, the square kept). By default a turn ([`parse_turn`](Self::parse_turn)).
    fn parse_answer(&self, text: &str) -> Result<Vec<Self::Move>, MoveError> {
        self.parse_turn(text)
    }

    /// The token of the turn made of `steps` from this position (for a game
    /// of one move a turn, the move's text).
    fn turn_text(&self, steps: &[Self::Move]) -> String {
        steps.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(",")
    }

    /// How a game record (PGN) writes `m`, a legal move from this position:
    /// the protocol's text by default (chess uses SAN, xiangqi WXF).
    fn record_move(&self, m: Self::Move) -> String {
        m.to_string()
    }

    /// A picture of the position for humans (the protocol's `d`).
    fn render(&self) -> String;
}

/// What an arbiter does when a seat forfeits (an illegal move, a lost
/// clock, a crashed engine): protocol.md, "Matches and faults".
pub trait Arbitration: Game {
    /// The seat that wins when `seat` forfeits; `None` when the game goes
    /// on with the arbiter moving for `seat` ([`arbiter_pass`](Self::arbiter_pass)).
    /// By default, in a game of two seats, the other one.
    fn forfeit_winner(seat: Seat) -> Option<Seat> {
        (Self::SEATS.len() == 2).then(|| Seat::new(1 - seat.index()))
    }

    /// Who a game the rules ended (`winner`: their verdict) rewards when
    /// the seats for which `forfeited` holds have forfeited and played on,
    /// passing: a seat that forfeited gets no win. Its win by the rules (Cat
    /// Chess's draw, the cats' win) then rewards nobody; anyone else's
    /// stands. The one place of this rule: the page's games
    /// (`serve::forfeit`), the match arbiter and `pgn check` all ask here.
    fn winner_after_forfeits(winner: Option<Seat>, forfeited: impl Fn(Seat) -> bool) -> Option<Seat> {
        winner.filter(|&w| Self::forfeit_winner(w).is_some() || !forfeited(w))
    }

    /// The move the arbiter plays for a seat that has forfeited but plays
    /// on (Cat Chess: the cats' pass `0000`), legal or not; `None` where
    /// every forfeit ends the game. `play` must accept it, and
    /// `History::push_protocol` accepts its text.
    fn arbiter_pass(&self) -> Option<Self::Move> {
        None
    }

    /// At a chance position the arbiter is about to roll: how many moves
    /// to take back first, so that it rolls where the rules roll. A game
    /// whose tree models a roll other than its rules make it (Cat's Chess
    /// 10×10's reroll, a roll without the mice in the search) sends the
    /// arbiter back to the real one. By default none.
    fn arbiter_rewind(&self) -> usize {
        0
    }
}
