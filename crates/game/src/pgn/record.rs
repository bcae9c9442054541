//! Game records in PGN form, standard in every game: `Result` is `1-0`
//! (the first seat won: white, red), `0-1` (the second: black),
//! `1/2-1/2` (neither) or `*` (unfinished); SAN for chess (what
//! `Game::record_move` writes). A game whose result says less than who
//! won (Cat Chess: a cats' win is `1/2-1/2` for white and black) adds a
//! `Winner` tag naming the winning seat (`white`, `black`, `cats`, or
//! `draw` after a cats fault), a `Points` tag, its `Variant`, the start
//! `FEN`, and moves in UCI form with move numbers.
//!
//! Older records of such games had the winner itself as their result
//! (`Result "cats"`); every reader takes both ([`winner_of_result`]).

use crate::pgn::{self, Movetext};
use crate::{Game, History, Notation, Seat};
use std::time::Duration;

/// Whether `G`'s results say who won (two seats, draws reward nobody):
/// then a record needs no `Winner` tag.
pub fn standard_results<G: Game>() -> bool {
    G::SEATS.len() == 2 && G::draw_winner().is_none()
}

/// The `Result` value of a game won by `winner` (`None`: a draw): `1-0`
/// for the first seat, `0-1` for the second, `1/2-1/2` for a draw or a
/// win of another seat (Cat Chess's cats), which the `Winner` tag names.
pub fn result_text<G: Game>(winner: Option<Seat>) -> &'static str {
    match winner.map(Seat::index) {
        Some(0) => "1-0",
        Some(1) => "0-1",
        _ => "1/2-1/2",
    }
}

/// The `Winner` tag of a game won by `winner`, in games whose result does
/// not say it (see [`standard_results`]): the seat's name, or `draw`.
pub fn winner_tag<G: Game>(winner: Option<Seat>) -> Option<&'static str> {
    (!standard_results::<G>()).then(|| crate::winner_name::<G>(winner))
}

/// A result as the arbiter's lines show it: `1-0`, or with the winner
/// where the result does not say it (`1/2-1/2 cats`).
pub fn result_line<G: Game>(winner: Option<Seat>) -> String {
    match winner_tag::<G>(winner) {
        Some(name) => format!("{} {name}", result_text::<G>(winner)),
        None => result_text::<G>(winner).to_string(),
    }
}

/// The winner a record's `Result` (and `Winner` tag, if any) names
/// (`None` inside: a draw), or `None` if they are not a finished game of
/// `G`'s (`*`, something else, or a `Winner` the result contradicts).
/// Reads the older records of games with a `Winner` tag too, whose
/// result was the winner's name (`cats`, `draw`). Without a `Winner`
/// tag, `1/2-1/2` is a draw by the rules, which rewards
/// `Game::draw_winner` (Cat Chess's cats).
pub fn winner_of_result<G: Game>(result: &str, winner: Option<&str>) -> Option<Option<Seat>> {
    let outcomes = || (0..G::SEATS.len()).map(|i| Some(Seat::new(i))).chain([None]);
    let named = |name: &str| outcomes().find(|&w| crate::winner_name::<G>(w) == name);
    match winner {
        Some(name) => named(name).filter(|&w| result_text::<G>(w) == result),
        None if standard_results::<G>() => outcomes().find(|&w| result_text::<G>(w) == result),
        None if result == "1/2-1/2" => Some(G::draw_winner()),
        None => outcomes().find(|&w| result_text::<G>(w) == result).or_else(|| named(result)),
    }
}

/// Today's date as PGN writes it (`2025.01.31`), in UTC (the `time`
/// crate's calendar).
pub fn today() -> String {
    pgn_date(time::OffsetDateTime::now_utc().date())
}

fn pgn_date(date: time::Date) -> String {
    format!("{:04}.{:02}.{:02}", date.year(), u8::from(date.month()), date.day())
}

/// `white` as `White`: a seat's name as a PGN tag.
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `+0.35/12 0.051s`, cutechess style, from the mover's point of view.
pub fn move_comment(note: &SearchNote, elapsed: Duration) -> String {
    let mut parts = Vec::new();
    let score = match note.score {
        Some(Score::Cp(cp)) => Some(format!("{:+.2}", cp as f64 / 100.0)),
        Some(Score::Mate(n)) => Some(format!("{}M{}", if n < 0 { "-" } else { "+" }, n.abs())),
        None => None,
    };
    match (score, note.depth) {
        (Some(s), Some(d)) => parts.push(format!("{s}/{d}")),
        (Some(s), None) => parts.push(s),
        (None, Some(d)) => parts.push(format!("depth {d}")),
        (None, None) => {}
    }
    parts.push(format!("{:.3}s", elapsed.as_secs_f64()));
    parts.join(" ")
}

/// What a turn's comment says in [`move_comment`]'s words: the mover's
/// last score and depth, and the time its answers took (a turn of several
/// answers, a 10×10 turn's, has them joined by `; `; other words, a
/// fault's or an opening's, are left out). `None` for what it does not say.
pub fn read_move_comment(text: &str) -> (SearchNote, Option<Duration>) {
    let mut note = SearchNote::default();
    let mut elapsed: Option<Duration> = None;
    for part in text.split("; ") {
        let words: Vec<&str> = part.split_whitespace().collect();
        let time = |w: &str| w.strip_suffix('s')?.parse::<f64>().ok().and_then(|t| Duration::try_from_secs_f64(t).ok());
        let (time, rest) = match words.split_last() {
            Some((last, rest)) if time(last).is_some() => (time(last), rest),
            _ => (None, &words[..]),
        };
        let (score, depth) = match rest {
            ["depth", d] => (None, d.parse().ok()),
            [s] => match s.split_once('/') {
                Some((s, d)) => read_score(s).map_or((None, None), |s| (Some(s), d.parse().ok())),
                None => (read_score(s), None),
            },
            _ => (None, None),
        };
        if score.is_some() || depth.is_some() {
            note = SearchNote { depth, score };
        }
        if let Some(t) = time {
            elapsed = Some(elapsed.unwrap_or_default() + t);
        }
    }
    (note, elapsed)
}

/// `+0.35` (pawns, as centipawns), `-M3`.
fn read_score(text: &str) -> Option<Score> {
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let value = &text[1..];
    match value.strip_prefix('M') {
        Some(n) => n.parse::<i64>().ok().map(|n| Score::Mate(sign * n)),
        None if value.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            let pawns = value.parse::<f64>().ok().filter(|p| p.is_finite() && *p < 1e12)?;
            Some(Score::Cp(sign * (pawns * 100.0).round() as i64))
        }
        None => None,
    }
}

/// How a record words a seat's fault or forfeit that ended the game, in
/// `TerminationDetails`: `time forfeit by white`, `crash by black`,
/// `resignation by red`. [`standard_termination`] and `pgn check` read
/// these words back.
pub fn termination_by(what: &str, seat: &str) -> String {
    format!("{what} by {seat}")
}

/// A seat's resignation (the page's Resign): `resignation by white` in
/// `TerminationDetails`, a `normal` end in PGN's words.
pub const RESIGNATION: &str = "resignation";

/// Whether a record's `TerminationDetails` says a seat resigned.
pub fn is_resignation(details: &str) -> bool {
    details.strip_prefix(RESIGNATION).is_some_and(|rest| rest.starts_with(" by "))
}

/// Whether a record's `TerminationDetails` says the seats agreed to a
/// draw (the page's draw offer): a `normal` end in PGN's words.
pub fn is_agreement(details: &str) -> bool {
    details == crate::Reason::AGREEMENT.name()
}

/// The PGN standard's `Termination` value for how a game ended (our own
/// words go to `TerminationDetails`): `normal` for an end by the rules,
/// `adjudication`, `time forfeit`, `rules infraction` for an illegal move,
/// `abandoned` for an engine that crashed, hung or wrote a line too long,
/// `unterminated` for a game that goes on.
pub fn standard_termination(detail: &str) -> &'static str {
    let by = |kind: &str| detail.starts_with(&termination_by(kind, ""));
    if detail == "unterminated" {
        "unterminated"
    } else if detail.starts_with("adjudication") {
        "adjudication"
    } else if by("time forfeit") {
        "time forfeit"
    } else if by("illegal move") {
        "rules infraction"
    } else if by("crash") || by("hang") || by("line too long") {
        "abandoned"
    } else {
        "normal"
    }
}

/// Everything a record holds besides the moves.
pub struct RecordTags {
    pub event: String,
    pub date: String,
    pub round: String,
    /// Engine name per seat, in seat order.
    pub players: Vec<String>,
    pub winner: Option<Seat>,
    /// Whether the game has ended; an unfinished game's result is `*`
    /// (and `winner` is left out).
    pub finished: bool,
    /// Points per seat.
    pub points: Vec<f64>,
    /// Time control per seat, as PGN writes it.
    pub time_controls: Vec<String>,
    pub termination: String,
    pub faults: Vec<String>,
}

fn points_text(p: f64) -> String {
    if p == 0.5 {
        "1/2".to_string()
    } else {
        format!("{p}")
    }
}

/// Writes one game: its tags, then the turns of `history` from its start
/// with `comments[i]` (if any) after turn i, `before` ahead of the first
/// turn and `after` after the last (`game::pgn::write`). `PlyCount` counts
/// turns.
pub fn write<G: Notation>(
    tags: &RecordTags,
    history: &History<G>,
    comments: &[Option<String>],
    before: Option<&str>,
    after: Option<&str>,
) -> String {
    let seats = G::SEATS;
    let standard = standard_results::<G>();
    let result = if tags.finished { result_text::<G>(tags.winner) } else { "*" };
    let start_fen = history.start().to_fen();
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut tag = |name: &str, value: &str| pairs.push((name.to_string(), value.to_string()));
    tag("Event", &tags.event);
    tag("Site", "?");
    tag("Date", &tags.date);
    tag("Round", &tags.round);
    let seat_tags: Vec<String> = seats.iter().map(|s| capitalised(s.name)).collect();
    let clock_tags: Vec<String> = seat_tags.iter().map(|s| format!("{s}TimeControl")).collect();
    for (name, player) in seat_tags.iter().zip(&tags.players) {
        tag(name, player);
    }
    tag("Result", result);
    if let Some(winner) = winner_tag::<G>(tags.winner).filter(|_| tags.finished) {
        tag("Winner", winner);
    }
    if G::VARIANT != "chess" {
        tag("Variant", G::VARIANT);
    }
    if !standard || start_fen != G::startpos().to_fen() {
        tag("FEN", &start_fen);
        tag("SetUp", "1");
    }
    if tags.time_controls.iter().all(|tc| *tc == tags.time_controls[0]) {
        tag("TimeControl", &tags.time_controls[0]);
    } else {
        for (name, tc) in clock_tags.iter().zip(&tags.time_controls) {
            tag(name, tc);
        }
    }
    tag("Termination", standard_termination(&tags.termination));
    tag("TerminationDetails", &tags.termination);
    if !standard {
        let points: Vec<String> =
            seats.iter().zip(&tags.points).map(|(s, p)| format!("{} {}", s.name, points_text(*p))).collect();
        tag("Points", &points.join(", "));
    }
    if !tags.faults.is_empty() {
        tag("Faults", &tags.faults.join("; "));
    }
    tag("PlyCount", &history.turn_count().to_string());
    pgn::write(&pairs, history, Movetext { comments, before, after, result })
}

/// The seat a name means: the name the game gives it (`red`), or the
/// letter of its clock in the protocol (`w` for `wtime`).
pub fn seat_of<G: Game>(name: &str) -> Option<usize> {
    G::SEATS.iter().position(|s| {
        name.eq_ignore_ascii_case(s.name) || (name.len() == 1 && name.eq_ignore_ascii_case(&s.clock.to_string()))
    })
}

/// The last search report before `bestmove`, for the record's comments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchNote {
    pub depth: Option<u32>,
    /// Centipawns or mate distance (moves), from the mover's side.
    pub score: Option<Score>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

impl SearchNote {
    pub fn read_info(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            match (*w, next) {
                ("depth", Some(d)) => self.depth = Some(d.clamp(0, u32::MAX as i64) as u32),
                ("cp", Some(v)) if i > 0 && words[i - 1] == "score" => self.score = Some(Score::Cp(v)),
                ("mate", Some(v)) if i > 0 && words[i - 1] == "score" => self.score = Some(Score::Mate(v)),
                _ => {}
            }
        }
    }
}

/// What an engine did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// `bestmove` with a move that is malformed or not legal (or `(none)`).
    IllegalMove,
    /// The clock (or the fixed move time) ran out before `bestmove`.
    TimeForfeit,
    /// The process exited or closed its pipes, or could not be started.
    Crash,
    /// No `uciok`, `readyok`, or (under a depth or node limit) `bestmove`
    /// within the match's timeout.
    Hang,
    /// A line longer than the arbiter keeps (`engine::MAX_LINE`).
    LineTooLong,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] =
        [FaultKind::IllegalMove, FaultKind::TimeForfeit, FaultKind::Crash, FaultKind::Hang, FaultKind::LineTooLong];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalMove => "illegal move",
            FaultKind::TimeForfeit => "time forfeit",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::LineTooLong => "line too long",
        }
    }
}

/// A clock's PGN `TimeControl` value: `base+inc` in seconds, or `base`
/// without an increment (`300+2`, `60`, `0.5+0.01`).
pub fn clock_time_control(base: Duration, inc: Duration) -> String {
    if inc.is_zero() {
        seconds(base)
    } else {
        format!("{}+{}", seconds(base), seconds(inc))
    }
}

/// Seconds as PGN's `TimeControl` writes them: whole, or with up to three
/// decimals and no trailing zero.
pub fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", d.as_secs_f64());
        s.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resignation_is_read_back_from_its_words() {
        let details = termination_by(RESIGNATION, "white");
        assert_eq!(details, "resignation by white");
        assert!(is_resignation(&details) && is_resignation("resignation by cats"));
        assert!(!is_resignation("time forfeit by white") && !is_resignation("resignations"));
        assert_eq!(standard_termination(&details), "normal");
        assert_eq!(standard_termination(&termination_by("time forfeit", "black")), "time forfeit");
    }

    #[test]
    fn terminations_use_the_standard_s_values() {
        for (detail, standard) in [
            ("checkmate", "normal"),
            ("threefold repetition", "normal"),
            ("time forfeit by white", "time forfeit"),
            ("illegal move by black", "rules infraction"),
            ("crash by black", "abandoned"),
            ("hang by white", "abandoned"),
            ("line too long by red", "abandoned"),
            ("adjudication: move limit (3 moves)", "adjudication"),
            ("unterminated", "unterminated"),
        ] {
            assert_eq!(standard_termination(detail), standard, "{detail}");
        }
    }

    #[test]
    fn dates() {
        let day = |days: i64| pgn_date(time::OffsetDateTime::UNIX_EPOCH.date() + time::Duration::days(days));
        assert_eq!(day(0), "1970.01.01");
        assert_eq!(day(19_723), "2024.01.01");
        assert_eq!(day(19_782), "2024.02.29");
        let now = today();
        assert!(now.len() == 10 && now.as_bytes()[4] == b'.' && now.as_bytes()[7] == b'.', "{now}");
    }

    #[test]
    fn move_comments_read_back() {
        let note = |score, depth| SearchNote { score, depth };
        let ms = Duration::from_millis;
        for (n, t) in [
            (note(Some(Score::Cp(35)), Some(12)), ms(51)),
            (note(Some(Score::Cp(-302)), None), ms(4)),
            (note(Some(Score::Mate(-6)), Some(20)), ms(1200)),
            (note(None, Some(7)), ms(0)),
            (note(None, None), ms(10)),
        ] {
            let text = move_comment(&n, t);
            assert_eq!(read_move_comment(&text), (n, Some(t)), "{text}");
        }
        // A turn of two answers (10×10): the last score, the sum of the times.
        let (n, t) = read_move_comment("+0.10/3 0.010s; -0.20/4 0.030s");
        assert_eq!((n, t), (note(Some(Score::Cp(-20)), Some(4)), Some(ms(40))));
        assert_eq!(read_move_comment("+0.35/12").0.score, Some(Score::Cp(35)));
        for other in ["opening: 8 random plies", "", "cats (x) crash", "[%clk 0:01:00]", "+x/3", "-0.5e3", "+M"] {
            assert_eq!(read_move_comment(other), (SearchNote::default(), None), "{other}");
        }
    }

    #[test]
    fn search_notes_keep_the_last_depth_and_score() {
        let mut n = SearchNote::default();
        n.read_info("info depth 3 seldepth 5 nodes 100 score cp -12 pv e2e4");
        assert_eq!(n, SearchNote { depth: Some(3), score: Some(Score::Cp(-12)) });
        n.read_info("info depth 4 score mate 2 pv a1a8");
        assert_eq!(n, SearchNote { depth: Some(4), score: Some(Score::Mate(2)) });
        n.read_info("info string outlook white 8 black 7 cats 85");
        assert_eq!(n.depth, Some(4));
    }
}
