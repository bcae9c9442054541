//! Writing a record: tag pairs escaped as the PGN standard says, then the
//! turns of a `History` as numbered movetext with their comments, in lines
//! of at most 79 characters (PGN export format). What the tags say is the
//! caller's (`tournament::record`, `serve::pgn`).

use super::replay::Numbering;
use crate::{History, Notation};

/// A tag's value as a PGN string's inside: a backslash and a quote
/// escaped by a backslash, and each control character (a newline, a tab),
/// which a PGN string may not hold, a space, so that no value can end its
/// tag or start another.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comment's text in braces, with the braces it cannot hold left out.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace(['{', '}'], ""))
}

/// The movetext besides the turns: a comment after each turn (`comments[i]`
/// after turn i, if any), one ahead of the first turn and one after the
/// last, and the result token.
#[derive(Clone, Copy, Debug)]
pub struct Movetext<'a> {
    pub comments: &'a [Option<String>],
    pub before: Option<&'a str>,
    pub after: Option<&'a str>,
    pub result: &'a str,
}

/// One record: `tags` (name, value) in order, a blank line, then the turns
/// of `history` from its start, one token a turn (`Notation::record_move`
/// in a game of one move a turn, else `Notation::turn_text` of the turn's
/// steps), numbered by [`Numbering`]: the number before the first seat's
/// turns, and `N...` before another seat's turn only when it opens the
/// movetext (after a comment too the export format would ask for one; with
/// a comment on almost every move that buries the moves, and readers do not
/// need it). Tag names are the caller's own (letters, digits, `_`).
pub fn write<G: Notation>(tags: &[(String, String)], history: &History<G>, text: Movetext) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        debug_assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'), "tag name {name:?}");
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    if let Some(c) = text.before {
        tokens.push(comment(c));
    }
    let mut numbering = Numbering::new(history.start());
    for (i, &(pos, steps)) in history.turns().iter().enumerate() {
        let place = numbering.next(pos);
        let move_text = match steps {
            [m] if G::ONE_MOVE_TURNS => pos.record_move(*m),
            _ => pos.turn_text(steps),
        };
        // A number and its move stay on one line.
        if place.first_seat || i == 0 {
            tokens.push(format!("{place} {move_text}"));
        } else {
            tokens.push(move_text);
        }
        if let Some(Some(c)) = text.comments.get(i) {
            tokens.push(comment(c));
        }
    }
    if let Some(c) = text.after {
        tokens.push(comment(c));
    }
    tokens.push(text.result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
