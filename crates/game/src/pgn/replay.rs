//! A game's record played with the rules of a game `G`: its start (the
//! `FEN` tag), each move token as the legal turn it writes, the move
//! numbers the record gives them, and errors that name the move as the
//! record does (`move 2. Ke3`, `move 14... T@g4,a2b2`).

use super::reader::PgnGame;
use super::MAX_TURNS;
use crate::{Arbitration, FenError, FenField, Game, History, MoveError, MoveList, Notation, Reason, Seat};
use std::fmt;

/// The words that end a game of `G` as its result besides PGN's own: the
/// older records of games whose results PGN cannot say named the winner,
/// a seat (`cats`) or `draw` (`reader::games`).
pub fn result_words<G: Game>() -> Vec<&'static str> {
    G::SEATS.iter().map(|s| s.name).chain(["draw"]).collect()
}

/// A turn's number as the record writes it: `2.` before the first seat's
/// move, `2...` before another seat's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePlace {
    pub number: u64,
    pub first_seat: bool,
}

impl fmt::Display for MovePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number, if self.first_seat { "." } else { "..." })
    }
}

/// The move numbers of a game's turns, the one rule of the writer and of
/// the reader's errors: the start FEN's move number, one more at each
/// turn of the first seat but the game's first.
#[derive(Clone, Debug)]
pub struct Numbering {
    number: u64,
    turns: usize,
}

impl Numbering {
    pub fn new<G: Notation>(start: &G) -> Self {
        let fen = start.to_fen();
        Numbering { number: fen.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(1), turns: 0 }
    }

    /// The place of the next turn, played from `pos`.
    pub fn next<G: Game>(&mut self, pos: &G) -> MovePlace {
        let first_seat = pos.to_move() == Seat::new(0);
        if first_seat && self.turns > 0 {
            self.number += 1;
        }
        self.turns += 1;
        MovePlace { number: self.number, first_seat }
    }
}

/// Why a record's moves do not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `FEN` tag is not a position of the game.
    Fen(FenError),
    /// A token that is no legal turn where it stands.
    Move { place: MovePlace, token: String, error: MoveError },
    /// A move after the rules ended the game.
    AfterEnd { place: MovePlace, token: String, reason: Reason },
    /// More than [`MAX_TURNS`] turns.
    TooLong,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "FEN tag: {e}"),
            ReplayError::Move { place, token, error } => write!(f, "move {place} {token}: {error}"),
            ReplayError::AfterEnd { place, token, reason } => {
                write!(f, "move {place} {token} comes after the game ended ({reason})")
            }
            ReplayError::TooLong => write!(f, "more than {MAX_TURNS} turns"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// How far to replay a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every move; a move after the rules ended the game is an error.
    AtEnd,
    /// At most this many turns, stopping where the rules end the game (an
    /// opening book's first plies).
    AfterTurns(usize),
}

/// Where a record starts: its `FEN` tag, or the game's start position.
pub fn start<G: Notation>(game: &PgnGame) -> Result<G, ReplayError> {
    match game.tag("FEN") {
        // A FEN is ASCII in every game; anything else is refused here, so
        // that no game's FEN parser sees it.
        Some(fen) if !fen.is_ascii() => {
            Err(ReplayError::Fen(FenError { field: FenField::Fen, problem: "not ASCII text".into() }))
        }
        Some(fen) => G::from_fen(fen).map_err(ReplayError::Fen),
        None => Ok(G::startpos()),
    }
}

/// The game of `game`'s record, its moves played from its start as far as
/// `stop` says.
pub fn replay<G: Notation + Arbitration>(game: &PgnGame, stop: Stop) -> Result<History<G>, ReplayError> {
    let first = start::<G>(game)?;
    let mut history = History::new(first);
    let mut numbering = Numbering::new(&first);
    let most = match stop {
        Stop::AtEnd => usize::MAX,
        Stop::AfterTurns(n) => n,
    };
    if game.moves.len().min(most) > MAX_TURNS {
        return Err(ReplayError::TooLong);
    }
    for token in game.move_texts().take(most) {
        let place = numbering.next(history.current());
        if let Some(end) = history.outcome() {
            if stop != Stop::AtEnd {
                break;
            }
            return Err(ReplayError::AfterEnd { place, token: token.to_string(), reason: end.reason });
        }
        let steps = record_turn(history.current(), token).map_err(|error| ReplayError::Move {
            place,
            token: token.to_string(),
            error,
        })?;
        steps.into_iter().for_each(|m| history.push(m));
    }
    Ok(history)
}

/// The turn a record writes as `token` from `pos`, as its moves: in a game
/// of one move a turn, the move in the protocol's text or in the record's
/// own (`Notation::record_move`: SAN in chess, WXF in xiangqi), check marks
/// and annotations (`+`, `#`, `!`, `?`) and a promotion's `=` aside; in a
/// game of several steps the steps of the turn token
/// (`Notation::parse_turn`, or a request for a roll). The arbiter's pass for a seat that forfeited
/// (`Arbitration::arbiter_pass`, `0000`) reads as itself, legal or not.
pub fn record_turn<G: Notation + Arbitration>(pos: &G, token: &str) -> Result<Vec<G::Move>, MoveError> {
    // Every game's move text is printable ASCII, as PGN's movetext is;
    // anything else is refused here, so no game's parser sees it.
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(MoveError::Unparsable(token.to_string()));
    }
    if G::ONE_MOVE_TURNS {
        return record_move(pos, token).map(|m| vec![m]);
    }
    if let Some(pass) = pos.arbiter_pass().filter(|p| p.to_string() == token) {
        return Ok(vec![pass]);
    }
    // As an engine's answer reads (`Notation::parse_answer`): a turn, or
    // the request for a roll a record of a game under way may end with
    // (`T@?`), which whoever replays it rolls.
    pos.parse_answer(token)
}

/// A move as a person types it (the page's move box): as [`record_turn`]
/// reads it, or else, in a game of one move a turn, the one legal move
/// whose record reads so in any letter case (`c2.5`, `nf3`). Never a guess:
/// where the case tells moves apart (`bxc3` a pawn, `Bxc3` a bishop) the
/// exact text has already chosen, and two moves that differ only in case
/// refuse the text. Records themselves are read exactly.
pub fn typed_turn<G: Notation + Arbitration>(pos: &G, token: &str) -> Result<Vec<G::Move>, MoveError> {
    let exact = record_turn(pos, token);
    if exact.is_ok() || !G::ONE_MOVE_TURNS || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return exact;
    }
    let want = bare(token).to_ascii_lowercase();
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    let mut matching = list.iter().copied().filter(|&m| bare(&pos.record_move(m)).to_ascii_lowercase() == want);
    match (matching.next(), matching.next()) {
        (Some(m), None) => Ok(vec![m]),
        _ => exact,
    }
}

/// A record's move text without check marks, annotations and a
/// promotion's `=`.
fn bare(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?']).replace('=', "")
}

/// One move of a game of one move a turn ([`record_turn`]).
fn record_move<G: Notation + Arbitration>(pos: &G, token: &str) -> Result<G::Move, MoveError> {
    let want = bare(token);
    // SAN may mark the pass with a check (`0000+`).
    if let Some(pass) = pos.arbiter_pass().filter(|p| p.to_string() == want) {
        return Ok(pass);
    }
    if let Ok(m) = pos.parse_move(token) {
        return Ok(m);
    }
    if want.is_empty() {
        return Err(MoveError::Unparsable(token.to_string()));
    }
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter().copied().find(|&m| bare(&pos.record_move(m)) == want).ok_or_else(|| MoveError::illegal(token))
}
