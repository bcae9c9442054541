//! Game records for the page's export and import: written by the
//! arbiter's PGN writer, read back by a small reader that takes moves in
//! the game's notation (SAN, WXF, the Cat Chess move text) or in the
//! protocol's text.

use super::forfeit::Ending;
use crate::game::{Arbitration, History, MoveList, Notation};
use crate::tournament::record::{self, RecordTags};

/// What a record says besides the moves and the result.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// The `Faults` of seats that forfeited and played on.
    pub faults: Vec<String>,
    /// Each seat's PGN `TimeControl` (`300+2`; `-` for a seat without a
    /// clock); empty: `-` for every seat.
    pub controls: Vec<String>,
    /// A comment after each turn: its seat's clock (`[%clk 0:04:58]`), if
    /// the seat has one.
    pub after_turns: Vec<Option<String>>,
    /// A comment after the moves (a 10×10 turn left unfinished).
    pub after: Option<String>,
}

/// The record of `history`, `players` naming each seat's player in seat
/// order (`Person`, `catchess 500 ms`), ended as `ending` says (the
/// result `*` while the game goes on), with `notes`.
pub fn write<G: Notation + Arbitration>(
    history: &History<G>,
    players: Vec<String>,
    ending: Option<Ending>,
    notes: Notes,
) -> String {
    let outcome = ending.as_ref().map(|e| e.outcome);
    let seats = G::SEATS.len();
    let tags = RecordTags {
        event: "catchess serve".into(),
        date: record::today(),
        round: "-".into(),
        players,
        winner: outcome.and_then(|o| o.winner),
        finished: outcome.is_some(),
        points: points::<G>(outcome.map(|o| o.winner)),
        time_controls: if notes.controls.len() == seats { notes.controls } else { vec!["-".into(); seats] },
        termination: ending.map_or("unterminated".to_string(), |e| e.termination),
        faults: notes.faults,
    };
    record::write(&tags, history, &notes.after_turns, None, notes.after.as_deref())
}

/// Points per seat for a finished game (`Some(winner)`), zeros otherwise.
fn points<G: Notation>(result: Option<Option<crate::game::Seat>>) -> Vec<f64> {
    let seats = G::SEATS.len();
    match result {
        Some(Some(w)) => (0..seats).map(|i| (i == w.index()) as u8 as f64).collect(),
        Some(None) => vec![1.0 / seats as f64; seats],
        None => vec![0.0; seats],
    }
}

/// A record read: its tags and the move tokens, in order.
#[derive(Debug, Default)]
pub struct Record {
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

/// Tokens that end the movetext.
const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*", "white", "black", "cats", "red", "draw"];

impl Record {
    /// Reads the first game of a PGN text.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut record = Record::default();
        let mut movetext = String::new();
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('%') {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[') {
                let inner = inner.strip_suffix(']').ok_or_else(|| format!("unclosed tag: {line}"))?;
                let (name, value) =
                    inner.split_once(char::is_whitespace).ok_or_else(|| format!("tag without value: {line}"))?;
                let value = value.trim().trim_matches('"').replace("\\\"", "\"").replace("\\\\", "\\");
                record.tags.push((name.to_string(), value));
            } else {
                movetext.push_str(line);
                movetext.push('\n');
            }
        }
        record.moves = tokens(&movetext)?;
        Ok(record)
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Plays the record's moves from its `FEN` tag (or the start).
    pub fn replay<G: Notation + Arbitration>(&self) -> Result<History<G>, String> {
        let start = match self.tag("FEN") {
            Some(fen) => G::from_fen(fen).map_err(|e| format!("FEN tag: {e}"))?,
            None => G::startpos(),
        };
        let mut history = History::new(start);
        for (i, token) in self.moves.iter().enumerate() {
            if history.outcome().is_some() {
                return Err(format!("move {} ({token}) comes after the game ended", i + 1));
            }
            let m = find_move(history.current(), token)
                .ok_or_else(|| format!("move {} ({token}) is not a legal move here", i + 1))?;
            history.push(m);
        }
        Ok(history)
    }
}

/// The movetext's moves: comments, variations, move numbers, annotations
/// and the result left out.
fn tokens(movetext: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut chars = movetext.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        let w = std::mem::take(word);
        if RESULTS.contains(&w.as_str()) {
            return;
        }
        // A move number (`12.`, `12...`), alone or glued to its move.
        let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
        let w = if digits.len() < w.len() && digits.starts_with('.') { digits.trim_start_matches('.') } else { &w };
        if !(w.is_empty() || w.starts_with('$')) {
            out.push(w.to_string());
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut out);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("unclosed comment".into());
                }
            }
            ';' => {
                flush(&mut word, &mut out);
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut word, &mut out);
                depth += 1;
            }
            ')' => {
                flush(&mut word, &mut out);
                depth = depth.checked_sub(1).ok_or("unbalanced ')'")?;
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c if depth == 0 => word.push(c),
            _ => {}
        }
    }
    flush(&mut word, &mut out);
    if depth > 0 {
        return Err("unclosed variation".into());
    }
    Ok(out)
}

/// The legal move written `token`: in the protocol's text, or in the
/// game's notation with or without its check and annotation marks.
fn find_move<G: Notation>(pos: &G, token: &str) -> Option<G::Move> {
    if let Ok(m) = pos.parse_move(token) {
        return Some(m);
    }
    let bare = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).to_string();
    let wanted = bare(token);
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.iter().copied().find(|&m| bare(&pos.record_move(m)) == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CatChess, Chess, Xiangqi};

    fn history<G: Notation + Arbitration>(moves: &str) -> History<G> {
        let mut h = History::new(G::startpos());
        for m in moves.split_whitespace() {
            h.push_text(m).unwrap();
        }
        h
    }

    fn round_trip<G: Notation + Arbitration>(moves: &str) {
        let h = history::<G>(moves);
        let text = write(&h, vec!["?".into(); G::SEATS.len()], None, Notes::default());
        let back = Record::parse(&text).unwrap().replay::<G>().unwrap();
        assert_eq!(back.moves(), h.moves(), "{text}");
    }

    #[test]
    fn records_read_back_in_every_game() {
        round_trip::<Chess>("e2e4 e7e5 g1f3 b8c6 f1b5");
        round_trip::<CatChess>("e2e4 e7e5 h5g4 g1f3 b8c6 a4b5");
        round_trip::<Xiangqi>("h3e3 h10g8 h1g3");
    }

    #[test]
    fn cat_chess_records_read_in_san_and_in_the_older_protocol_text() {
        let h = history::<CatChess>("e2e4 e7e5 h5g4 g1f3 b8c6 a4b5");
        let players = vec!["Person".into(), "catchess level 1".into(), "catchess level 1".into()];
        let text = write(&h, players, None, Notes::default());
        assert!(text.contains("1. e4 e5 h5g4 2. Nf3 Nc6 a4b5 *"), "{text}");
        assert!(text.contains("[Black \"catchess level 1\"]"), "{text}");
        for old in ["1. e2e4 e7e5 h5g4 2. g1f3 b8c6 a4b5 *", "1. e4 e5 h5g4 2. g1f3 Nc6 a4b5 *"] {
            let back = Record::parse(old).unwrap().replay::<CatChess>().unwrap();
            assert_eq!(back.moves(), h.moves(), "{old}");
        }
    }

    #[test]
    fn an_unfinished_game_has_no_result_and_a_finished_one_has() {
        let players = || vec!["Person".to_string(), "catchess 500 ms".to_string()];
        let ended = |h: &History<Chess>| crate::serve::forfeit::ending::<Chess>(&[], h.outcome());
        let open = write(&history::<Chess>("e2e4"), players(), None, Notes::default());
        assert!(open.contains("[Result \"*\"]") && open.trim_end().ends_with("e4 *"), "{open}");
        assert!(open.contains("[White \"Person\"]\n[Black \"catchess 500 ms\"]"), "{open}");
        assert!(open.contains("[Termination \"unterminated\"]"), "{open}");
        let mate = history::<Chess>("f2f3 e7e5 g2g4 d8h4");
        let mated = write(&mate, players(), ended(&mate), Notes::default());
        assert!(mated.contains("[Result \"0-1\"]") && mated.trim_end().ends_with("Qh4# 0-1"), "{mated}");
        let cats = write(&history::<CatChess>("e2e4"), vec!["?".into(); 3], None, Notes::default());
        assert!(cats.contains("[Result \"*\"]") && !cats.contains("Winner"), "{cats}");
    }

    #[test]
    fn comments_variations_numbers_and_bad_moves() {
        let r = Record::parse("[Event \"x\"]\n\n1. e4 {best} (1. d4 d5) e5 $1 2. Nf3! ; rest\n1-0").unwrap();
        assert_eq!(r.moves, ["e4", "e5", "Nf3!"]);
        assert_eq!(r.replay::<Chess>().unwrap().moves().len(), 3);
        let bad = Record::parse("1. e4 e4").unwrap().replay::<Chess>().unwrap_err();
        assert!(bad.contains("move 2 (e4)"), "{bad}");
        assert!(Record::parse("1. e4 {open").is_err());
        assert!(Record::parse("[FEN \"nonsense\"]\n").unwrap().replay::<Chess>().unwrap_err().contains("FEN"));
    }
}
