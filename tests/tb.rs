//! The endgame tables (issue #43): the generator reproduces the published
//! chess facts, and every entry of small tables agrees with its moves by
//! forward search (which proves a table exact: see `catchess::tb::verify`).

mod common;

use catchess::games::chess::{CatChessRules, ChessRules, Position, Variant};
use catchess::tb::generate::{generate, Settings};
use catchess::tb::index::Layout;
use catchess::tb::progress::Bar;
use catchess::tb::stats;
use catchess::tb::{generate_to_dir, verify, Material, Tablebase, Verdict};
use common::temp::temp;

fn material(name: &str) -> Material {
    name.parse().unwrap()
}

/// Generates the chess tables into a fresh directory.
fn chess_tables(materials: &[&str]) -> std::path::PathBuf {
    let dir = temp(&format!("chess-{}", materials.join("-")));
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
    let dir = chess_tables(&["KQvK", "KRvK"]);
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

#[test]
fn chess_pawn_tables_are_consistent_with_their_moves() {
    let dir = chess_tables(&["KPvK", "KvKP"]);
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
