//! The project's one PGN reader and writer (`catchess::game::pgn`) on the
//! records the project writes, over seeded random legal games of all four
//! games: match records (`tournament::record::write`) with comments,
//! clocks, faults that end a game (illegal move, crash, time forfeit), the
//! cats' passes after their fault, 10×10 turns of several steps, starts
//! from a FEN, unfinished games and player names that try to break out of
//! their tag. Each record reads back to the same moves, tags and comments,
//! `pgn check` accepts it, `--resume` reads its round and result, and a
//! file cut anywhere keeps exactly its complete records.

use catchess::game::pgn::record::{move_comment, termination_by, write, RecordTags};
use catchess::game::pgn::record::{Score, SearchNote};
use catchess::game::pgn::{self, Stop};
use catchess::game::{random_game, random_turn};
use catchess::tournament::check::{check_game, Ended};
use catchess::tournament::resume::{complete_prefix, reports};
use catchess::{Arbitration, CatChess, CatsChess10, Chess, History, Notation, Seat, Xiangqi};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

/// Names that try to end their tag, forge another or break a reader.
const NAMES: &[&str] = &[
    "catchess",
    "Mallory\n[Result \"1-0\"]",
    "a \"quoted\" \\ name\\",
    "Ünïcödé ♞ \u{202e}",
    "tab\tand\r\nlines",
    "]} {[",
    "plain",
];

/// A name as its tag holds it: the writer turns control characters into spaces.
fn as_written(name: &str) -> String {
    name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// Comments as a record may carry them after a turn.
fn random_comment(rng: &mut StdRng) -> Option<String> {
    Some(match rng.gen_range(0..6) {
        0 | 1 => return None,
        2 => {
            let score = if rng.gen_bool(0.2) {
                Score::Mate(rng.gen_range(-9..10))
            } else {
                Score::Cp(rng.gen_range(-900..900))
            };
            move_comment(
                &SearchNote { depth: Some(rng.gen_range(1..30)), score: Some(score) },
                Duration::from_millis(rng.gen_range(0..9000)),
            )
        }
        3 => pgn::clock_command(Duration::from_millis(rng.gen_range(0..400_000))),
        4 => "roll T@g4; +0.10/3 0.010s; bestmove \"é2é4\" {not} legal".to_string(),
        _ => "line one\nline two ; not a comment end".to_string(),
    })
}

/// A comment as the reader gives it back: braces left out, trimmed.
fn read_back(comment: &str) -> String {
    comment.replace(['{', '}'], "").trim().to_string()
}

/// One generated record: its text, its players as written, its history
/// and the comment the reader should find after each turn.
struct Generated<G: Notation> {
    text: String,
    players: Vec<String>,
    history: History<G>,
    comments: Vec<Option<String>>,
    winner: Option<Option<Seat>>,
}

/// A record of a random game of `G` for round `round`.
fn generate<G: Notation + Arbitration>(rng: &mut StdRng, round: usize) -> Generated<G> {
    let mut start = G::startpos();
    if rng.gen_bool(0.25) {
        let opening = random_game(G::startpos(), rng.gen_range(1..8), rng);
        if opening.outcome().is_none() && !opening.current().is_chance() {
            start = *opening.current();
        }
    }
    let mut history = random_game(start, rng.gen_range(0..100), rng);
    // A seat whose fault does not end the game (Cat Chess's cats) passes
    // from its fault on, as the arbiter plays it.
    let mut faults = Vec::new();
    let mut forfeited: Vec<usize> = Vec::new();
    let players: Vec<String> = G::SEATS.iter().map(|_| NAMES[rng.gen_range(0..NAMES.len())].to_string()).collect();
    let passing = (0..G::SEATS.len()).find(|&s| G::forfeit_winner(Seat::new(s)).is_none());
    if let Some(s) = passing.filter(|_| history.outcome().is_none() && rng.gen_bool(0.5)) {
        forfeited.push(s);
        let ply = history.turn_count();
        faults.push(format!("{} ({}) time forfeit at ply {ply}: its clock ran out", G::SEATS[s].name, players[s]));
        for _ in 0..rng.gen_range(1..60) {
            if history.outcome().is_some() {
                break;
            }
            let pos = *history.current();
            if forfeited.contains(&pos.to_move().index()) {
                history.push(pos.arbiter_pass().unwrap());
                continue;
            }
            let Some(steps) = random_turn(&pos, false, |_, _, _, n| rng.gen_range(0..n)) else { break };
            steps.into_iter().for_each(|m| history.push(m));
        }
    }
    let faulted = |seat: Seat| forfeited.contains(&seat.index());
    let (winner, termination) = match history.outcome() {
        Some(o) => (Some(G::winner_after_forfeits(o.winner, faulted)), o.reason.name().to_string()),
        None if rng.gen_bool(0.4) => (None, "unterminated".to_string()),
        None => {
            // The seat to move faults, and the game ends (or, for a seat
            // that would pass on, the game is simply left unfinished).
            let s = history.current().to_move();
            match G::forfeit_winner(s) {
                Some(w) => {
                    let kind = ["illegal move", "crash", "time forfeit"][rng.gen_range(0..3)];
                    let seat = G::SEATS[s.index()].name;
                    let ply = history.turn_count() + 1;
                    faults
                        .push(format!("{seat} ({}) {kind} at ply {ply}: bestmove \"é2é4\" {{x}}", players[s.index()]));
                    (Some(Some(w)), termination_by(kind, seat))
                }
                None => (None, "unterminated".to_string()),
            }
        }
    };
    let turns = history.turn_count();
    let mut comments: Vec<Option<String>> = (0..turns).map(|_| random_comment(rng)).collect();
    let before = rng.gen_bool(0.3).then(|| "opening: book.pgn game 3, 4 plies".to_string());
    let after = rng.gen_bool(0.3).then(|| "white (x) crash at ply 9: {gone}".to_string());
    let tags = RecordTags {
        event: "round \"trip\"\n".into(),
        date: "2025.01.02".into(),
        round: round.to_string(),
        players: players.clone(),
        winner: winner.flatten(),
        finished: winner.is_some(),
        points: vec![0.0; G::SEATS.len()],
        time_controls: (0..G::SEATS.len()).map(|i| if i == 0 { "10+0.1" } else { "60" }.to_string()).collect(),
        termination,
        faults,
    };
    let text = write(&tags, &history, &comments, before.as_deref(), after.as_deref());
    // The comment after the moves joins the last turn's.
    if let (Some(a), Some(last)) = (&after, comments.last_mut()) {
        *last = Some(match last.take() {
            Some(c) => format!("{} {}", read_back(&c), read_back(a)),
            None => a.clone(),
        });
    }
    Generated { text, players: players.iter().map(|p| as_written(p)).collect(), history, comments, winner }
}

fn round_trip<G: Notation + Arbitration>(seed: u64, games: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let generated: Vec<Generated<G>> = (1..=games).map(|r| generate::<G>(&mut rng, r)).collect();
    let text: String = generated.iter().map(|g| g.text.as_str()).collect();
    let read = pgn::read_all(&text, &pgn::result_words::<G>()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.len(), games);
    let mut names: Vec<String> = Vec::new();
    for (g, game) in generated.iter().zip(&read) {
        let record = &g.text;
        let back = pgn::replay::<G>(game, Stop::AtEnd).unwrap_or_else(|e| panic!("{e}\n{record}"));
        assert_eq!(back.moves(), g.history.moves(), "{record}");
        assert_eq!(back.start().to_fen(), g.history.start().to_fen(), "{record}");
        for (seat, player) in G::SEATS.iter().zip(&g.players) {
            let tag = catchess::game::pgn::record::capitalised(seat.name);
            assert_eq!(game.tag(&tag), Some(player.as_str()), "{record}");
        }
        assert_eq!(game.tag("Event"), Some("round \"trip\" "), "{record}");
        for (i, c) in g.comments.iter().enumerate() {
            assert_eq!(game.comment_after(i).map(String::from), c.as_deref().map(read_back), "turn {i}\n{record}");
        }
        let ended = check_game::<G>(game).unwrap_or_else(|e| panic!("pgn check: {e}\n{record}"));
        assert_eq!(ended == Ended::Finished, g.winner.is_some(), "{record}");
        names.extend(g.players.iter().filter(|p| !names.contains(p)).cloned().collect::<Vec<_>>());
    }
    // `--resume` and `--merge` read the finished games' rounds and results.
    let finished: Vec<&Generated<G>> = generated.iter().filter(|g| g.winner.is_some()).collect();
    let finished_text: String = finished.iter().map(|g| g.text.as_str()).collect();
    let reports = reports::<G>(&finished_text, &names, "x.pgn").unwrap();
    assert_eq!(reports.len(), finished.len());
    for (r, g) in reports.iter().zip(&finished) {
        assert_eq!(Some(r.winner), g.winner);
        assert_eq!(r.plies, g.history.turn_count());
    }
    // A file cut anywhere keeps exactly the records before the cut.
    assert_eq!(complete_prefix(&text), text.len());
    let ends: Vec<usize> = generated
        .iter()
        .scan(0, |end, g| {
            *end += g.text.len();
            Some(*end)
        })
        .collect();
    for _ in 0..20 {
        let mut cut = rng.gen_range(0..text.len());
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let kept = complete_prefix(&text[..cut]);
        let expected = ends.iter().copied().filter(|&e| e <= cut).max().unwrap_or(0);
        assert_eq!(kept, expected, "cut at {cut}");
    }
}

#[test]
fn chess_records_read_back() {
    round_trip::<Chess>(1, 40);
}

#[test]
fn cat_chess_records_with_passes_read_back() {
    round_trip::<CatChess>(2, 40);
}

#[test]
fn xiangqi_records_read_back() {
    round_trip::<Xiangqi>(3, 30);
}

#[test]
fn catschess10_records_of_several_steps_a_turn_read_back() {
    round_trip::<CatsChess10>(4, 20);
}

/// `catchess pgn stats` on a small generated record: a chess game that
/// `a` lost as white after scoring itself +1.20, its score below -1.5 at
/// move 2; each move took 0.5 s of a 10+0.1 clock.
#[test]
fn pgn_stats_reads_a_generated_record() {
    let mut h = History::new(Chess::startpos());
    "f2f3 e7e5 g2g4 d8h4".split(' ').for_each(|m| h.push_text(m).unwrap());
    let comments: Vec<Option<String>> = [120, -30, -200, 900]
        .iter()
        .map(|&cp| {
            Some(move_comment(&SearchNote { depth: Some(9), score: Some(Score::Cp(cp)) }, Duration::from_millis(500)))
        })
        .collect();
    let tags = RecordTags {
        event: "stats".into(),
        date: "2025.01.02".into(),
        round: "1".into(),
        players: vec!["a".into(), "b".into()],
        winner: Some(Seat::new(1)),
        finished: true,
        points: vec![0.0, 1.0],
        time_controls: vec!["10+0.1".into(); 2],
        termination: "checkmate".into(),
        faults: vec![],
    };
    let path = std::env::temp_dir().join(format!("catchess-pgn-stats-{}.pgn", std::process::id()));
    std::fs::write(&path, write(&tags, &h, &comments, None, None)).unwrap();
    let run = |engine: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_catchess"))
            .args(["pgn", "stats", path.to_str().unwrap(), "--engine", engine])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, out, err) = run("a");
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "a as white: 1 games, clock used 1.0 s of 10.2 s a game (10 %), clock left median 9.20 s, 0 time forfeits"
        ),
        "{out}"
    );
    assert!(out.contains("a's losses as white: 1 losses, 1 from its own score of +1.0 or better; its score first below -1.5 before move 20: 1,"), "{out}");
    let (ok, _, err) = run("nobody");
    assert!(!ok && err.contains("\"nobody\" plays no game of the 1 read (players: a, b)"), "{err}");
    std::fs::remove_file(&path).unwrap();
}
