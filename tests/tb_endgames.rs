//! The numbers of docs/cat-chess-endgames.md that are not in the tables'
//! statistics files, and its claims checked against the full Cat Chess
//! tables: `CATCHESS_TB_DIR=DIR cargo test --test tb_endgames -- --ignored
//! --nocapture` prints, for each table and seat to move, the positions
//! and the stronger side's wins by the distance from the defending king to
//! the nearer cat, and asserts that a defending king next to a cat is
//! never lost.

use catchess::core::Color;
use catchess::games::chess::{CatChessRules, Side};
use catchess::tb::{Tablebase, Verdict};

/// King distance between two squares (0–63).
fn distance(a: u8, b: u8) -> u8 {
    (a % 8).abs_diff(b % 8).max((a / 8).abs_diff(b / 8))
}

#[test]
#[ignore = "needs the full Cat Chess tables: set CATCHESS_TB_DIR"]
fn a_defending_king_next_to_a_cat_is_never_lost() {
    let dir = std::env::var("CATCHESS_TB_DIR").expect("CATCHESS_TB_DIR must name the tables' directory");
    let tables = Tablebase::<CatChessRules>::open(std::path::Path::new(&dir)).unwrap();
    let present = tables.present();
    assert!(!present.is_empty(), "no tables in {dir}");
    for m in present.into_iter().filter(|m| !m.has_pawn()) {
        let layout = catchess::tb::probe::layout::<CatChessRules>(m);
        let table = tables.table(m).unwrap();
        let strong = m.stronger().unwrap();
        println!("== {m}");
        let per_seat = layout.len() / 3;
        for (s, seat) in [Side::White, Side::Black, Side::Cats].into_iter().enumerate() {
            // [positions, wins of the stronger side] by nearest-cat distance.
            let mut by_distance = [[0u64; 2]; 8];
            for i in s as u64 * per_seat..(s as u64 + 1) * per_seat {
                let Some(v) = table.verdict(i) else { continue };
                let p = layout.placement(i);
                let weak = if strong == Color::White { p.bk } else { p.wk };
                let d = distance(weak, p.cats[0]).min(distance(weak, p.cats[1])) as usize;
                by_distance[d][0] += 1;
                if matches!(v, Verdict::Win { winner, .. } if winner == strong) {
                    by_distance[d][1] += 1;
                }
            }
            println!("-- {} to move", seat.name());
            for (d, [n, w]) in by_distance.iter().enumerate().filter(|(_, [n, _])| *n > 0) {
                println!("  nearest cat {d}: {n} positions, {w} won ({:.2} %)", 100.0 * *w as f64 / *n as f64);
            }
            assert_eq!(by_distance[1][1], 0, "{m}, {} to move: a king next to a cat lost", seat.name());
            assert!(by_distance[1][0] > 0, "{m}: the counts cover the board");
        }
    }
}
