//! PGN text as tokens: tag pairs, comments, variation brackets, NAGs and
//! words (moves, move numbers, results), each with the line it starts on
//! and its bytes.
//!
//! Every delimiter of PGN is ASCII, and the lexer cuts the text only at
//! ASCII bytes (or its end), so no slice falls inside a character whatever
//! the text holds; it looks at each byte once, and keeps no state beyond
//! its position.

use super::reader::PgnError;
use super::MAX_WORD_BYTES;
use std::ops::Range;

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `[Name "value"]`, the value's escapes undone.
    Tag { name: &'a str, value: String },
    /// The text of a `{...}` comment, or of a `;` comment to the line's end.
    Comment(&'a str),
    /// `(`: a variation begins.
    Open,
    /// `)`: a variation ends.
    Close,
    /// `$12`.
    Nag,
    /// Anything else up to a blank or a delimiter: a move, a move number
    /// (`12.`, `12...`, `12.e4`), a result.
    Word(&'a str),
}

/// A token, the line it starts on (from 1) and its bytes in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Lexeme<'a> {
    pub token: Token<'a>,
    pub line: usize,
    pub bytes: Range<usize>,
}

/// The tokens of a text; after an error, nothing more.
pub(super) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// Whether only blanks stand between the line's start and `pos` (a
    /// `%` there opens an escape line, which is skipped).
    line_start: bool,
    failed: bool,
}

/// The bytes that end a word.
fn ends_word(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';')
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Self {
        Lexer { text, pos: 0, line: 1, line_start: true, failed: false }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn error(&mut self, line: usize, what: impl Into<String>) -> Option<Result<Lexeme<'a>, PgnError>> {
        self.failed = true;
        Some(Err(PgnError { line, what: what.into() }))
    }

    /// The position of the next `stop` byte from `pos` (the text's end if
    /// none), counting the newlines passed.
    fn scan_to(&mut self, stop: u8) -> usize {
        let b = self.bytes();
        let mut i = self.pos;
        while i < b.len() && b[i] != stop {
            self.line += usize::from(b[i] == b'\n');
            i += 1;
        }
        i
    }

    fn skip_blanks(&mut self) {
        let b = self.bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            if b[self.pos] == b'\n' {
                self.line += 1;
                self.line_start = true;
            }
            self.pos += 1;
        }
    }

    /// Blanks within a tag pair, which stays on one line.
    fn skip_spaces(&mut self) {
        let b = self.bytes();
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t' | b'\r') {
            self.pos += 1;
        }
    }

    /// A tag pair from its `[` (at `pos`): a name, then a quoted string
    /// (`\"` and `\\` escape a quote and a backslash; another backslash is
    /// itself), or for older records a bare value up to the `]`.
    fn tag(&mut self, start: usize, line: usize) -> Option<Result<Lexeme<'a>, PgnError>> {
        let b = self.bytes();
        self.pos += 1;
        self.skip_spaces();
        let name_start = self.pos;
        while self.pos < b.len() && (b[self.pos].is_ascii_alphanumeric() || b[self.pos] == b'_') {
            self.pos += 1;
        }
        let name = &self.text[name_start..self.pos];
        if name.is_empty() || name.len() > MAX_WORD_BYTES {
            return self.error(line, "a tag without a name (a tag is [Name \"value\"])");
        }
        self.skip_spaces();
        let mut value = String::new();
        if b.get(self.pos) == Some(&b'"') {
            self.pos += 1;
            let mut piece = self.pos;
            loop {
                match b.get(self.pos) {
                    None | Some(b'\n') => {
                        return self.error(line, format!("the value of tag {name} is not closed by a quote"))
                    }
                    Some(b'"') => break,
                    Some(b'\\') if matches!(b.get(self.pos + 1), Some(b'"' | b'\\')) => {
                        value.push_str(&self.text[piece..self.pos]);
                        piece = self.pos + 1;
                        self.pos += 2;
                    }
                    Some(_) => self.pos += 1,
                }
            }
            value.push_str(&self.text[piece..self.pos]);
            self.pos += 1;
            self.skip_spaces();
        } else {
            let bare = self.pos;
            while self.pos < b.len() && !matches!(b[self.pos], b']' | b'\n') {
                self.pos += 1;
            }
            value.push_str(self.text[bare..self.pos].trim());
        }
        if b.get(self.pos) != Some(&b']') {
            return self.error(line, format!("tag {name} is not closed by ]"));
        }
        self.pos += 1;
        Some(Ok(Lexeme { token: Token::Tag { name, value }, line, bytes: start..self.pos }))
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Lexeme<'a>, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            self.skip_blanks();
            let b = self.bytes();
            let &c = b.get(self.pos)?;
            let (start, line) = (self.pos, self.line);
            if c == b'%' && self.line_start {
                self.pos = self.scan_to(b'\n');
                continue;
            }
            self.line_start = false;
            let lexeme = |token, end| Some(Ok(Lexeme { token, line, bytes: start..end }));
            return match c {
                b'[' => self.tag(start, line),
                b'{' => {
                    self.pos += 1;
                    let end = self.scan_to(b'}');
                    if end == b.len() {
                        return self.error(line, "a comment { is not closed by }");
                    }
                    self.pos = end + 1;
                    lexeme(Token::Comment(&self.text[start + 1..end]), self.pos)
                }
                b';' => {
                    let end = b[start..].iter().position(|&x| x == b'\n').map_or(b.len(), |i| start + i);
                    self.pos = end;
                    lexeme(Token::Comment(&self.text[start + 1..end]), end)
                }
                b'(' => {
                    self.pos += 1;
                    lexeme(Token::Open, self.pos)
                }
                b')' => {
                    self.pos += 1;
                    lexeme(Token::Close, self.pos)
                }
                b'}' | b']' => self.error(line, format!("{:?} closes nothing", c as char)),
                _ => {
                    let end = b[start..].iter().position(|&x| ends_word(x)).map_or(b.len(), |i| start + i);
                    self.pos = end;
                    if end - start > MAX_WORD_BYTES {
                        return self.error(line, format!("a word of more than {MAX_WORD_BYTES} bytes"));
                    }
                    let word = &self.text[start..end];
                    if c == b'$' {
                        return lexeme(Token::Nag, end);
                    }
                    lexeme(Token::Word(word), end)
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Result<Vec<Token<'_>>, PgnError> {
        Lexer::new(text).map(|l| l.map(|l| l.token)).collect()
    }

    #[test]
    fn tags_comments_variations_and_words() {
        let text = "[Event \"a \\\"b\\\" \\\\ c\"]\n% escape\n  % escape too\n1. e4 {a\nb} (1. d4) $1 e5 ; rest\n*";
        let t = tokens(text).unwrap();
        assert_eq!(
            t,
            [
                Token::Tag { name: "Event", value: "a \"b\" \\ c".into() },
                Token::Word("1."),
                Token::Word("e4"),
                Token::Comment("a\nb"),
                Token::Open,
                Token::Word("1."),
                Token::Word("d4"),
                Token::Close,
                Token::Nag,
                Token::Word("e5"),
                Token::Comment(" rest"),
                Token::Word("*"),
            ]
        );
        let lines: Vec<usize> = Lexer::new(text).map(|l| l.unwrap().line).collect();
        assert_eq!(lines, [1, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6]);
        // A bare value (older records), a `]` inside a quoted value.
        assert_eq!(tokens("[Round 3]").unwrap(), [Token::Tag { name: "Round", value: "3".into() }]);
        assert_eq!(tokens("[E \"a]b\"]").unwrap(), [Token::Tag { name: "E", value: "a]b".into() }]);
    }

    #[test]
    fn broken_text_is_an_error_with_its_line() {
        let err = |text: &str| tokens(text).unwrap_err().to_string();
        assert_eq!(err("\n\n[Event \"open\n\"]"), "line 3: the value of tag Event is not closed by a quote");
        assert_eq!(err("[Event \"x\""), "line 1: tag Event is not closed by ]");
        assert_eq!(err("[\"x\"]"), "line 1: a tag without a name (a tag is [Name \"value\"])");
        assert_eq!(err("1. e4\n{ never closed"), "line 2: a comment { is not closed by }");
        assert_eq!(err("e4 }"), "line 1: '}' closes nothing");
        assert!(err(&"x".repeat(MAX_WORD_BYTES + 1)).contains("a word of more than"));
    }

    #[test]
    fn words_are_cut_at_ascii_delimiters_only() {
        // Multi-byte characters stay whole, inside words and comments.
        assert_eq!(
            tokens("é2é4{ü}\u{202e}e4").unwrap(),
            [Token::Word("é2é4"), Token::Comment("ü"), Token::Word("\u{202e}e4")]
        );
    }
}
