//! `catchess match`: short real tournaments between real engine processes —
//! the engine itself at depth 1, the random engine, and the random engine
//! told to misbehave (its `Faults` option: illegal moves, crashes, hangs,
//! time losses) — checked through their PGN records and final tables.

mod common;
use common::temp;

use std::collections::HashMap;
use std::process::Command;
use temp::temp;

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

/// One game record: tags and movetext.
#[derive(Debug)]
struct Record {
    tags: HashMap<String, String>,
    moves: String,
}

impl Record {
    fn tag(&self, name: &str) -> &str {
        self.tags.get(name).map(String::as_str).unwrap_or_else(|| panic!("no {name} tag in {self:?}"))
    }
}

fn records(pgn: &str) -> Vec<Record> {
    let mut out = Vec::new();
    for block in pgn.split("\n\n[Event ").filter(|b| !b.trim().is_empty()) {
        let block = if block.starts_with("[Event ") { block.to_string() } else { format!("[Event {block}") };
        let (head, moves) = block.split_once("\n\n").expect("tags, a blank line, moves");
        let tags = head
            .lines()
            .map(|l| {
                let l = l.trim_start_matches('[').trim_end_matches(']');
                let (k, v) = l.split_once(' ').unwrap();
                (k.to_string(), v.trim_matches('"').replace("\\\"", "\""))
            })
            .collect();
        out.push(Record { tags, moves: moves.trim().to_string() });
    }
    out
}

struct Run {
    ok: bool,
    table: String,
    progress: String,
    records: Vec<Record>,
    pgn: String,
}

/// Runs `catchess match` with `args` plus a PGN file of its own.
fn run_match(name: &str, args: &[String]) -> Run {
    let pgn_path = temp(&format!("{name}.pgn"));
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .args(["--pgn", pgn_path.to_str().unwrap()])
        .output()
        .expect("the binary runs");
    let pgn = std::fs::read_to_string(&pgn_path).unwrap_or_default();
    Run {
        ok: out.status.success(),
        table: String::from_utf8_lossy(&out.stdout).into_owned(),
        progress: String::from_utf8_lossy(&out.stderr).into_owned(),
        records: records(&pgn),
        pgn,
    }
}

fn engine(spec: &str) -> [String; 2] {
    ["--engine".to_string(), spec.replace("$BIN", BIN)]
}

fn args(engines: &[&str], rest: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = engines.iter().flat_map(|e| engine(e)).collect();
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

/// The table row of an engine: its whitespace-separated fields.
fn row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.get(1) == Some(&name))
        .unwrap_or_else(|| panic!("no row for {name} in\n{table}"))
}

fn seat_of(r: &Record, engine: &str) -> Vec<&'static str> {
    ["White", "Black", "Cats"].into_iter().filter(|s| r.tags.get(*s).map(String::as_str) == Some(engine)).collect()
}

#[test]
fn catchess_tournament_scores_a_crashing_hanging_cheating_engine_zero_and_goes_on() {
    // As white it plays an illegal move, as black it crashes, as the cats
    // it hangs. Concurrency 1: games run in order, so the crash in one game
    // and the illegal move in a later one show the engine was restarted.
    let run = run_match(
        "faulty",
        &args(
            &[
                "name=cc cmd=$BIN option.Hash=4",
                "name=rnd cmd=\"$BIN random\" option.Seed=7",
                "name=bad cmd=\"$BIN random\" option.Faults=white=illegal,black=crash,cats=hang",
            ],
            &["--tc", "depth=1", "--timeout", "1", "--seed", "1"],
        ),
    );
    assert!(run.ok, "{}\n{}", run.progress, run.table);
    assert_eq!(run.records.len(), 6, "one round: every seating of 3 engines once\n{}", run.pgn);
    let mut points_total = 0.0;
    for (i, r) in run.records.iter().enumerate() {
        assert_eq!(r.tag("Round"), (i + 1).to_string());
        assert_eq!(r.tag("Variant"), "catchess");
        assert_eq!(r.tag("FEN"), "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // Standard results; the Winner tag says who won.
        let expected_result = match r.tag("Winner") {
            "white" => "1-0",
            "black" => "0-1",
            "cats" | "draw" => "1/2-1/2",
            other => panic!("Winner {other:?}"),
        };
        assert_eq!(r.tag("Result"), expected_result);
        assert!(r.moves.ends_with(r.tag("Result")), "{}", r.moves);
        let seat = seat_of(r, "bad");
        assert_eq!(seat.len(), 1);
        let faults = r.tag("Faults");
        match seat[0] {
            "White" => {
                assert_eq!(r.tag("Winner"), "black");
                assert_eq!(r.tag("TerminationDetails"), "illegal move by white");
                assert_eq!(r.tag("Termination"), "rules infraction");
                assert_eq!(r.tag("PlyCount"), "0");
                assert!(faults.starts_with("white (bad) illegal move at ply 1: bestmove"), "{faults}");
                assert_eq!(r.tag("Points"), "white 0, black 1, cats 0");
            }
            "Black" => {
                assert_eq!(r.tag("Winner"), "white");
                assert_eq!(r.tag("TerminationDetails"), "crash by black");
                assert_eq!(r.tag("Termination"), "abandoned");
                assert_eq!(r.tag("PlyCount"), "1");
                assert!(faults.contains("black (bad) crash at ply 2: exited with code 3"), "{faults}");
            }
            _ => {
                // The game went on with the cats passing; they score 0.
                assert!(faults.starts_with("cats (bad) hang at ply 3: no bestmove within 1.000 s"), "{faults}");
                assert_ne!(r.tag("Winner"), "cats");
                assert!(r.tag("Points").ends_with("cats 0"));
                assert!(r.moves.contains("0000"), "{}", r.moves);
                assert!(r.moves.contains("the cats pass from here"));
                if r.tag("Winner") == "draw" {
                    assert_eq!(r.tag("Points"), "white 1/2, black 1/2, cats 0");
                }
                assert!(r.tag("PlyCount").parse::<u32>().unwrap() > 3);
            }
        }
        points_total += 1.0;
    }
    assert_eq!(points_total, 6.0);
    // bad: 6 games, 0 points, 0/2 in every seat, 6 faults.
    let bad = row(&run.table, "bad");
    assert_eq!(&bad[2..5], ["6", "0.0", "0.0%"], "{}", run.table);
    assert_eq!(&bad[5..], ["0", "0", "6", "0/2", "0/2", "0/2", "6"], "{}", run.table);
    assert!(run.table.contains("Faults of bad: 2 illegal move, 2 crash, 2 hang"), "{}", run.table);
    let (cc, rnd) = (row(&run.table, "cc"), row(&run.table, "rnd"));
    let points = |r: &[&str]| r[3].parse::<f64>().unwrap();
    assert_eq!(points(&cc) + points(&rnd), 6.0);
    assert_eq!(cc.last(), Some(&"0"), "the good engines never fault");
    assert_eq!(run.progress.lines().filter(|l| l.starts_with("game ")).count(), 6);
}

#[test]
fn cats_faults_void_the_cats_but_the_game_goes_on() {
    // Two misbehaving cats: one plays an illegal move on its second turn,
    // one crashes on its second turn. As white or black they play fairly.
    // White and black must accept the arbiter's passes (they would fault
    // otherwise). Openings: a file position plus two random plies.
    let openings = temp("openings.epd");
    std::fs::write(
        &openings,
        "# two Cat Chess openings\nrnbqkbnr/pppp1ppp/8/4p2*/*3P3/8/PPPP1PPP/RNBQKBNR c KQkq e6 0 1\n\
         rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - ;id \"start\"\n",
    )
    .unwrap();
    let run = run_match(
        "cats",
        &args(
            &[
                "name=rnd cmd=\"$BIN random\" option.Seed=1",
                "name=cheat cmd=\"$BIN random\" option.Seed=2 option.Faults=cats=illegal@2",
                "name=crash cmd=\"$BIN random\" option.Seed=3 option.Faults=cats=crash@2",
            ],
            &[
                "--tc",
                "depth=1",
                "--games",
                "12",
                "--concurrency",
                "2",
                "--openings",
                openings.to_str().unwrap(),
                "--random-plies",
                "2",
                "--seed",
                "5",
            ],
        ),
    );
    assert!(run.ok, "{}\n{}", run.progress, run.table);
    assert_eq!(run.records.len(), 12);
    // Records are written as games end; their Round tags restore the order.
    let mut records = run.records;
    records.sort_by_key(|r| r.tag("Round").parse::<usize>().unwrap());
    let rounds: Vec<String> = records.iter().map(|r| r.tag("Round").to_string()).collect();
    assert_eq!(rounds, (1..=12).map(|i| i.to_string()).collect::<Vec<_>>());
    let mut fens = Vec::new();
    for r in &records {
        fens.push(r.tag("FEN").to_string());
        assert!(r.moves.starts_with("{opening: 2 random plies}"), "{}", r.moves);
        let cats = r.tag("Cats");
        let faults = r.tags.get("Faults").map(String::as_str).unwrap_or("");
        match cats {
            "rnd" => assert_eq!(faults, "", "{r:?}"),
            "cheat" => assert!(faults.starts_with("cats (cheat) illegal move at ply"), "{faults}"),
            _ => assert!(faults.starts_with("cats (crash) crash at ply") && faults.contains("exited with code 3")),
        }
        assert!(!faults.contains("white") && !faults.contains("black"), "{faults}");
        if cats != "rnd" {
            assert_ne!(r.tag("Winner"), "cats");
            assert!(r.tag("Points").ends_with("cats 0"), "{r:?}");
            assert!(r.moves.contains("0000"));
        }
        let expected = match r.tag("Winner") {
            "white" => "white 1, black 0, cats 0",
            "black" => "white 0, black 1, cats 0",
            "cats" => "white 0, black 0, cats 1",
            _ => "white 1/2, black 1/2, cats 0",
        };
        assert_eq!(r.tag("Points"), expected);
    }
    // Round 1 (games 1-6) starts from line 1, round 2 from line 2.
    assert!(fens[..6].iter().all(|f| f.ends_with(" c KQkq e6 0 1")), "{fens:?}");
    assert!(fens[6..].iter().all(|f| f == "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), "{fens:?}");
    // A record that starts with the cats to move numbers its first move `1...`.
    assert!(records[0].moves.contains("1... "), "{}", records[0].moves);
    assert_eq!(row(&run.table, "cheat")[5..].last(), Some(&"4"), "{}", run.table);
    assert!(run.table.contains("Faults of crash: 4 crash"), "{}", run.table);
    assert_eq!(row(&run.table, "cheat")[10], "0/4", "cats column: 0 points in 4 games\n{}", run.table);
}

/// A record tags the clocks the game was played by: an engine's own
/// `tc=` overrides the match's `--tc` for its seat, in the PGN as in play.
#[test]
fn records_tag_each_engines_own_time_control() {
    let run = run_match(
        "own-tc",
        &args(
            &["name=cc cmd=$BIN tc=depth=1", "name=rnd cmd=\"$BIN random\" option.Seed=3 tc=3+0.25"],
            &["--variant", "chess", "--tc", "10+0.1", "--games", "2"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    assert_eq!(run.records.len(), 2);
    for record in &run.records {
        let (white, black) = if record.tag("White") == "rnd" { ("3+0.25", "-") } else { ("-", "3+0.25") };
        assert_eq!((record.tag("WhiteTimeControl"), record.tag("BlackTimeControl")), (white, black), "{record:?}");
        assert!(!record.tags.contains_key("TimeControl"), "{record:?}");
    }
}

#[test]
fn chess_match_scores_time_losses_and_illegal_moves_with_standard_pgn() {
    // bad: as white it answers 300 ms after its clock runs out; as black it
    // plays one fair move, then an illegal one.
    let run = run_match(
        "clock",
        &args(
            &["name=cc cmd=$BIN", "name=bad cmd=\"$BIN random\" option.Faults=white=slow,black=illegal@2"],
            &["--variant", "chess", "--tc", "0.5+0.05", "--games", "2"],
        ),
    );
    assert!(run.ok, "{}\n{}", run.progress, run.table);
    let [g1, g2] = &run.records[..] else { panic!("{}", run.pgn) };
    assert!(!g1.tags.contains_key("Variant") && !g1.tags.contains_key("FEN") && !g1.tags.contains_key("Cats"));
    assert_eq!((g1.tag("White"), g1.tag("Black"), g1.tag("Result")), ("cc", "bad", "1-0"));
    assert_eq!(g1.tag("TerminationDetails"), "illegal move by black");
    assert_eq!(g1.tag("PlyCount"), "3");
    assert_eq!(g1.tag("TimeControl"), "0.5+0.05");
    assert!(g1.moves.ends_with("1-0") && g1.moves.starts_with("1. "), "{}", g1.moves);
    assert_eq!(
        (g2.tag("White"), g2.tag("Result"), g2.tag("TerminationDetails")),
        ("bad", "0-1", "time forfeit by white")
    );
    assert_eq!(g2.tag("Termination"), "time forfeit");
    assert!(g2.tag("Faults").contains("no bestmove within 0.550 s (0.500 s on the clock); engine killed"), "{g2:?}");
    // 2-0: no infinite Elo, but what two won games (one pair) allow.
    assert!(
        run.table.contains("Elo difference cc vs bad: at least -511.5 (95 %: every game pair won"),
        "{}",
        run.table
    );
    assert!(!run.table.contains("inf"), "{}", run.table);
    assert_eq!(&row(&run.table, "bad")[2..5], ["2", "0.0", "0.0%"]);
}

/// Every word `catchess match` writes about a xiangqi game (records,
/// progress, table, faults, terminations) calls the first side red.
#[test]
fn xiangqi_records_and_tables_never_say_white() {
    // bad plays an illegal move on its third move as red and crashes on its
    // second as black: both games end by a fault naming the side.
    let run = run_match(
        "xiangqi-red",
        &args(
            &[
                "name=cc cmd=$BIN",
                "name=bad cmd=\"$BIN random\" option.Seed=1 option.Faults=red=illegal@3,black=crash@2",
            ],
            &["--variant", "xiangqi", "--tc", "2+0.05", "--tc", "black:1+0.05", "--games", "2"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    assert_eq!(run.records.len(), 2);
    let (as_red, as_black) = if run.records[0].tag("Red") == "bad" {
        (&run.records[0], &run.records[1])
    } else {
        (&run.records[1], &run.records[0])
    };
    assert_eq!((as_red.tag("Result"), as_red.tag("TerminationDetails")), ("0-1", "illegal move by red"));
    assert_eq!(as_red.tag("Termination"), "rules infraction");
    assert!(as_red.tag("Faults").starts_with("red (bad) illegal move at ply 5"), "{as_red:?}");
    assert_eq!((as_black.tag("Result"), as_black.tag("TerminationDetails")), ("1-0", "crash by black"));
    assert_eq!(as_black.tag("Termination"), "abandoned");
    // The seats' own time controls are tagged by the seat's name.
    assert_eq!((as_red.tag("RedTimeControl"), as_red.tag("BlackTimeControl")), ("2+0.05", "1+0.05"), "{as_red:?}");
    assert!(run.table.contains("Games won by seat: red 1, black 1, draw 0"), "{}", run.table);
    assert!(
        run.progress.contains("bad (red)") && run.progress.contains("faults: red illegal move"),
        "{}",
        run.progress
    );
    for (what, text) in [("records", &run.pgn), ("table", &run.table), ("progress", &run.progress)] {
        assert!(!text.to_lowercase().contains("white"), "{what} says white:\n{text}");
    }
}

#[test]
fn xiangqi_matches_have_red_and_black_seats_and_wxf_records() {
    let run = run_match(
        "xiangqi",
        &args(
            &["name=cc cmd=$BIN", "name=rnd cmd=\"$BIN random\" option.Seed=2"],
            &["--variant", "xiangqi", "--tc", "depth=2", "--games", "2"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    assert!(run.table.contains("Red") && run.table.contains("Black") && !run.table.contains("Cats"), "{}", run.table);
    assert_eq!(run.records.len(), 2);
    for r in &run.records {
        assert_eq!(r.tag("Variant"), "xiangqi");
        assert!(["cc", "rnd"].contains(&r.tag("Red")) && ["cc", "rnd"].contains(&r.tag("Black")));
        // WXF: piece letter, file or tandem sign, direction, file or steps.
        let moves: Vec<&str> = r
            .moves
            .split_whitespace()
            .filter(|w| !w.starts_with('{') && !w.ends_with('}') && !w.ends_with('.'))
            .filter(|w| w.len() == 4)
            .collect();
        assert!(moves.len() > 10, "{r:?}");
        for m in moves {
            let b = m.as_bytes();
            assert!(b"KAEHRCP".contains(&b[0]) || b[0].is_ascii_digit() || b"+-".contains(&b[0]), "{m}");
            assert!(b".+-".contains(&b[2]) && b[3].is_ascii_digit(), "{m} in {}", r.moves);
        }
    }
}

#[test]
fn an_engine_s_own_time_control_overrides_the_seat_s() {
    // Both seats are told movetime; each engine brings its own depth.
    let run = run_match(
        "handicap",
        &args(
            &["name=deep cmd=$BIN tc=depth=3", "name=shallow cmd=$BIN tc=depth=1"],
            &["--variant", "chess", "--tc", "movetime=5000", "--games", "2", "--random-plies", "2", "--seed", "3"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    for r in &run.records {
        // Move comments are `{<score>/<depth> <time>}`; white's moves come first.
        let depths: Vec<&str> = r
            .moves
            .split('{')
            .skip(1)
            .filter_map(|c| c.split_whitespace().next()?.rsplit_once('/').map(|(_, d)| d))
            .collect();
        let (deep, shallow) = if r.tag("White") == "deep" { (0, 1) } else { (1, 0) };
        assert!(depths.len() > 4, "{r:?}");
        assert!(depths.iter().skip(deep).step_by(2).all(|d| *d == "3"), "{r:?}");
        assert!(depths.iter().skip(shallow).step_by(2).all(|d| *d == "1"), "{r:?}");
    }
}

#[test]
fn an_engine_that_never_answers_isready_loses_every_game_at_the_start() {
    let run = run_match(
        "noready",
        &args(
            &["name=rnd cmd=\"$BIN random\"", "name=mute cmd=\"$BIN random\" option.Faults=noready"],
            &["--variant", "chess", "--tc", "1+0", "--timeout", "1"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    assert_eq!(run.records.len(), 2);
    for r in &run.records {
        assert_eq!(r.tag("PlyCount"), "0");
        assert!(r.tag("Faults").contains("(mute) hang at the start: no readyok within 1.0 s"), "{r:?}");
    }
    assert_eq!(run.records[0].tag("Result"), "1-0");
    assert_eq!(run.records[1].tag("Result"), "0-1");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let run = run_match(
        "sprt",
        &args(
            &["name=cc cmd=$BIN", "name=rnd cmd=\"$BIN random\""],
            &["--variant", "chess", "--tc", "depth=2", "--games", "100", "--sprt", "0,200,0.05,0.05"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    assert!(run.records.len() < 20, "{} games", run.records.len());
    assert!(run.table.contains("SPRT elo0 0 elo1 200 alpha 0.05 beta 0.05: LLR"), "{}", run.table);
    assert!(run.table.contains("pentanomial): H1 accepted"), "the default model\n{}", run.table);
    assert!(run.records.len().is_multiple_of(2) || run.table.contains("outside complete pairs"), "{}", run.table);
    assert!(run.table.contains("H1 accepted"), "{}", run.table);
    assert!(run.progress.contains("SPRT: H1 accepted, stopping"), "{}", run.progress);
}

#[test]
fn configuration_errors_stop_the_match_before_it_starts() {
    let fail = |engines: &[&str], rest: &[&str]| {
        let run = run_match("errors", &args(engines, rest));
        assert!(!run.ok);
        assert!(run.records.is_empty());
        run.progress
    };
    let err = fail(&["cmd=$BIN option.Colour=red"], &[]);
    assert!(err.contains("engine catchess has no option \"Colour\""), "{err}");
    let err = fail(&["cmd=/nonexistent/engine"], &[]);
    assert!(err.contains("cannot start engine engine"), "{err}");
    let err = fail(&["cmd=$BIN"], &["--variant", "chess", "--tc", "cats:depth=1"]);
    assert!(err.contains("chess has no seat \"cats\""), "{err}");
    let err = fail(&["name=a cmd=$BIN", "name=a cmd=$BIN"], &[]);
    assert!(err.contains("two engines are named \"a\""), "{err}");
    let err = fail(&["cmd=$BIN"], &["--tc", "fast"]);
    assert!(err.contains("time control \"fast\""), "{err}");
    let err = fail(&["cmd=$BIN", "cmd=\"$BIN random\""], &["--sprt", "0,10"]);
    assert!(err.contains("expected elo0,elo1,alpha,beta"), "{err}");
    // Numbers that used to panic (rc 101): clear errors instead.
    for (flag, value, message) in [
        ("--timeout", "1e300", "--timeout must be more than 0 and at most 86400 seconds"),
        ("--timeout", "1.8e19", "--timeout must be more than 0"),
        ("--games", "18446744073709551615", "--games must be at most 1000000000"),
        ("--concurrency", "100000", "--concurrency must be at most 256"),
        ("--random-plies", "99999999", "--random-plies must be at most 1000"),
        ("--time-margin", "18446744073709551615", "--time-margin must be at most"),
        ("--tc", "movetime=18446744073709551615", "movetime must be at most"),
    ] {
        let err = fail(&["cmd=$BIN"], &[flag, value]);
        assert!(err.contains(message), "{flag} {value}: {err}");
    }
}

#[test]
fn match_help_documents_every_flag() {
    let out = Command::new(BIN).args(["match", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--engine",
        "--variant",
        "--games",
        "--concurrency",
        "--tc",
        "--openings",
        "--random-plies",
        "--seed",
        "--pgn",
        "--timeout",
        "--time-margin",
        "--sprt",
        "--event",
        "--log",
        "--log-limit",
        "--draw",
        "--resign",
        "--maxmoves",
        "--stats",
        "--resume",
        "--shard",
        "--merge",
        "Matches and faults",
        "Examples:",
    ] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
}

#[test]
fn pgn_books_give_the_first_plies_of_each_game_in_seeded_random_order() {
    let book = temp("opening-book.pgn");
    std::fs::write(
        &book,
        "[Event \"one\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event \"two\"]\n\n1. d4 {main} d5 (1... Nf6) 2. c4 e6 3. Nc3 *\n\n\
         [Event \"three\"]\n\n1. c4 c5 2. g3 g6 3. Bg2 *\n",
    )
    .unwrap();
    let spec = format!("file={} plies=4 order=random", book.display());
    let run_with = |name: &str| {
        run_match(
            name,
            &args(
                &["name=a cmd=\"$BIN random\" option.Seed=1", "name=b cmd=\"$BIN random\" option.Seed=2"],
                &["--variant", "chess", "--tc", "depth=1", "--games", "6", "--openings", &spec, "--seed", "4"],
            ),
        )
    };
    let run = run_with("book");
    assert!(run.ok, "{}", run.progress);
    let lines = ["1. e4 e5 2. Nf3 Nc6", "1. d4 d5 2. c4 e6", "1. c4 c5 2. g3 g6"];
    let mut records = run.records;
    records.sort_by_key(|r| r.tag("Round").parse::<usize>().unwrap());
    let mut used = Vec::new();
    let flat = |r: &Record| r.moves.split_whitespace().collect::<Vec<_>>().join(" ");
    for pair in records.chunks(2) {
        // Both games of a round (colours swapped) start with the same 4 book plies.
        let line = lines.iter().position(|l| flat(&pair[0]).contains(l)).unwrap_or_else(|| panic!("{:?}", pair[0]));
        assert_ne!(pair[0].tag("White"), pair[1].tag("White"));
        for r in pair {
            let note = format!("{{opening: {} game {}, 4 plies}} {}", book.display(), line + 1, lines[line]);
            assert!(flat(r).starts_with(&note), "{r:?}");
            assert!(!flat(r).starts_with("1. e4 e5 2. Nf3 Nc6 3. Bb5"), "only 4 plies");
        }
        used.push(line);
    }
    used.sort();
    assert_eq!(used, [0, 1, 2], "each opening once in three rounds");
    // The same seed gives the same order.
    let again = run_with("book2");
    let firsts = |rs: &[Record]| {
        let mut v: Vec<(String, String)> =
            rs.iter().map(|r| (r.tag("Round").to_string(), r.moves.split('}').next().unwrap().to_string())).collect();
        v.sort();
        v
    };
    assert_eq!(firsts(&records), firsts(&again.records));
}

#[test]
fn adjudication_ends_games_by_resignation_score_draw_and_move_limit() {
    let epd = |name: &str, fen: &str| {
        let path = temp(name);
        std::fs::write(&path, format!("{fen}\n")).unwrap();
        path.to_str().unwrap().to_string()
    };
    let cc = ["name=a cmd=$BIN", "name=b cmd=$BIN"];
    // A queen up: black (either engine) resigns after two hopeless moves.
    let queen = epd("queen.epd", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    let run = run_match(
        "resign",
        &args(
            &cc,
            &["--variant", "chess", "--tc", "depth=3", "--openings", &queen, "--resign", "movecount=2 score=500"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    for r in &run.records {
        assert_eq!(r.tag("Result"), "1-0");
        assert_eq!(r.tag("TerminationDetails"), "adjudication: black resigns (2 moves at -500 cp or worse)");
        assert_eq!(r.tag("PlyCount"), "4");
    }
    // A level pawn ending: both scores near 0 from move 0 on.
    let pawns = epd("pawns.epd", "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1");
    let run = run_match(
        "draw",
        &args(
            &cc,
            &[
                "--variant",
                "chess",
                "--tc",
                "depth=3",
                "--openings",
                &pawns,
                "--draw",
                "movenumber=2 movecount=1 score=60",
            ],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    for r in &run.records {
        assert_eq!(r.tag("Result"), "1/2-1/2");
        assert!(
            r.tag("TerminationDetails")
                .starts_with("adjudication: draw (every engine's score within 60 cp for 1 moves"),
            "{r:?}"
        );
        assert_eq!(r.tag("PlyCount"), "4", "not before move 2");
    }
    // Cat Chess: the move limit is a draw, i.e. the cats' win.
    let run = run_match(
        "maxmoves",
        &args(
            &["name=a cmd=\"$BIN random\"", "name=b cmd=\"$BIN random\" option.Seed=3"],
            &["--tc", "depth=1", "--games", "2", "--maxmoves", "3"],
        ),
    );
    assert!(run.ok, "{}", run.progress);
    for r in &run.records {
        assert_eq!((r.tag("Result"), r.tag("Winner"), r.tag("PlyCount")), ("1/2-1/2", "cats", "9"));
        assert_eq!(r.tag("TerminationDetails"), "adjudication: move limit (3 moves)");
        assert_eq!(r.tag("Termination"), "adjudication");
    }
}

#[test]
fn progress_is_plain_lines_off_a_terminal_and_a_live_line_on_one() {
    let engines = ["name=a cmd=\"$BIN random\" option.Seed=1", "name=b cmd=\"$BIN random\" option.Seed=2"];
    let rest = ["--variant", "chess", "--tc", "depth=1", "--games", "4", "--sprt", "0,10,0.05,0.05"];
    let run = run_match("progress", &args(&engines, &rest));
    assert!(run.ok, "{}", run.progress);
    let lines: Vec<&str> = run.progress.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 4);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.contains(&format!(" | {}/4 games | a ", i + 1)), "{l}");
        assert!(l.contains(" | Elo ") && l.contains(" | LLR "), "{l}");
        assert_eq!(l.contains("| ETA "), i < 3, "{l}");
    }
    assert!(!run.progress.contains('\r'), "no terminal codes in a file");
    // On a terminal (script(1) gives the arbiter one): each game's line,
    // then a status line redrawn in place.
    if Command::new("script").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI must have script(1) (util-linux)");
        eprintln!("skipped the terminal half: no script(1)");
        return;
    }
    let mut cmd = vec!["match".to_string()];
    cmd.extend(args(&engines, &rest));
    cmd.extend(["--pgn".to_string(), "/dev/null".to_string()]);
    let line: Vec<String> =
        std::iter::once(BIN.to_string()).chain(cmd).map(|w| format!("'{}'", w.replace('\'', "'\\''"))).collect();
    let out = Command::new("script").args(["-qec", &line.join(" "), "/dev/null"]).output().unwrap();
    let tty = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{tty}");
    // The live line is drawn by indicatif: each game's line is printed
    // above it, the status is redrawn below, and it is cleared at the end.
    let game = tty.find("game 1/4: ").expect("the game's line");
    assert!(tty[game..].contains("1/4 games | a "), "the status line after the game's line: {tty:?}");
    assert!(tty.contains("\x1b[2K"), "the live line is redrawn in place: {tty:?}");
}

#[test]
fn pgn_check_replays_records_of_every_variant_and_finds_what_is_wrong() {
    let check = |path: &std::path::Path| {
        let out = Command::new(BIN).args(["pgn", "check", path.to_str().unwrap()]).output().unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let cases: [(&str, &[&str], &[&str]); 3] = [
        (
            "check-cats",
            &["name=a cmd=\"$BIN random\"", "name=b cmd=\"$BIN random\" option.Seed=3 option.Faults=cats=crash@3"],
            &["--games", "6"],
        ),
        (
            "check-chess",
            &["name=a cmd=$BIN", "name=b cmd=\"$BIN random\" option.Faults=white=illegal"],
            &["--variant", "chess", "--games", "4"],
        ),
        (
            "check-xiangqi",
            &["name=a cmd=$BIN", "name=b cmd=\"$BIN random\""],
            &["--variant", "xiangqi", "--games", "2"],
        ),
    ];
    for (name, engines, rest) in cases {
        let mut rest = rest.to_vec();
        rest.extend(["--tc", "depth=1", "--random-plies", "2", "--seed", "3"]);
        let run = run_match(name, &args(engines, &rest));
        assert!(run.ok, "{}", run.progress);
        let (ok, out) = check(&temp(&format!("{name}.pgn")));
        assert!(ok, "{name}: {out}");
        assert!(out.contains(&format!("{} games checked, 0 with problems", run.records.len())), "{out}");
    }
    // Corrupt the Cat Chess records: a wrong result, then an illegal move.
    let text = std::fs::read_to_string(temp("check-cats.pgn")).unwrap();
    let first = records(&text).into_iter().find(|r| r.tag("Termination") == "normal").unwrap();
    let round = first.tag("Round").to_string();
    let wrong = if first.tag("Result") == "1/2-1/2" { "1-0" } else { "1/2-1/2" };
    let at = text.find(&format!("[Round \"{round}\"]")).unwrap();
    let result_at = at + text[at..].find("[Result \"").unwrap();
    let end = result_at + text[result_at..].find("\"]").unwrap() + 2;
    let bad = temp("bad-result.pgn");
    std::fs::write(&bad, format!("{}[Result \"{wrong}\"]{}", &text[..result_at], &text[end..])).unwrap();
    let (ok, out) = check(&bad);
    assert!(!ok, "{out}");
    assert!(out.contains(&format!("Round {round}): Result tag \"{wrong}\" but the moves end with")), "{out}");
    let bad = temp("bad-move.pgn");
    std::fs::write(&bad, text.replacen("1. ", "1. a1a5 ", 1)).unwrap();
    let (ok, out) = check(&bad);
    assert!(!ok);
    assert!(out.contains("game 1 (line 1, Round 1): move 1. a1a5: illegal move \"a1a5\""), "{out}");
}

/// zzo38's Cat's Chess (10×10), whose turns take several steps: the engine
/// beats the random engine with either colour (a few seeded games at low
/// depth, each engine in both seats), every record writes one token per
/// turn and replays with `catchess pgn check`, and the random engine's
/// deliberate illegal answer is an illegal turn that loses the game.
#[test]
fn catschess10_engine_beats_random_with_either_colour_and_records_replay() {
    let run = run_match(
        "catschess10",
        &args(
            &["name=cc cmd=$BIN option.Hash=4", "name=rnd cmd=\"$BIN random\" option.Seed=5"],
            &["--variant", "catschess10", "--tc", "depth=4", "--games", "6", "--random-plies", "2", "--seed", "11"],
        ),
    );
    assert!(run.ok, "{}\n{}", run.progress, run.table);
    assert_eq!(run.records.len(), 6, "{}", run.pgn);
    assert_eq!(row(&run.table, "cc")[3], "6.0", "the engine wins every game\n{}", run.table);
    for r in &run.records {
        assert_eq!(r.tag("Variant"), "catschess10");
        assert_eq!(r.tag("Termination"), "normal", "{r:?}");
        // One token a turn: drop comments, move numbers and the result.
        let text: String = r.moves.split('{').map(|p| p.split_once('}').map_or(p, |(_, rest)| rest)).collect();
        let turns: Vec<&str> = text.split_whitespace().filter(|t| !t.ends_with('.') && *t != r.tag("Result")).collect();
        assert_eq!(r.tag("PlyCount"), turns.len().to_string(), "{}", r.moves);
        assert!(turns.iter().any(|t| t.contains(",M@")), "mice are dropped within turns: {}", r.moves);
    }
    let pgn = temp("catschess10-check.pgn");
    std::fs::write(&pgn, &run.pgn).unwrap();
    let check = Command::new(BIN).args(["pgn", "check", pgn.to_str().unwrap()]).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));

    let run = run_match(
        "catschess10-illegal",
        &args(
            &["name=cc cmd=$BIN option.Hash=4", "name=bad cmd=\"$BIN random\" option.Faults=black=illegal@3"],
            &["--variant", "catschess10", "--tc", "depth=1", "--games", "2", "--seed", "1"],
        ),
    );
    assert!(run.ok, "{}\n{}", run.progress, run.table);
    let r = run.records.iter().find(|r| r.tag("Black") == "bad").expect("bad plays black once");
    assert_eq!(r.tag("TerminationDetails"), "illegal move by black", "{r:?}");
    assert!(r.tag("Faults").starts_with("black (bad) illegal move at ply 6: bestmove"), "{}", r.tag("Faults"));
}

/// The arbiter's dice (Cat's Chess 10×10's teleport, rules §8). Random
/// engines ask for rolls and reroll mice among their choices; the arbiter
/// rolls from `--seed` and notes every roll with its turn, takes the rest
/// of a turn after `T?<sq>` as the square kept, rolls every square again
/// after `reroll`, and the same seed plays the same games; `pgn check`
/// replays the records.
#[test]
fn catschess10_dice_are_the_arbiters_and_replay() {
    let a = args(
        &["name=r1 cmd=\"$BIN random\" option.Seed=1", "name=r2 cmd=\"$BIN random\" option.Seed=2"],
        &["--variant", "catschess10", "--tc", "depth=1", "--games", "6", "--seed", "7"],
    );
    let (first, second) = (run_match("cc10-dice-1", &a), run_match("cc10-dice-2", &a));
    assert!(first.ok && second.ok, "{}\n{}", first.progress, first.table);
    // (turn token, rolls noted with it) for every turn of every game.
    let turns = |run: &Run| -> Vec<(String, Vec<String>)> {
        run.records
            .iter()
            .flat_map(|r| {
                assert!(!r.tags.contains_key("Faults"), "{r:?}");
                r.moves.split('}').filter_map(|chunk| {
                    let (before, comment) = chunk.rsplit_once('{')?;
                    let token = before.split_whitespace().last()?.to_string();
                    let rolls = comment.split("; ").filter_map(|c| c.strip_prefix("roll ")).map(String::from).collect();
                    Some((token, rolls))
                })
            })
            .collect()
    };
    let played = turns(&first);
    assert_eq!(played, turns(&second), "the same seed rolls the same dice");
    let rolled: Vec<&(String, Vec<String>)> = played.iter().filter(|(_, rolls)| !rolls.is_empty()).collect();
    assert!(rolled.len() >= 10, "engines teleport: {rolled:?}");
    for (token, rolls) in &rolled {
        // The turn keeps the last roll's square: `T@<sq>` opens its token.
        let kept = &rolls.last().unwrap()[2..];
        assert!(token.starts_with(&format!("T@{kept}")), "{token} after {rolls:?}");
        // Only a roll on a mouse is rolled again.
        assert!(rolls[..rolls.len() - 1].iter().all(|r| r.starts_with("T?")), "{rolls:?}");
    }
    assert!(rolled.iter().any(|(_, r)| r.len() == 1 && r[0].starts_with("T?")), "a mouse's square kept: {rolled:?}");
    assert!(rolled.iter().any(|(_, r)| r.len() > 1), "a mouse's square rolled again: {rolled:?}");
    let pgn = temp("cc10-dice.pgn");
    std::fs::write(&pgn, &first.pgn).unwrap();
    let check = Command::new(BIN).args(["pgn", "check", pgn.to_str().unwrap()]).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
}
