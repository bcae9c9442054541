//! PGN text as games: each game's tags, its main line's move tokens (move
//! numbers, NAGs, variations left out), the comments that follow them, and
//! its result. Untyped: the moves are text until a game's rules replay
//! them (`replay.rs`).

use super::lexer::{Lexeme, Lexer, Token};
use std::fmt;
use std::iter::Peekable;
use std::ops::Range;

/// Why a text is not PGN: what, and on which line (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub what: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for PgnError {}

/// One main-line move token of a game, as written (`Nf3+`, `e2e4`,
/// `T@g4,a2b2,a1a2,M@a1`, `0000`), without its move number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PgnMove {
    pub text: String,
    pub line: usize,
}

/// One game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in order, values unescaped.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// The main-line comments after a move: (its index in `moves`, the
    /// text; several comments after one move joined by a space).
    /// `catchess match` writes the mover's score and time there, the web
    /// app the seat's clock (`clock.rs`).
    pub comments: Vec<(usize, String)>,
    /// The main-line comments before the first move, joined by a space
    /// (the page's export of a game whose only turn is under way).
    pub before: Option<String>,
    /// The result token that ends the movetext, if any.
    pub result: Option<String>,
    /// The line the game starts on (from 1).
    pub line: usize,
    /// Its bytes in the text: from its first token to the end of its last
    /// (its result, when it has one).
    pub bytes: Range<usize>,
}

impl PgnGame {
    /// The value of tag `name` (PGN's tag names are case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The move tokens' texts.
    pub fn move_texts(&self) -> impl Iterator<Item = &str> {
        self.moves.iter().map(|m| m.text.as_str())
    }

    /// The comment after move `index`, if any.
    pub fn comment_after(&self, index: usize) -> Option<&str> {
        self.comments.iter().find(|(i, _)| *i == index).map(|(_, c)| c.as_str())
    }
}

/// PGN's own results.
const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*"];

/// The games of a PGN text, in order; after an error, nothing more.
pub struct Games<'a> {
    tokens: Peekable<Lexer<'a>>,
    /// Words that end a game as its result besides PGN's own: the older
    /// records of games whose results PGN cannot say named the winner
    /// (`cats`, `draw`); see `replay::result_words`.
    more_results: &'a [&'a str],
    failed: bool,
}

/// The games of `text`, whose results are PGN's own or one of
/// `more_results`.
pub fn games<'a>(text: &'a str, more_results: &'a [&'a str]) -> Games<'a> {
    Games { tokens: Lexer::new(text).peekable(), more_results, failed: false }
}

/// Every game of `text`, or the first error.
pub fn read_all(text: &str, more_results: &[&str]) -> Result<Vec<PgnGame>, PgnError> {
    games(text, more_results).collect()
}

/// `12.`, `12...`, `12.e4` → the move after the number (`""`, `""`,
/// `e4`); a word without a number as it is. A word of dots alone (`...`)
/// is nothing.
fn without_number(word: &str) -> &str {
    let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.starts_with('.') {
        digits.trim_start_matches('.')
    } else {
        word
    }
}

impl Games<'_> {
    fn fail(&mut self, line: usize, what: impl Into<String>) -> Option<Result<PgnGame, PgnError>> {
        self.failed = true;
        Some(Err(PgnError { line, what: what.into() }))
    }

    fn is_result(&self, word: &str) -> bool {
        RESULTS.contains(&word) || self.more_results.contains(&word)
    }
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let mut game = PgnGame::default();
        let mut started = false;
        let mut in_moves = false;
        // The lines of the open variations' brackets (innermost last):
        // a depth count, so any nesting costs no stack.
        let mut open: Vec<usize> = Vec::new();
        while let Some(next) = self.tokens.peek() {
            let Lexeme { token, line, bytes } = match next {
                Ok(l) => l.clone(),
                Err(e) => {
                    let e = e.clone();
                    self.failed = true;
                    return Some(Err(e));
                }
            };
            // Tags after moves open the next game.
            if matches!(token, Token::Tag { .. }) && in_moves && open.is_empty() {
                break;
            }
            self.tokens.next();
            if !started {
                started = true;
                game.line = line;
                game.bytes = bytes.start..bytes.start;
            }
            game.bytes.end = bytes.end;
            match token {
                Token::Tag { name, value } => {
                    if let Some(&at) = open.last() {
                        return self.fail(line, format!("the variation opened on line {at} is not closed"));
                    }
                    game.tags.push((name.to_string(), value));
                }
                Token::Comment(text) => {
                    // A main-line comment after a move belongs to that move.
                    match (open.is_empty(), game.moves.len().checked_sub(1)) {
                        (false, _) => {}
                        (true, Some(last)) => match game.comments.last_mut() {
                            Some((i, c)) if *i == last => {
                                c.push(' ');
                                c.push_str(text.trim());
                            }
                            _ => game.comments.push((last, text.trim().to_string())),
                        },
                        (true, None) => match &mut game.before {
                            Some(c) => {
                                c.push(' ');
                                c.push_str(text.trim());
                            }
                            None => game.before = Some(text.trim().to_string()),
                        },
                    }
                }
                Token::Open => open.push(line),
                Token::Close => {
                    if open.pop().is_none() {
                        return self.fail(line, "')' closes no variation");
                    }
                }
                Token::Nag => {}
                Token::Word(_) if !open.is_empty() => {}
                Token::Word(word) => {
                    in_moves = true;
                    if self.is_result(word) {
                        game.result = Some(word.to_string());
                        return Some(Ok(game));
                    }
                    let text = without_number(word);
                    if !text.is_empty() {
                        game.moves.push(PgnMove { text: text.to_string(), line });
                    }
                }
            }
        }
        if let Some(&at) = open.last() {
            return self.fail(at, "this variation is not closed");
        }
        // Comments alone after the last game are no game.
        (in_moves || !game.tags.is_empty()).then_some(Ok(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str =
        "[Event \"a\"]\n[White \"x\"]\n\n1. e4 {best} e5 2. Nf3 (2. f4 exf4 (2... d5)) Nc6 $1 3. Bb5 a6\n\
        4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n\n% escaped\n[Event \"b\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n\
        1.a8=Q+ Kd7 ; rest\n2.Qb7+ *\n\n1. d4 d5 2. c4 *\n\n1... h5g4 2. e2e4 0000 cats\n";

    fn texts(g: &PgnGame) -> Vec<&str> {
        g.move_texts().collect()
    }

    #[test]
    fn games_are_split_with_their_tags_moves_results_and_lines() {
        let games = read_all(BOOK, &["cats"]).unwrap();
        assert_eq!(games.len(), 4);
        assert_eq!(texts(&games[0]), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]);
        assert_eq!((games[0].result.as_deref(), games[0].tag("White"), games[0].line), (Some("1/2-1/2"), Some("x"), 1));
        assert_eq!(games[0].tag("white"), None, "tag names are case-sensitive");
        assert_eq!((texts(&games[1]), games[1].line), (vec!["a8=Q+", "Kd7", "Qb7+"], 8));
        assert_eq!(texts(&games[2]), ["d4", "d5", "c4"]);
        assert_eq!((texts(&games[3]), games[3].result.as_deref()), (vec!["h5g4", "e2e4", "0000"], Some("cats")));
        assert_eq!(games[1].moves[2], PgnMove { text: "Qb7+".into(), line: 12 });
        // Without `cats` as a result the last game runs on to the end.
        let games = read_all(BOOK, &[]).unwrap();
        assert_eq!((texts(&games[3]).last().copied(), games[3].result.as_deref()), (Some("cats"), None));
        // Each game's bytes, from its first token to its result.
        assert_eq!(&BOOK[games[2].bytes.clone()], "1. d4 d5 2. c4 *");
    }

    #[test]
    fn comments_after_main_line_moves_are_kept_with_their_move() {
        let text =
            "[Event \"a\"]\n\n{opening} 1. e4 {+0.30/9\n0.100s} e5 (1... c5 {not this}) 2. Nf3 {+0.25/8} {0.090s} 1-0\n";
        let games = read_all(text, &[]).unwrap();
        assert_eq!(texts(&games[0]), ["e4", "e5", "Nf3"]);
        assert_eq!(games[0].comments, [(0, "+0.30/9\n0.100s".to_string()), (2, "+0.25/8 0.090s".to_string())]);
        assert_eq!(games[0].comment_after(2), Some("+0.25/8 0.090s"));
    }

    #[test]
    fn unbalanced_variations_are_errors() {
        let err = |text: &str| read_all(text, &[]).unwrap_err().to_string();
        assert_eq!(err("1. e4 (1. d4 e5 *"), "line 1: this variation is not closed");
        assert_eq!(err("1. e4 e5 )\n*"), "line 1: ')' closes no variation");
        assert_eq!(err("1. e4 (1. d4\n[Event \"x\"]\n*"), "line 2: the variation opened on line 1 is not closed");
        // Deep nesting costs no stack.
        let deep = format!("1. e4 {} e5 *", "(".repeat(100_000) + &")".repeat(100_000));
        assert_eq!(texts(&read_all(&deep, &[]).unwrap()[0]), ["e4", "e5"]);
    }

    #[test]
    fn text_without_games_has_none() {
        assert!(read_all("", &[]).unwrap().is_empty());
        assert!(read_all("\n% only an escape\n{ and a comment }\n", &[]).unwrap().is_empty());
        assert_eq!(read_all("1. e4 *\n{trailing}", &[]).unwrap().len(), 1);
    }
}
