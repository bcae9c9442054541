//! `seat=` in an engine spec: the engine plays that seat in every game and
//! the others rotate through the rest — checked through real matches of
//! the random engine and the engine at depth 1 (records, table, Elo
//! lines), `--resume` and `--shard`/`--merge` with a pinned engine, and
//! the errors for pins that make no sense.

mod common;
use common::temp;

use std::path::Path;
use std::process::{Command, Output};
use temp::temp;

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

/// `catchess match` with these engines (`$BIN` replaced) and flags.
fn run(engines: &[&str], rest: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.arg("match");
    for e in engines {
        cmd.args(["--engine", &e.replace("$BIN", BIN)]);
    }
    cmd.args(rest).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Each record's round and its players by seat tag.
fn seatings(pgn: &str, seats: &[&str]) -> Vec<(usize, Vec<String>)> {
    let mut out: Vec<(usize, Vec<String>)> = pgn
        .split("[Event ")
        .skip(1)
        .map(|r| {
            let tag = |name: &str| {
                let start =
                    r.find(&format!("\n[{name} \"")).unwrap_or_else(|| panic!("no {name} in {r}")) + name.len() + 4;
                r[start..].split('"').next().unwrap().to_string()
            };
            (tag("Round").parse().unwrap(), seats.iter().map(|s| tag(s)).collect())
        })
        .collect();
    out.sort();
    out
}

const A: &str = "name=a cmd=$BIN tc=depth=1";
const B: &str = "name=b cmd=\"$BIN random\" option.Seed=2";
const CATS: &str = "name=r cmd=\"$BIN random\" option.Seed=3 seat=cats";

fn pgn_args(pgn: &Path, rest: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["--tc", "depth=1", "--random-plies", "2", "--seed", "5", "--pgn", pgn.to_str().unwrap()]
        .map(String::from)
        .to_vec();
    v.extend(rest.iter().map(|s| s.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_pinned_engine_plays_only_its_seat_and_the_two_others_swap_colours() {
    let pgn = temp("seat-cats.pgn");
    let out = run(&[CATS, A, B], &strs(&pgn_args(&pgn, &["--games", "6"])));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("6 games (2 per round)"), "{stderr}");
    let games = seatings(&std::fs::read_to_string(&pgn).unwrap(), &["White", "Black", "Cats"]);
    assert_eq!(games.iter().map(|g| g.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    for (round, players) in &games {
        assert_eq!(players[2], "r", "game {round}: the pinned engine holds the cats");
        // Each round: a white and b black, then the two swapped.
        let expected = if round % 2 == 1 { ["a", "b"] } else { ["b", "a"] };
        assert_eq!(players[..2], expected, "game {round}");
    }
    // Every engine in the table; r only as the cats; Elo between a and b.
    let row = |name: &str| -> Vec<String> {
        let line = stdout.lines().find(|l| l.split_whitespace().nth(1) == Some(name));
        line.unwrap_or_else(|| panic!("no row for {name}:\n{stdout}")).split_whitespace().map(String::from).collect()
    };
    assert_eq!(row("r")[2], "6", "{stdout}");
    assert!(row("r")[8] == "0/0" && row("r")[9] == "0/0" && row("r")[10].ends_with("/6"), "{stdout}");
    assert!(row("a")[8].ends_with("/3") && row("a")[9].ends_with("/3") && row("a")[10] == "0/0", "{stdout}");
    // Only the rotating engines are ranked; the pinned one is listed after them.
    let mut ranks = [row("a")[0].clone(), row("b")[0].clone()];
    ranks.sort();
    assert_eq!((ranks, row("r")[0].as_str()), (["1".to_string(), "2".to_string()], "-"), "{stdout}");
    assert!(stdout.contains("Not ranked (pinned to a seat): r\n"), "{stdout}");
    assert!(stdout.contains("Elo difference a vs b: "), "{stdout}");
    assert!(stdout.contains("Games of a against b (a game the pinned engines win counts as a draw): "), "{stdout}");
    assert!(stdout.contains("from 3 game pairs (pentanomial"), "{stdout}");
}

#[test]
fn a_single_engine_against_pinned_cats_holds_white_and_black() {
    let pgn = temp("seat-one.pgn");
    let out = run(&[A, CATS], &strs(&pgn_args(&pgn, &["--games", "2"])));
    assert!(out.status.success(), "{}", text(&out.stderr));
    for (round, players) in seatings(&std::fs::read_to_string(&pgn).unwrap(), &["White", "Black", "Cats"]) {
        assert_eq!(players, ["a", "a", "r"], "game {round}");
    }
    assert!(!text(&out.stdout).contains("Elo difference"), "no pair of rotating engines: no Elo");
}

#[test]
fn resume_and_merge_keep_the_pin() {
    let engines = [A, B, CATS];
    // Resume: the pin is a setting of the state file.
    let pgn = temp("seat-resume.pgn");
    assert!(run(&engines, &strs(&pgn_args(&pgn, &["--games", "2"]))).status.success());
    let out = run(&engines, &strs(&pgn_args(&pgn, &["--games", "4", "--resume"])));
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("resuming: 2 of 4 games already played"), "{stderr}");
    let games = seatings(&std::fs::read_to_string(&pgn).unwrap(), &["White", "Black", "Cats"]);
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|(_, p)| p[2] == "r"), "{games:?}");
    let unpinned = "name=r cmd=\"$BIN random\" option.Seed=3";
    let out = run(&[A, B, unpinned], &strs(&pgn_args(&pgn, &["--games", "6", "--resume"])));
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("started with other settings"), "{}", text(&out.stderr));

    // Shards, merged with the same specs or none (the state files name the
    // engines and their seats): the same pairs as one match.
    let (s1, s2) = (temp("seat-shard1.pgn"), temp("seat-shard2.pgn"));
    for (path, shard) in [(&s1, "1/2"), (&s2, "2/2")] {
        let out = run(&engines, &strs(&pgn_args(path, &["--games", "8", "--shard", shard])));
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let merge = |engines: &[&str]| {
        let mut rest = vec!["--merge", s1.to_str().unwrap(), s2.to_str().unwrap()];
        rest.extend(["--sprt", "0,10,0.05,0.05"]);
        run(engines, &rest)
    };
    for given in [&engines[..], &[]] {
        let out = merge(given);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("merge: 8 of 8 games from 2 files"), "{stderr}");
        assert!(stdout.contains("from 4 game pairs (pentanomial") && stdout.contains("SPRT elo0 0"), "{stdout}");
        assert!(stdout.contains("Not ranked (pinned to a seat): r"), "{stdout}");
    }
    let out = merge(&[A, B, "name=r cmd=x seat=black"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the --engine specs (a, b, r seat=black) are not the match's engines (a, b, r seat=cats"),
        "{stderr}"
    );
}

#[test]
fn pins_that_make_no_sense_are_refused_before_any_game() {
    let fails = |engines: &[&str], rest: &[&str], message: &str| {
        let out = run(engines, rest);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{message}");
        assert!(stderr.contains(message), "{message}: {stderr}");
        assert!(!stderr.contains("game 1"), "{stderr}");
    };
    fails(&[A, "name=r cmd=x seat=kittens"], &[], "engine r: seat=kittens: catchess has no seat \"kittens\"");
    fails(&[A, "name=r cmd=x seat=red"], &[], "(seats: white, black, cats)");
    fails(&[A, "name=r cmd=x seat=cats"], &["--variant", "chess"], "chess has no seat \"cats\" (seats: white, black)");
    fails(
        &[A, "name=r cmd=x seat=white"],
        &["--variant", "xiangqi"],
        "xiangqi has no seat \"white\" (seats: red, black)",
    );
    fails(&[A, B, "name=r cmd=x seat=cats", "name=s cmd=x seat=cats"], &[], "engines r and s are both pinned to cats");
    fails(
        &["name=a cmd=x seat=white", "name=b cmd=x seat=black"],
        &["--variant", "chess"],
        "every seat (white, black) has an engine pinned to it",
    );
    fails(&["name=r cmd=x seat=cats"], &[], "every engine is pinned to a seat");
    fails(&[A, CATS], &["--sprt", "0,10,0.05,0.05"], "needs exactly two engines that are not pinned to a seat");
    fails(&["name=r cmd=x seat="], &[], "seat=: expected a seat name");
}
