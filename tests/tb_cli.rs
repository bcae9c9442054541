//! `catchess tb` from the command line: generate, probe (one FEN, stdin,
//! `--moves`, bad lines), damaged files refused, and the files' names: one
//! folder holds both variants' tables of a material, each probe reads its
//! own, and tables under the old names (issue #60).

mod common;

use catchess::core::Color;
use catchess::tb::Verdict;
use common::run::catchess;
use common::{tables, temp};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// A directory with the chess KQvK and KRvK tables, made by the command.
fn chess_dir(name: &str) -> std::path::PathBuf {
    let dir = temp::temp(name);
    let out = tables::generate_chess(&dir, &["KQvK", "KRvK"]);
    for m in ["KQvK", "KRvK"] {
        assert!(out.contains(&format!("{m}: 81920 entries")), "{out}");
    }
    dir
}

/// The files in a folder, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn probe_stdin(args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn generate_writes_table_and_statistics_and_probe_answers_each_line() {
    let dir = chess_dir("probe");
    let d = dir.to_str().unwrap();
    assert_eq!(listing(&dir), ["KQvK.chess.cctb", "KQvK.chess.json", "KRvK.chess.cctb", "KRvK.chess.json"]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("KQvK.chess.json")).unwrap()).unwrap();
    assert_eq!(json["positions"]["white"]["white"], 18081);
    assert_eq!(json["positions"]["black"]["draw"], 2896);
    assert_eq!(json["longest"]["plies"], 20);

    let (ok, out, _) =
        catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"]);
    assert!(ok);
    assert_eq!(out, "white 19\n");

    let input = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1\n\
                 not a fen\n\
                 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\n\
                 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n\
                 8/8/8/8/8/2k5/1R6/K7 w - - 0 1\n\
                 4k3/8/8/8/8/8/8/4K2B w - - 0 1\n\
                 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n\
                 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                 8/8/8/5k2/8/8/1Q6/K7 w - - 90 1\n\
                 8/8/8/8/4k3/8/1Q6/K7 b - - 0 1\n";
    let (ok, out) = probe_stdin(&["tb", "probe", "--variant", "chess", "--dir", d], input);
    assert!(!ok, "a line was an error");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert_eq!(lines[0], "white 19");
    assert!(lines[1].starts_with("error "), "{}", lines[1]);
    assert_eq!(lines[2], "draw 0", "stalemate: the game has ended");
    assert_eq!(lines[3], "white 0", "mate: the game has ended");
    assert_eq!(lines[4], "white 31");
    assert_eq!(lines[5], "draw 0", "insufficient material ends the game");
    assert!(lines[6].starts_with("error castling"), "{}", lines[6]);
    assert!(lines[7].starts_with("error 30 men besides the kings"), "{}", lines[7]);
    // 19 plies are 10 white moves: from a clock of 90 the fifty-move rule comes first.
    assert!(lines[8].starts_with("draw - (fifty-move rule"), "{}", lines[8]);
    assert_eq!(lines[9], "white 20");
}

#[test]
fn probe_moves_gives_every_legal_move_its_result() {
    let dir = chess_dir("moves");
    let (ok, out, _) = catchess(&[
        "tb",
        "probe",
        "--variant",
        "chess",
        "--dir",
        dir.to_str().unwrap(),
        "--moves",
        "--fen",
        "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1",
    ]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "white 1");
    // Every legal move is listed once, with its result.
    let pos = <catchess::Chess as catchess::Notation>::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
    assert_eq!(lines.len() as u64 - 1, pos.count_legal_moves());
    assert!(lines.contains(&"f1f8 white 0"), "mate: {out}");
    assert!(lines.contains(&"f1f7 draw 0"), "stalemate: {out}");
    assert!(lines.contains(&"f1f2 white 4"), "{out}");
    assert!(lines.iter().skip(1).all(|l| l.split(' ').count() == 3), "{out}");
}

#[test]
fn damaged_or_foreign_files_are_refused_with_their_name() {
    let dir = chess_dir("damaged");
    let d = dir.to_str().unwrap();
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    let file = dir.join("KQvK.chess.cctb");
    let good = std::fs::read(&file).unwrap();
    let krk = std::fs::read(dir.join("KRvK.chess.cctb")).unwrap();
    let mut flipped = good.clone();
    flipped[100] ^= 1;
    let mut header = good.clone();
    header[20] ^= 1;
    for (what, bytes) in [
        ("truncated", good[..good.len() - 1].to_vec()),
        ("checksum", flipped),
        ("header", header),
        ("expected chess KQvK", krk),
        ("shorter than", good[..10].to_vec()),
    ] {
        std::fs::write(&file, &bytes).unwrap();
        let (ok, out, _) = catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", fen]);
        assert!(!ok, "{what}");
        assert!(out.starts_with("error table file ") && out.contains("KQvK.chess.cctb"), "{what}: {out}");
        assert!(out.contains(what), "{what}: {out}");
    }
    std::fs::write(&file, &good).unwrap();
    let (ok, out, _) = catchess(&["tb", "probe", "--variant", "chess", "--dir", d, "--fen", fen]);
    assert!(ok && out == "white 19\n", "{out}");
}

#[test]
fn cat_chess_answers_without_files_where_nobody_can_mate_and_names_a_missing_file() {
    let dir = temp::temp("cats-empty");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let input = "4k3/8/8/7*/*7/8/8/4K2B w - - 0 1\n\
                 4k3/8/8/7*/*7/8/8/4K2N c - - 0 1\n\
                 4k3/8/8/7*/*7/8/8/3QK3 w - - 0 1\n\
                 4k3/8/8/8/*7/8/8/3QK3 w - - 0 1\n";
    let (_, out) = probe_stdin(&["tb", "probe", "--variant", "catchess", "--dir", d], input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "cats 0", "insufficient material ends the game at white's turn");
    assert_eq!(lines[1], "cats -", "not judged at the cats' turn, but nobody can mate");
    assert!(lines[2].starts_with("error no table file") && lines[2].contains("KQvK.catchess.cctb"), "{}", lines[2]);
    assert!(lines[3].starts_with("error 1 cats"), "{}", lines[3]);
    // The game has ended: no move lines, though the board has moves.
    let (ok, out, _) = catchess(&[
        "tb",
        "probe",
        "--variant",
        "catchess",
        "--dir",
        d,
        "--moves",
        "--fen",
        "4k3/8/8/7*/*7/8/8/4K2N w - - 0 1",
    ]);
    assert!(ok && out == "cats 0\n", "{out}");
    let (ok, _, err) = catchess(&["tb", "generate", "--variant", "catchess", "--material", "KBvK", "--dir", d]);
    assert!(!ok && err.contains("KBvK needs no table"), "{err}");
}

/// Issue #60: `--variant` offers the games that have tables, and no other.
#[test]
fn the_variant_is_one_with_tables() {
    let dir = temp::temp("variants");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    for command in ["generate", "probe"] {
        let (ok, out, _) = catchess(&["tb", command, "--help"]);
        assert!(ok && out.contains("[possible values: catchess, chess]"), "{out}");
        for other in ["xiangqi", "catschess10", "shogi"] {
            let mut args = vec!["tb", command, "--variant", other, "--dir", d];
            if command == "generate" {
                args.extend(["--material", "KQvK"]);
            }
            let (ok, _, err) = catchess(&args);
            assert!(!ok, "{command} --variant {other}");
            assert!(
                err.contains(&format!("invalid value '{other}' for '--variant <VARIANT>'"))
                    && err.contains("[possible values: catchess, chess]"),
                "{err}"
            );
        }
    }
}

const CHESS_KQK: &str = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
const CAT_KQK: &str = "7Q/8/7*/8/8/8/1kK5/7* w - - 0 1";

fn probe_one(variant: &str, dir: &Path, fen: &str) -> (bool, String) {
    let (ok, out, _) = catchess(&["tb", "probe", "--variant", variant, "--dir", dir.to_str().unwrap(), "--fen", fen]);
    (ok, out)
}

/// The lines of `tb generate` that start with `note:`.
fn notes(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("note: ")).collect()
}

/// Issue #60: the chess and the Cat Chess table of one material, and their
/// statistics, in one folder; each variant's probe answers from its own
/// table, under its name or its old one. The Cat Chess table is written by
/// the library with every entry `black 7` (a real one takes a minute to
/// make: see the ignored test below), so that answer can only come from it.
#[test]
fn one_folder_holds_both_variants_tables_of_a_material_and_each_probe_reads_its_own() {
    let dir = temp::temp("both-variants");
    std::fs::create_dir_all(&dir).unwrap();
    let black_7 = Verdict::Win { winner: Color::Black, plies: 7 };
    let cat_table = tables::uniform_cat_chess_table(&dir, "KQvK", black_7);
    assert_eq!(cat_table, dir.join("KQvK.catchess.cctb"));
    let cat_stats = dir.join("KQvK.catchess.json");
    let cat_json = r#"{"positions": {"white": {}, "black": {}, "cats": {}}}"#;
    std::fs::write(&cat_stats, cat_json).unwrap();

    let out = tables::generate_chess(&dir, &["KQvK"]);
    assert!(notes(&out).is_empty(), "no file under an old name: {out}");
    assert_eq!(listing(&dir), ["KQvK.catchess.cctb", "KQvK.catchess.json", "KQvK.chess.cctb", "KQvK.chess.json"]);
    assert_eq!(std::fs::read_to_string(&cat_stats).unwrap(), cat_json, "Cat Chess's statistics kept");
    let chess: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("KQvK.chess.json")).unwrap()).unwrap();
    assert_eq!(chess["positions"]["white"]["white"], 18081, "{chess}");
    assert_eq!(probe_one("chess", &dir, CHESS_KQK), (true, "white 19\n".into()));
    // The whole file is read and its checksum checked: the table is whole.
    assert_eq!(probe_one("catchess", &dir, CAT_KQK), (true, "black 7\n".into()));

    // Under the old names (the Cat Chess table's header says whose it is):
    // each probe still reads its own, and generating chess again says how
    // to rename them; the command it gives does.
    std::fs::rename(&cat_table, dir.join("KQvK.cctb")).unwrap();
    std::fs::rename(&cat_stats, dir.join("KQvK.json")).unwrap();
    assert_eq!(probe_one("catchess", &dir, CAT_KQK), (true, "black 7\n".into()));
    assert_eq!(probe_one("chess", &dir, CHESS_KQK), (true, "white 19\n".into()));
    let out = tables::generate_chess(&dir, &["KQvK"]);
    let said = notes(&out);
    assert_eq!(said.len(), 2, "{out}");
    for (old, what, new) in
        [("KQvK.cctb", "table", "KQvK.catchess.cctb"), ("KQvK.json", "statistics", "KQvK.catchess.json")]
    {
        let (old, new) = (dir.join(old), dir.join(new));
        let note = said.iter().find(|n| n.contains(&format!("is the catchess {what} under its old name"))).unwrap();
        let mv = format!("mv {} {}", old.display(), new.display());
        assert!(note.ends_with(&format!("give it its own: {mv}")), "{note}");
        assert!(Command::new("sh").args(["-c", &mv]).status().unwrap().success(), "{mv}");
    }
    assert_eq!(listing(&dir), ["KQvK.catchess.cctb", "KQvK.catchess.json", "KQvK.chess.cctb", "KQvK.chess.json"]);
    assert_eq!(std::fs::read_to_string(&cat_stats).unwrap(), cat_json);
    assert_eq!(probe_one("catchess", &dir, CAT_KQK), (true, "black 7\n".into()));
    tables::remove(&dir);
}

/// Issue #60: a table under its old name (`KQvK.cctb`) answers the variant
/// its header names and no other; `tb generate` counts it as made for
/// `all`, and once it writes the new name says the old files can go.
#[test]
fn an_old_named_table_answers_only_its_own_variant() {
    let dir = chess_dir("old-name");
    std::fs::rename(dir.join("KQvK.chess.cctb"), dir.join("KQvK.cctb")).unwrap();
    std::fs::rename(dir.join("KQvK.chess.json"), dir.join("KQvK.json")).unwrap();
    assert_eq!(probe_one("chess", &dir, CHESS_KQK), (true, "white 19\n".into()));
    let (ok, out) = probe_one("catchess", &dir, CAT_KQK);
    let new = dir.join("KQvK.catchess.cctb");
    assert!(!ok && out.starts_with(&format!("error no table file {}", new.display())), "{out}");
    assert!(out.trim_end().ends_with(&format!("; {} is the chess table", dir.join("KQvK.cctb").display())), "{out}");

    let (ok, out, err) =
        catchess(&["tb", "generate", "--variant", "chess", "--material", "all", "--dir", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    let old = dir.join("KQvK.cctb");
    let mv = format!("mv {} {}", old.display(), dir.join("KQvK.chess.cctb").display());
    assert!(
        out.contains(&format!("KQvK: already in {}, its old name; give it its own: {mv}\n", old.display())),
        "{out}"
    );
    assert!(out.contains(&format!("KRvK: already in {}\n", dir.display())), "{out}");
    assert!(out.contains("generating chess KvKQ"), "{out}");
    assert!(!dir.join("KQvK.chess.cctb").exists(), "not made again");

    let out = tables::generate_chess(&dir, &["KQvK"]);
    let said = notes(&out);
    assert_eq!(said.len(), 2, "{out}");
    for (old, what, new) in [("KQvK.cctb", "table", "KQvK.chess.cctb"), ("KQvK.json", "statistics", "KQvK.chess.json")]
    {
        let (old, new) = (dir.join(old).display().to_string(), dir.join(new).display().to_string());
        let want = format!(
            "note: {old} is the chess {what} under its old name; {new} is the one now, so {old} can be deleted"
        );
        assert!(said.contains(&want.as_str()), "{want}\n{out}");
    }
    // The new name is the one read: the old file, spoilt, is not.
    std::fs::write(dir.join("KQvK.cctb"), [b'x'; 100]).unwrap();
    assert_eq!(probe_one("chess", &dir, CHESS_KQK), (true, "white 19\n".into()));
    // An old-named file whose header cannot be read is nobody's, so every
    // variant's probe of its material reports it.
    std::fs::remove_file(dir.join("KQvK.chess.cctb")).unwrap();
    for (variant, fen) in [("chess", CHESS_KQK), ("catchess", CAT_KQK)] {
        let (ok, out) = probe_one(variant, &dir, fen);
        assert!(
            !ok && out.starts_with(&format!("error table file {}", old.display())) && out.contains("bad magic"),
            "{variant}: {out}"
        );
    }
}

/// Both variants' real KQvK tables made by the command into one folder:
/// both tables and both statistics kept, each probe answering from its
/// own. The Cat Chess table takes a minute idle (README; 4 min on a
/// loaded 2-core machine) and 715 MiB.
/// `cargo test --test tb_cli -- --ignored both_variants`.
#[test]
#[ignore = "makes the full Cat Chess KQvK table: 1-4 min, 715 MiB"]
fn both_variants_real_tables_of_one_material_in_one_folder() {
    let dir = temp::temp("both-real");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    for variant in ["catchess", "chess"] {
        let (ok, _, err) = catchess(&["tb", "generate", "--variant", variant, "--material", "KQvK", "--dir", d]);
        assert!(ok, "{err}");
    }
    assert_eq!(listing(&dir), ["KQvK.catchess.cctb", "KQvK.catchess.json", "KQvK.chess.cctb", "KQvK.chess.json"]);
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
    };
    // docs/cat-chess-endgames.md's numbers, and chess's.
    let cat = json("KQvK.catchess.json");
    assert_eq!(
        (cat["positions"]["white"]["white"].clone(), cat["longest"]["plies"].clone()),
        (1_907_403.into(), 16.into())
    );
    let chess = json("KQvK.chess.json");
    assert_eq!(
        (chess["positions"]["white"]["white"].clone(), chess["longest"]["plies"].clone()),
        (18081.into(), 20.into())
    );
    assert_eq!(probe_one("catchess", &dir, CAT_KQK), (true, "white 16\n".into()));
    assert_eq!(probe_one("chess", &dir, CHESS_KQK), (true, "white 19\n".into()));
    tables::remove(&dir);
}
