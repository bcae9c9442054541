//! `catchess bench`: a fixed set of positions of every variant and every
//! side to move, each searched to a fixed depth from a cleared table. With
//! one thread the node count is the same on every machine and every run,
//! so it fingerprints the search (a change that alters it changes the
//! search), and nodes per second measures its speed.

use crate::game::History;
use crate::games::VariantKind;
use crate::search::{Limits, SearchControl, SearchGame, Searcher};
use crate::with_game;
use std::time::{Duration, Instant};

/// Default depth (plies) per variant: a few seconds for the whole bench.
pub fn default_depth(variant: VariantKind) -> u32 {
    match variant {
        VariantKind::CatChess => 11,
        VariantKind::Chess => 16,
        VariantKind::Xiangqi => 16,
    }
}

/// The bench positions of a variant: openings, middlegames and endings,
/// with every side to move.
pub fn positions(variant: VariantKind) -> &'static [&'static str] {
    match variant {
        VariantKind::CatChess => &[
            "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r*2k2r/ppppp1*p/8/8/8/8/PPP3PP/5RK1 b kq - 0 1",
            "1k6/p7/8/4PpP1/8/2*4*/P7/1K6 c - f6 0 1",
            "6k1/5*pp/8/*7/8/1B6/5PPP/6K1 c - - 0 1",
            "2bqkbnr/1p1np1p1/2pp3p/r1P2Q2/pP*P1*2/7P/P2NPPP1/R1B1KBNR c KQk - 1 9",
            "r4b1r/pp3ppp/n2pp**n/6P1/1Pk4N/P1N5/3KPPR1/1RB2B2 w - - 2 16",
            "rn2kb1r/pp2pp1p/7p/2pp1b2/P*Q3P*/2PP3N/1q2PP1P/RN2KB1R b KQkq a3 0 9",
            "8/2P2k2/3Q4/4p2N/2*P2p1/P*Q1PP2/5KP1/3q4 w - - 0 37",
            "r2q1rk1/pp2bppp/2n1pn2/*2p4/3P1B2/2NBPN*1/PP3PPP/R2Q1RK1 b - - 3 10",
        ],
        VariantKind::Chess => &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2NBPN2/PP3PPP/R2Q1RK1 b - - 3 10",
            "2r3k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/2R3K1 b - - 0 25",
            "8/8/4k3/3p4/3P1K2/8/8/8 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
        ],
        VariantKind::Xiangqi => &[
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bk1abnr/4a4/4c4/4p1p1p/2p6/p7P/2P1PCP2/2R3N2/4A3R/1NB1KABc1 b - - 3 16",
            "r1bak1b1r/9/5an1c/2p1p4/p1P3p1p/4P4/P5PCP/2R6/2C1A3N/RNBAK1c2 b - - 1 16",
            "1nbcka1n1/8r/5C3/p1p3p2/P5bcP/9/2P1p1P2/N7B/4A1R2/2BAK2N1 b - - 13 41",
            "2bakab1r/9/2n4cn/p1p1p1p1p/9/9/P1P1P1P1P/RcC5B/4A4/1NBK1A1NR w - - 1 9",
            "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 5",
        ],
    }
}

/// The outcome of one variant's bench.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub variant: VariantKind,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// (position, nodes) in order.
    pub per_position: Vec<(&'static str, u64)>,
}

fn bench_game<G: SearchGame>(variant: VariantKind, depth: u32, hash_mb: usize, threads: usize) -> BenchReport {
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_threads(threads);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let control = SearchControl::new();
    let mut report = BenchReport { variant, depth, nodes: 0, time: Duration::ZERO, per_position: Vec::new() };
    for fen in positions(variant) {
        let pos = G::from_fen(fen).expect("bench positions are valid");
        searcher.clear();
        let started = Instant::now();
        let result = searcher.search(&History::new(pos), &limits, &control, &mut |_| {});
        report.time += started.elapsed();
        report.nodes += result.nodes;
        report.per_position.push((fen, result.nodes));
    }
    report
}

/// Runs the bench of `variant` (its default depth unless given).
pub fn run(variant: VariantKind, depth: Option<u32>, hash_mb: usize, threads: usize) -> BenchReport {
    let depth = depth.unwrap_or_else(|| default_depth(variant));
    with_game!(variant, G => bench_game::<G>(variant, depth, hash_mb, threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CatChess, Chess};

    #[test]
    fn bench_positions_parse_and_cover_every_side_to_move() {
        let sides = |fens: &[&str]| {
            let mut s: Vec<char> = fens.iter().map(|f| f.split(' ').nth(1).unwrap().chars().next().unwrap()).collect();
            s.sort();
            s.dedup();
            s
        };
        for fen in positions(VariantKind::CatChess) {
            CatChess::from_fen(fen).unwrap();
        }
        for fen in positions(VariantKind::Chess) {
            Chess::from_fen(fen).unwrap();
        }
        assert_eq!(sides(positions(VariantKind::CatChess)), ['b', 'c', 'w']);
        assert_eq!(sides(positions(VariantKind::Chess)), ['b', 'w']);
    }

    #[test]
    fn the_node_count_is_deterministic_with_one_thread() {
        let a = run(VariantKind::CatChess, Some(4), 4, 1);
        let b = run(VariantKind::CatChess, Some(4), 4, 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.per_position.len(), positions(VariantKind::CatChess).len());
        let c = run(VariantKind::Chess, Some(5), 4, 1);
        assert_eq!(c.nodes, run(VariantKind::Chess, Some(5), 4, 1).nodes);
    }
}
