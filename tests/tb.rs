//! The endgame tables (issue #43): the generator reproduces the published
//! chess facts, and every entry of small tables agrees with its moves by
//! forward search (which proves a table exact: see `catchess::tb::verify`).

mod common;

use catchess::games::chess::{CatChessRules, ChessRules, Position, Side, Variant};
use catchess::tb::file::TableData;
use catchess::tb::generate::{generate, Settings};
use catchess::tb::index::Layout;
use catchess::tb::progress::Bar;
use catchess::tb::stats;
use catchess::tb::{generate_to_dir, verify, Material, Tablebase, Verdict};
use common::temp::temp;

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// Generates the chess tables into a fresh directory named for `test`.
fn chess_tables(test: &str, materials: &[&str]) -> std::path::PathBuf {
    let dir = temp(&format!("{test}-{}", materials.join("-")));
    for m in materials {
        generate_to_dir::<ChessRules>(material(m), &dir, 2, Bar::Quiet, &mut std::io::sink()).unwrap();
    }
    dir
}

/// Every entry of a table in `dir` checked against its moves.
fn verify_all<V: Variant>(dir: &std::path::Path, name: &str) -> u64 {
    let tables = Tablebase::<V>::open(dir).unwrap();
    let m = material(name);
    let layout = catchess::tb::probe::layout::<V>(m);
    let table = tables.table(m).unwrap();
    let outside = |p: &Position<V>| tables.verdict(p).ok().map(|(v, _)| v);
    verify::check::<V>(&layout, |i| table.code(i), outside, 0..layout.len()).unwrap()
}

#[test]
fn chess_kqk_longest_mate_is_19_plies_and_krk_31_as_published() {
    let dir = chess_tables("published", &["KQvK", "KRvK"]);
    for (name, plies, entries) in [("KQvK", 19, 18081 + 28056), ("KRvK", 31, 21959 + 28056)] {
        let tables = Tablebase::<ChessRules>::open(&dir).unwrap();
        let m = material(name);
        let layout = catchess::tb::probe::layout::<ChessRules>(m);
        let table = tables.table(m).unwrap();
        let s = stats::count::<ChessRules>(&layout, |i| table.code(i));
        let white = s.longest_by_seat[0].1.clone().unwrap();
        assert_eq!(white.plies, plies, "{name}: {white:?}");
        // The longest mate really takes that long: the table's best moves
        // from its position mate in exactly that many plies.
        let mut pos = Position::<ChessRules>::from_fen(&white.fen).unwrap();
        for left in (1..=plies).rev() {
            let (m, v) = tables.best_move(&pos).unwrap().unwrap();
            assert_eq!(v, Verdict::Win { winner: catchess::core::Color::White, plies: left });
            pos = pos.play(m);
        }
        assert!(pos.in_check() && pos.count_legal_moves() == 0, "{name}: {} is mate", pos.to_fen());
        assert_eq!(verify_all::<ChessRules>(&dir, name), entries);
    }
}

/// The published KPK facts (Nalimov's tables, as listed by the ICGA and on
/// the endgame forums): white to move, the longest win is a mate in 28
/// moves (55 plies) from exactly three positions, Ka2/Kb2/Ka3 with Pg2
/// against kb5; black to move, 28 moves (56 plies) from two, Ka3 Pg2
/// against ka5 or ka6. The table holds each with the pawn mirrored onto
/// the b-file.
#[test]
fn chess_kpk_longest_mates_are_the_published_ones() {
    let dir = chess_tables("kpk", &["KPvK"]);
    let tables = Tablebase::<ChessRules>::open(&dir).unwrap();
    let m = material("KPvK");
    let layout = catchess::tb::probe::layout::<ChessRules>(m);
    let table = tables.table(m).unwrap();
    let s = stats::count::<ChessRules>(&layout, |i| table.code(i));
    assert_eq!(s.longest_by_seat[0].1.as_ref().unwrap().plies, 55);
    assert_eq!(s.longest_by_seat[1].1.as_ref().unwrap().plies, 56);
    let per_seat = layout.len() / 2;
    let longest = |seat: u64, plies: u16| {
        let mut fens: Vec<String> = (seat * per_seat..(seat + 1) * per_seat)
            .filter(|&i| table.verdict(i) == Some(Verdict::Win { winner: catchess::core::Color::White, plies }))
            .map(|i| layout.position::<ChessRules>(&layout.placement(i)).unwrap().to_fen())
            .collect();
        fens.sort();
        fens
    };
    assert_eq!(
        longest(0, 55),
        ["8/8/8/6k1/8/7K/1P6/8 w - - 0 1", "8/8/8/6k1/8/8/1P4K1/8 w - - 0 1", "8/8/8/6k1/8/8/1P5K/8 w - - 0 1"]
    );
    assert_eq!(longest(1, 56), ["8/8/7k/8/8/7K/1P6/8 b - - 0 1", "8/8/8/7k/8/7K/1P6/8 b - - 0 1"]);
    // The positions as published, pawn on g2, probe the same.
    let white = catchess::core::Color::White;
    for (fen, plies) in [
        ("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", 55),
        ("8/8/8/1k6/8/8/1K4P1/8 w - - 0 1", 55),
        ("8/8/8/1k6/8/K7/6P1/8 w - - 0 1", 55),
        ("8/8/8/k7/8/K7/6P1/8 b - - 0 1", 56),
        ("8/8/k7/8/8/K7/6P1/8 b - - 0 1", 56),
    ] {
        let pos = Position::<ChessRules>::from_fen(fen).unwrap();
        assert_eq!(tables.probe(&pos).unwrap().verdict, Verdict::Win { winner: white, plies }, "{fen}");
    }
}

#[test]
fn chess_pawn_tables_are_consistent_with_their_moves() {
    let dir = chess_tables("pawns", &["KPvK", "KvKP"]);
    for name in ["KQvK", "KRvK", "KvKQ", "KvKR", "KPvK", "KvKP"] {
        assert!(verify_all::<ChessRules>(&dir, name) > 40_000, "{name}");
    }
}

/// A Cat Chess table with one cat (a legal Cat-FEN, RULES.md §9): every
/// rule of the cats at work, small enough to build and check in seconds.
fn one_cat_table(name: &str) -> (Layout, Vec<u16>) {
    let layout = Layout::new(material(name), 1, 3);
    let outside = |p: &Position<CatChessRules>| {
        // Only captures leave these tables: two bare kings, the cats' win.
        assert_eq!(
            p.by_color(catchess::core::Color::White).count() + p.by_color(catchess::core::Color::Black).count(),
            2
        );
        Some(Verdict::Draw)
    };
    let codes =
        generate::<CatChessRules>(&Settings { layout, outside: &outside, threads: 2, bar: Bar::Quiet }).unwrap();
    (layout, codes)
}

#[test]
fn cat_chess_one_cat_tables_are_consistent_with_their_moves() {
    for name in ["KQvK", "KvKQ"] {
        let (layout, codes) = one_cat_table(name);
        let checked =
            verify::check::<CatChessRules>(&layout, |i| codes[i as usize], |_| Some(Verdict::Draw), 0..layout.len())
                .unwrap();
        let s = stats::count::<CatChessRules>(&layout, |i| codes[i as usize]);
        eprintln!("{name} one cat: {checked} positions\n{}", s.table(true));
        assert!(checked > 3_000_000, "{name}: {checked}");
        assert!(s.seats.iter().all(|(_, c)| c.draw > 0), "the cats hold somewhere");
    }
}

/// The one-cat tables a pawn table's promotions lead to, and the pawn
/// table itself, in memory: `outside` judges a position after a capture
/// or promotion from the one-cat queen and rook tables (a minor piece or
/// two bare kings: nobody can mate, the cats' win).
struct OneCatPawnTables {
    queen: (Layout, TableData),
    rook: (Layout, TableData),
    pawn: (Layout, TableData),
}

fn one_cat_verdict(tables: &[&(Layout, TableData)], p: &Position<CatChessRules>) -> Option<Verdict> {
    let Ok(m) = Material::of(p) else { return None };
    let Some((layout, codes)) = tables.iter().find(|(l, _)| l.material == m) else {
        return (!m.can_mate()).then_some(Verdict::Draw);
    };
    codes.verdict(layout.index(&layout.placement_of(p))?)
}

fn one_cat_pawn_tables(name: &str) -> OneCatPawnTables {
    let pawn: Material = material(name);
    let color = pawn.extra.unwrap().color;
    let with = |role| Material { extra: Some(catchess::games::chess::Piece { color, role }) };
    let build = |m: Material, outside: &catchess::tb::generate::Outside<CatChessRules>| {
        let layout = Layout::new(m, 1, 3);
        let settings = Settings { layout, outside, threads: 2, bar: Bar::Quiet };
        (layout, TableData::pack(&generate::<CatChessRules>(&settings).unwrap()))
    };
    let bare = |p: &Position<CatChessRules>| one_cat_verdict(&[], p);
    let queen = build(with(catchess::games::chess::Role::Queen), &bare);
    let rook = build(with(catchess::games::chess::Role::Rook), &bare);
    let start = std::time::Instant::now();
    let promoted = |p: &Position<CatChessRules>| one_cat_verdict(&[&queen, &rook], p);
    let pawn = build(pawn, &promoted);
    eprintln!("{name} one cat: {} entries in {:.1}s", pawn.0.len(), start.elapsed().as_secs_f64());
    OneCatPawnTables { queen, rook, pawn }
}

#[test]
fn cat_chess_one_cat_pawn_tables_are_consistent_with_their_moves() {
    for name in ["KPvK", "KvKP"] {
        let t = one_cat_pawn_tables(name);
        let (layout, data) = &t.pawn;
        let outside = |p: &Position<CatChessRules>| one_cat_verdict(&[&t.queen, &t.rook], p);
        let checked = verify::check::<CatChessRules>(layout, |i| data.code(i), outside, 0..layout.len()).unwrap();
        let s = stats::count::<CatChessRules>(layout, |i| data.code(i));
        eprintln!("{name} one cat: {checked} positions\n{}", s.table(true));
    }
}

/// The full Cat Chess tables, made by `catchess tb generate --variant
/// catchess --material all --dir DIR` (minutes each; see the README):
/// a random sample of every table's entries checked against their moves.
/// `CATCHESS_TB_DIR=DIR cargo test --test tb -- --ignored`.
#[test]
#[ignore = "needs the full Cat Chess tables: set CATCHESS_TB_DIR"]
fn full_cat_chess_tables_agree_with_their_moves_on_a_random_sample() {
    use rand::{Rng, SeedableRng};
    let dir = std::env::var("CATCHESS_TB_DIR").expect("CATCHESS_TB_DIR must name the tables' directory");
    let dir = std::path::Path::new(&dir);
    let tables = Tablebase::<CatChessRules>::open(dir).unwrap();
    let present = tables.present();
    for needed in ["KQvK", "KvKQ", "KRvK", "KvKR"] {
        assert!(present.contains(&material(needed)), "{needed} missing in {}", dir.display());
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(43);
    for m in present {
        let layout = catchess::tb::probe::layout::<CatChessRules>(m);
        let table = tables.table(m).unwrap();
        let sample: Vec<u64> = (0..1_000_000).map(|_| rng.gen_range(0..layout.len())).collect();
        let outside = |p: &Position<CatChessRules>| tables.verdict(p).ok().map(|(v, _)| v);
        let checked = verify::check::<CatChessRules>(&layout, |i| table.code(i), outside, sample).unwrap();
        eprintln!("{m}: {checked} positions of the sample checked");
        assert!(checked > 500_000, "{m}: {checked}");
    }
}

/// Issue #60: each variant's files have their own names, so a folder holds
/// both; a table under the old name (`KQvK.cctb`) belongs to the variant
/// its header names.
#[test]
fn each_variant_finds_its_own_files_and_an_old_name_by_its_header() {
    use catchess::tb::names::{self, Located};
    let kqk = material("KQvK");
    assert_eq!(names::table("catchess", kqk), "KQvK.catchess.cctb");
    assert_eq!(names::stats("chess", kqk), "KQvK.chess.json");
    let dir = chess_tables("names", &["KQvK"]);
    let named = dir.join("KQvK.chess.cctb");
    assert_eq!(names::locate(&dir, "chess", kqk), Located::Named(named.clone()));
    assert_eq!(names::locate(&dir, "catchess", kqk), Located::Missing { other: None });
    assert_eq!(Tablebase::<ChessRules>::open(&dir).unwrap().present(), [kqk]);
    assert!(Tablebase::<CatChessRules>::open(&dir).unwrap().present().is_empty());

    let old = dir.join("KQvK.cctb");
    std::fs::rename(&named, &old).unwrap();
    assert_eq!(names::locate(&dir, "chess", kqk), Located::OldName(old.clone()));
    assert_eq!(names::locate(&dir, "catchess", kqk), Located::Missing { other: Some((old.clone(), "chess".into())) });
    let chess = Tablebase::<ChessRules>::open(&dir).unwrap();
    let pos = Position::<ChessRules>::from_fen("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1").unwrap();
    assert_eq!(chess.probe(&pos).unwrap().verdict, Verdict::Win { winner: catchess::core::Color::White, plies: 19 });
    let cat = Tablebase::<CatChessRules>::open(&dir).unwrap();
    assert!(cat.present().is_empty());
    let why = cat.table(kqk).err().unwrap();
    assert!(why.contains("no table file") && why.ends_with(&format!("{} is the chess table", old.display())), "{why}");
}

/// Issue #60: what `tb generate` says of files under the old names, each
/// attributed by its content: statistics with a cats seat are Cat Chess's
/// even beside a chess table (the old names let one overwrite the other).
#[test]
fn old_named_files_are_attributed_by_their_content() {
    use catchess::tb::names::old_name_notes;
    let kqk = material("KQvK");
    let dir = chess_tables("old-names", &["KQvK"]);
    let shown = |name: &str| dir.join(name).display().to_string();
    std::fs::rename(dir.join("KQvK.chess.cctb"), dir.join("KQvK.cctb")).unwrap();
    // Statistics as a Cat Chess table's are written: a count per seat.
    let seats = [Side::White, Side::Black, Side::Cats].map(|s| (s, stats::Counts::default())).to_vec();
    let cat_stats = stats::Stats { seats, longest: None, longest_by_seat: vec![] };
    std::fs::write(dir.join("KQvK.json"), cat_stats.to_json(true).to_string()).unwrap();
    assert_eq!(
        old_name_notes(&dir, kqk),
        [
            format!(
                "note: {} is the chess table under its old name; give it its own: mv {} {}",
                shown("KQvK.cctb"),
                shown("KQvK.cctb"),
                shown("KQvK.chess.cctb")
            ),
            format!(
                "note: {} is the catchess statistics under its old name; give it its own: mv {} {}",
                shown("KQvK.json"),
                shown("KQvK.json"),
                shown("KQvK.catchess.json")
            ),
        ]
    );
    // A header whose variant is no name is not taken for one: the advice
    // names files in the folder, never a path elsewhere.
    let mut table = std::fs::read(dir.join("KQvK.cctb")).unwrap();
    table[16..32].copy_from_slice(b"../../elsewhere\0");
    std::fs::write(dir.join("KQvK.cctb"), &table).unwrap();
    let notes = old_name_notes(&dir, kqk);
    assert!(notes[0].contains("the header's variant \"../../elsewhere\" is not a name"), "{notes:?}");
    assert!(!notes[0].contains("mv "), "{notes:?}");
    // Neither a table nor statistics this program wrote: said, left alone.
    std::fs::write(dir.join("KQvK.cctb"), [0u8; 100]).unwrap();
    std::fs::write(dir.join("KQvK.json"), "[1, 2]").unwrap();
    let notes = old_name_notes(&dir, kqk);
    assert!(notes[0].contains("bad magic") && notes[0].contains("KQvK.cctb"), "{notes:?}");
    assert!(
        notes[1].contains("KQvK.json") && notes[1].contains("no \"positions\"") && notes[1].ends_with("left alone"),
        "{notes:?}"
    );
    assert_eq!(notes.len(), 2);
    assert!(dir.join("KQvK.cctb").exists() && dir.join("KQvK.json").exists());
}
