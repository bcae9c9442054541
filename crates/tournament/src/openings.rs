//! Where games start: positions from an EPD or FEN file or the moves of
//! PGN games, random plies played from there, reproducible from a seed,
//! and the opening line of each round of a match ([`RoundOpenings`]).

use catchess_core::files::read_bounded;
use catchess_game::pgn;
use catchess_game::{random_line, rng_for, Arbitration, Game, History, Notation};
use catchess_games::VariantKind;

/// A FEN from one line of an EPD or FEN file: a full FEN (six fields,
/// anything after ignored) or EPD (four fields, then `;`-separated
/// operations, of which `hmvc` and `fmvn` fill the clocks). `None` for a
/// blank or `#` comment line.
pub fn line_fen(line: &str) -> Option<String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    let is_number = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    if fields.len() >= 6 && is_number(4) && is_number(5) {
        return Some(fields[..6].join(" "));
    }
    let head = fields.iter().take(4).copied().collect::<Vec<_>>().join(" ");
    let ops = fields.get(4..).map(|rest| rest.join(" ")).unwrap_or_default();
    let op = |name: &str| {
        ops.split(';')
            .map(str::trim)
            .find_map(|o| o.strip_prefix(name).map(|v| v.trim().trim_end_matches(';').to_string()))
    };
    let hmvc = op("hmvc ").unwrap_or_else(|| "0".into());
    let fmvn = op("fmvn ").unwrap_or_else(|| "1".into());
    Some(format!("{head} {hmvc} {fmvn}"))
}

/// The largest opening file `--openings` reads.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

/// How `--openings` reads its book: `FILE`, or `file=FILE` with any of
/// `format=epd|pgn` (default: `pgn` for a `.pgn` file, else `epd`),
/// `order=sequential|random` (random: shuffled with the match's seed) and
/// `plies=N` (the first N plies of each PGN game; default all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    pub file: String,
    pub pgn: bool,
    pub random_order: bool,
    pub plies: Option<usize>,
}

impl BookSpec {
    pub fn parse(text: &str) -> Result<BookSpec, String> {
        let words = super::spec::shell_words(text)?;
        if !words.iter().any(|w| w.starts_with("file=")) {
            let pgn = text.to_ascii_lowercase().ends_with(".pgn");
            return Ok(BookSpec { file: text.to_string(), pgn, random_order: false, plies: None });
        }
        let (mut file, mut format, mut random_order, mut plies) = (None, None, false, None);
        for w in &words {
            let bad = || {
                format!(
                    "--openings {text:?}: expected file=, format=epd|pgn, order=sequential|random, plies=N; got {w:?}"
                )
            };
            let (k, v) = w.split_once('=').ok_or_else(bad)?;
            match (k, v) {
                ("file", _) if !v.is_empty() => file = Some(v.to_string()),
                ("format", "epd" | "fen") => format = Some(false),
                ("format", "pgn") => format = Some(true),
                ("order", "sequential") => random_order = false,
                ("order", "random") => random_order = true,
                ("plies", _) => plies = Some(v.parse::<usize>().ok().filter(|&n| n <= 10_000).ok_or_else(bad)?),
                _ => return Err(bad()),
            }
        }
        let file = file.ok_or_else(|| format!("--openings {text:?}: no file="))?;
        let pgn = format.unwrap_or_else(|| file.to_ascii_lowercase().ends_with(".pgn"));
        Ok(BookSpec { file, pgn, random_order, plies })
    }
}

/// One opening: where the game starts and the moves already played.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    /// `book.pgn game 3`, `book.epd line 7`.
    pub source: String,
}

/// The openings of a book, in the order the match plays them.
pub fn load_book<G: Notation + Arbitration>(spec: &BookSpec, seed: u64) -> Result<Vec<Opening<G>>, String> {
    let path = &spec.file;
    let text = read_bounded(path, MAX_BOOK_BYTES).map_err(|e| format!("cannot read openings {path}: {e}"))?;
    let mut book = if spec.pgn { read_pgn::<G>(&text, spec.plies, path)? } else { read_epd::<G>(&text, path)? };
    if book.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    if spec.random_order {
        use rand::seq::SliceRandom;
        book.shuffle(&mut rng_for(seed, u64::MAX));
    }
    Ok(book)
}

/// The opening of every round of a match: book line r (cycling), then
/// `random_plies` random plies drawn from the seed and r, shared by the
/// round's games. The first pass through the book is drawn at once (an
/// opening that cannot be played is a configuration error); later rounds
/// as they come.
pub struct RoundOpenings<G: Game> {
    book: Vec<Opening<G>>,
    random_plies: usize,
    seed: u64,
    /// The lines of the first rounds, drawn up front.
    first: Vec<(Vec<G::Move>, Option<String>)>,
    startpos_fen: String,
}

impl<G: Notation + Arbitration> RoundOpenings<G> {
    /// From `--openings` (the start position alone without one).
    pub fn new(book: Option<&str>, random_plies: usize, seed: u64, rounds: usize) -> Result<Self, String> {
        let book = match book {
            Some(text) => load_book::<G>(&BookSpec::parse(text)?, seed)?,
            None => vec![Opening { start: G::startpos(), moves: Vec::new(), source: String::new() }],
        };
        let mut openings =
            RoundOpenings { book, random_plies, seed, first: Vec::new(), startpos_fen: G::startpos().to_fen() };
        openings.first = (0..rounds.min(openings.book.len())).map(|r| openings.draw(r)).collect::<Result<_, _>>()?;
        Ok(openings)
    }

    fn opening(&self, round: usize) -> &Opening<G> {
        &self.book[round % self.book.len()]
    }

    /// Round `round`'s moves and the note its records carry.
    fn draw(&self, round: usize) -> Result<(Vec<G::Move>, Option<String>), String> {
        let o = self.opening(round);
        let mut h = History::new(o.start);
        o.moves.iter().for_each(|&m| h.push(m));
        let book_turns = h.turn_count();
        let extra = random_line(h.current(), self.random_plies, &mut rng_for(self.seed, round as u64))?;
        // Plies are turns, however many steps each took.
        let mut notes = Vec::new();
        if !o.moves.is_empty() {
            notes.push(format!("opening: {}, {book_turns} plies", o.source));
        }
        if !extra.is_empty() {
            notes.push(format!("opening: {} random plies", self.random_plies));
        }
        let moves = o.moves.iter().chain(&extra).copied().collect();
        Ok((moves, (!notes.is_empty()).then(|| notes.join("; "))))
    }

    /// Where round `round` starts, whether that is the game's start
    /// position, its moves and its note. A later round whose random plies
    /// cannot be drawn plays the book line alone, the note saying why.
    pub fn line(&self, round: usize) -> (G, bool, Vec<G::Move>, Option<String>) {
        let o = self.opening(round);
        let (moves, note) = match self.first.get(round).cloned().map_or_else(|| self.draw(round), Ok) {
            Ok(line) => line,
            Err(e) => (o.moves.clone(), Some(e)),
        };
        (o.start, o.start.to_fen() == self.startpos_fen, moves, note)
    }
}

/// Every position in an EPD or FEN file, checked with the game's FEN parser.
pub fn read_epd<G: Notation + Arbitration>(text: &str, path: &str) -> Result<Vec<Opening<G>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(fen) = line_fen(line) {
            let start = G::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            out.push(Opening { start, moves: Vec::new(), source: format!("{path} line {}", i + 1) });
        }
    }
    Ok(out)
}

/// The games of a PGN book as openings: the first `plies` turns of each
/// (all with `None`), read by the project's PGN reader (`game::pgn`).
pub fn read_pgn<G: Notation + Arbitration>(
    text: &str,
    plies: Option<usize>,
    path: &str,
) -> Result<Vec<Opening<G>>, String> {
    let words = pgn::result_words::<G>();
    let mut out = Vec::new();
    for (n, game) in pgn::games(text, &words).enumerate() {
        let game = game.map_err(|e| format!("{path}: {e}"))?;
        let at = format!("{path}: game {} (line {})", n + 1, game.line);
        if let Some(v) = game.tag("Variant") {
            if !VariantKind::of_record(Some(v), catchess_engine::defaults::PROTOCOL_GAME)
                .is_ok_and(|k| k.name() == G::VARIANT)
            {
                return Err(format!("{at}: a {v} game in a {} match", G::VARIANT));
            }
        }
        let stop = pgn::Stop::AfterTurns(plies.unwrap_or(usize::MAX));
        let h = pgn::replay::<G>(&game, stop).map_err(|e| format!("{at}: {e}"))?;
        if h.outcome().is_some() {
            return Err(format!("{at}: the game is over after the book moves"));
        }
        out.push(Opening { start: *h.start(), moves: h.moves().to_vec(), source: format!("{path} game {}", n + 1) });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use catchess_games::{CatChess, Chess};

    #[test]
    fn epd_and_fen_lines() {
        let book = read_epd::<Chess>("# c\n4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;\n", "e.epd").unwrap();
        assert_eq!((book.len(), book[0].source.as_str()), (1, "e.epd line 2"));
        assert_eq!(line_fen("  # comment"), None);
        assert_eq!(line_fen(""), None);
        assert_eq!(
            line_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ;D1 20").as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        );
        assert_eq!(
            line_fen("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"x\"; hmvc 7; fmvn 30;").as_deref(),
            Some("4k3/8/8/8/8/8/8/4K3 w - - 7 30")
        );
        assert_eq!(line_fen("4k3/8/8/8/8/8/8/4K3 w - -").as_deref(), Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    }

    const BOOK: &str =
        "[Event \"a\"]\n[White \"x\"]\n\n1. e4 {best} e5 2. Nf3 (2. f4 exf4 (2... d5)) Nc6 $1 3. Bb5 a6\n\
        4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n\n% escaped\n[Event \"b\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n\
        1.a8=Q+ Kd7 ; rest\n2.Qb7+ *\n\n1. d4 d5 2. c4 *\n\n1... h5g4 2. e2e4 0000 cats\n";

    #[test]
    fn pgn_books_are_read_with_san_and_cut_at_plies() {
        let book = read_pgn::<Chess>(&BOOK[..BOOK.find("\n1...").unwrap()], Some(4), "b.pgn").unwrap();
        let uci = |o: &Opening<Chess>| o.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(uci(&book[0]), "e2e4 e7e5 g1f3 b8c6");
        assert_eq!(uci(&book[1]), "a7a8q e8d7 a8b7");
        assert_eq!(book[1].start.to_fen(), "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!((uci(&book[2]).as_str(), book[2].source.as_str()), ("d2d4 d7d5 c2c4", "b.pgn game 3"));
        let all = read_pgn::<Chess>(&BOOK[..BOOK.find("\n1...").unwrap()], None, "b.pgn").unwrap();
        assert_eq!(all[0].moves.len(), 10);
        let err = read_pgn::<Chess>("1. e4 e5 2. Ke2 Ke7 3. Ke4 *", None, "x.pgn").unwrap_err();
        assert_eq!(err, "x.pgn: game 1 (line 1): move 3. Ke4: illegal move \"Ke4\"");
        let err = read_pgn::<CatChess>(BOOK, None, "b.pgn").unwrap_err();
        assert!(err.contains("game 1"), "{err}");
        // A Cat Chess book: the cats' pass and the older result word `cats`.
        let cats =
            read_pgn::<CatChess>("[Variant \"catchess\"]\n1. e2e4 e7e5 h5g4 2. g1f3 Nc6 0000 cats\n", None, "c.pgn");
        assert_eq!(cats.unwrap()[0].moves.last().map(|m| m.to_string()).as_deref(), Some("0000"));
        let err = read_pgn::<Chess>("1. e4 {open", None, "x.pgn").unwrap_err();
        assert_eq!(err, "x.pgn: line 1: a comment { is not closed by }");
    }

    #[test]
    fn book_specs_and_orders() {
        let s = BookSpec::parse("book.PGN").unwrap();
        assert!(s.pgn && !s.random_order && s.plies.is_none());
        let s = BookSpec::parse("file=b.txt format=pgn order=random plies=8").unwrap();
        assert_eq!(s, BookSpec { file: "b.txt".into(), pgn: true, random_order: true, plies: Some(8) });
        assert!(!BookSpec::parse("file=b.epd").unwrap().pgn);
        assert!(BookSpec::parse("file=b.pgn order=shuffled").unwrap_err().contains("order=sequential|random"));
        assert!(BookSpec::parse("format=pgn plies=2").is_ok_and(|s| s.file == "format=pgn plies=2"));
        let path = std::env::temp_dir().join(format!("catchess-book-order-{}.pgn", std::process::id()));
        let many: String =
            ["e4", "d4", "c4", "Nf3", "g3", "b3", "f4", "Nc3"].iter().map(|m| format!("1. {m} *\n")).collect();
        std::fs::write(&path, many).unwrap();
        let spec = |order: &str| BookSpec::parse(&format!("file={} order={order}", path.display())).unwrap();
        let first = |b: Vec<Opening<Chess>>| b.iter().map(|o| o.moves[0].to_string()).collect::<Vec<_>>();
        let seq = first(load_book(&spec("sequential"), 1).unwrap());
        assert_eq!(seq[..3], ["e2e4", "d2d4", "c2c4"]);
        let a = first(load_book(&spec("random"), 1).unwrap());
        assert_eq!(a, first(load_book(&spec("random"), 1).unwrap()), "the seed fixes the order");
        assert_ne!(a, seq);
        let mut sorted = a.clone();
        sorted.sort();
        let mut seq_sorted = seq.clone();
        seq_sorted.sort();
        assert_eq!(sorted, seq_sorted, "a permutation");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn random_lines_are_legal_reproducible_and_unfinished() {
        let a = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 0)).unwrap();
        let b = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 0)).unwrap();
        let c = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 1)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut h = History::new(CatChess::startpos());
        for m in &a {
            h.push_text(&m.to_string()).unwrap();
        }
        assert!(h.outcome().is_none());
        // Bare kings: every line ends at once (insufficient material).
        let bare = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(random_line(&bare, 0, &mut rng_for(1, 0)).is_ok());
        assert!(random_line(&bare, 2, &mut rng_for(1, 0)).is_err());
    }
}
