//! WXF move notation (World Xiangqi Federation): `C2.5`, `H8+7`, `R1-2`.
//!
//! A move is four characters, all relative to the mover:
//! 1. the piece: `K A E H R C P`;
//! 2. its file, numbered 1–9 from the mover's right (red's file 1 is file
//!    i, black's is file a);
//! 3. the direction: `+` forward, `-` backward, `.` sideways;
//! 4. for a move along a file (chariot, cannon, soldier, general) the
//!    number of points moved; otherwise the destination file.
//!
//! Two like pieces on one file (tandem) replace the file by `+` (the front
//! one) or `-` (the rear one): `R+.3`, `C--1`. Advisors and elephants keep
//! the file, since the direction alone tells them apart (`A6+5`). Tandem
//! soldiers follow the WXF special cases: three on a file are `P+`, `P`
//! and the file (the middle one, `P3.4`), `P-`; four are `++`, `P+`, `P-`,
//! `--`; five add the middle `P3`; and when two files each hold two or
//! more soldiers, the file replaces the `P`: `3+.4`, `33.4`, `3-.4`,
//! `7+.6`.
//!
//! Parsing also accepts `=` for `.`, the FEN letters `B` and `N` for `E`
//! and `H`, a tandem sign before the letter (`+R.3`, as some books write
//! it), and `+`/`-` for tandem advisors and elephants.

use super::moves::Move;
use super::position::Xiangqi;
use super::square::{masks, Role, Square, FILES};
use catchess_core::Color;
use catchess_game::{FenError, MoveError, MoveList, Notation};

/// The mover's number for a file: 1–9 from its own right.
fn file_number(color: Color, file: u8) -> char {
    let n = match color {
        Color::White => FILES - file,
        Color::Black => file + 1,
    };
    char::from(b'0' + n)
}

/// Moves straight along lines: the last character counts points.
fn is_linear(role: Role) -> bool {
    matches!(role, Role::General | Role::Chariot | Role::Cannon | Role::Soldier)
}

impl Xiangqi {
    /// The WXF name of the legal move `m` (any move of a piece of the side
    /// to move is named; a move from an empty point gives `"?"`).
    pub fn to_wxf(&self, m: Move) -> String {
        self.wxf_forms(m).0
    }

    /// The canonical form and, for tandem advisors and elephants, the
    /// `+`/`-` form that parsing also accepts.
    fn wxf_forms(&self, m: Move) -> (String, Option<String>) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else { return ("?".to_string(), None) };
        let (us, role) = (piece.color, piece.role);
        let file_no = file_number(us, from.file());
        let same_file = self.pieces(us, role) & masks::file(from.file());
        let ahead = same_file.iter::<Square>().filter(|s| s.relative_rank(us) > from.relative_rank(us)).count();
        let n = same_file.count() as usize;
        let sign = |front: bool| if front { '+' } else { '-' };

        let mut alt = None;
        let prefix: String = match role {
            Role::Soldier if n >= 2 => {
                let tandem_files =
                    (0..FILES).filter(|&f| (self.pieces(us, Role::Soldier) & masks::file(f)).count() >= 2).count();
                // The designator within the file, front to rear.
                let designator: &str = match (n, ahead) {
                    (2, 0) | (3, 0) | (4, 1) | (5, 1) => "+",
                    (2, _) | (3, 2) | (4, 2) | (5, 3) => "-",
                    (4, 0) | (5, 0) => "++",
                    (4, _) | (5, 4) => "--",
                    _ => "", // the middle one: its file
                };
                let designator = if designator.is_empty() { file_no.to_string() } else { designator.to_string() };
                if tandem_files >= 2 {
                    format!("{file_no}{designator}")
                } else if designator.len() == 2 {
                    designator
                } else {
                    format!("P{designator}")
                }
            }
            Role::Chariot | Role::Cannon | Role::Horse if n == 2 => {
                format!("{}{}", role.wxf_char(), sign(ahead == 0))
            }
            Role::Advisor | Role::Elephant if n == 2 => {
                alt = Some(format!("{}{}", role.wxf_char(), sign(ahead == 0)));
                format!("{}{file_no}", role.wxf_char())
            }
            _ => format!("{}{file_no}", role.wxf_char()),
        };
        let suffix = if from.rank() == to.rank() {
            format!(".{}", file_number(us, to.file()))
        } else {
            let dir = sign(to.relative_rank(us) > from.relative_rank(us));
            if is_linear(role) {
                format!("{dir}{}", from.rank().abs_diff(to.rank()))
            } else {
                format!("{dir}{}", file_number(us, to.file()))
            }
        };
        (format!("{prefix}{suffix}"), alt.map(|a| format!("{a}{suffix}")))
    }

    /// The legal move named `text` in WXF notation.
    pub fn parse_wxf(&self, text: &str) -> Result<Move, MoveError> {
        let normal = normalize_wxf(text).ok_or_else(|| MoveError::Unparsable(text.to_string()))?;
        let mut list = MoveList::default();
        self.legal_moves(&mut list);
        list.iter()
            .copied()
            .find(|&m| {
                let (canonical, alt) = self.wxf_forms(m);
                canonical == normal || alt.as_deref() == Some(normal.as_str())
            })
            .ok_or_else(|| MoveError::illegal(text))
    }
}

/// The canonical spelling of a WXF move, or `None` if `text` does not have
/// the shape of one.
fn normalize_wxf(text: &str) -> Option<String> {
    let mut c: Vec<char> = text.trim().chars().map(|c| c.to_ascii_uppercase()).collect();
    for ch in c.iter_mut() {
        *ch = match *ch {
            '=' => '.',
            'B' => 'E',
            'N' => 'H',
            other => other,
        };
    }
    let letter = |ch: char| "KAEHRCP".contains(ch);
    // `+R.3` → `R+.3`.
    if c.len() == 4 && matches!(c[0], '+' | '-') && letter(c[1]) {
        c.swap(0, 1);
    }
    if c.len() != 4 {
        return None;
    }
    let digit = |ch: char| ('1'..='9').contains(&ch);
    let shape = (letter(c[0]) || digit(c[0]) || matches!(c[0], '+' | '-'))
        && (digit(c[1]) || matches!(c[1], '+' | '-'))
        && matches!(c[2], '+' | '-' | '.')
        && digit(c[3]);
    shape.then(|| c.into_iter().collect())
}

/// Xiangqi written down: Fairy-Stockfish FEN and coordinates for the
/// protocol, WXF for records, the board picture for `d`.
impl Notation for Xiangqi {
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Xiangqi::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Xiangqi::to_fen(self)
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse(text).ok_or_else(|| MoveError::Unparsable(text.to_string()))?;
        match self.why_refused(m) {
            None => Ok(m),
            why => Err(MoveError::Illegal { text: text.to_string(), why }),
        }
    }
    fn is_well_formed_move(&self, text: &str) -> bool {
        Move::parse(text).is_some()
    }
    /// Game records write xiangqi moves in WXF notation (`C2.5`, `H8+7`).
    fn record_move(&self, m: Move) -> String {
        self.to_wxf(m)
    }
    fn render(&self) -> String {
        super::render::board(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizing() {
        assert_eq!(normalize_wxf("c2=5").as_deref(), Some("C2.5"));
        assert_eq!(normalize_wxf(" +R.3 ").as_deref(), Some("R+.3"));
        assert_eq!(normalize_wxf("N2+3").as_deref(), Some("H2+3"));
        assert_eq!(normalize_wxf("++.4").as_deref(), Some("++.4"));
        for bad in ["", "C2.", "C2.0", "X2.5", "C2*5", "C2.55", "C0.5", "é2.5"] {
            assert_eq!(normalize_wxf(bad), None, "{bad:?}");
        }
    }
}
