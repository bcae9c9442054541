//! `catchess bench`: each game's fixed positions (`SearchGame::BENCH`, every
//! seat to move), each searched to a fixed depth from a cleared table. With
//! one thread the node count is the same on every machine and every run,
//! so it fingerprints the search (a change that alters it changes the
//! search), and nodes per second measures its speed.

use crate::game::History;
use crate::games::with_game;
use crate::games::Playable;
use crate::games::VariantKind;
use crate::search::{Limits, SearchControl, Searcher};
use std::time::{Duration, Instant};

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

fn bench_game<G: Playable>(variant: VariantKind, depth: Option<u32>, hash_mb: usize, threads: usize) -> BenchReport {
    let depth = depth.unwrap_or(G::BENCH_DEPTH);
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_threads(threads);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let control = SearchControl::new();
    let mut report = BenchReport { variant, depth, nodes: 0, time: Duration::ZERO, per_position: Vec::new() };
    for fen in G::BENCH {
        let pos = G::from_fen(fen).expect("bench positions are valid (a test checks them)");
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
    with_game!(variant, G => bench_game::<G>(variant, depth, hash_mb, threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Seat};
    use crate::search::SearchGame;

    fn seats_to_move<G: Playable>() -> Vec<Seat> {
        let mut seats: Vec<Seat> = G::BENCH.iter().map(|f| G::from_fen(f).unwrap().to_move()).collect();
        seats.sort();
        seats.dedup();
        seats
    }

    #[test]
    fn bench_positions_parse_and_cover_every_seat_to_move() {
        for &v in VariantKind::ALL {
            let (seats, all) = with_game!(v, G => (seats_to_move::<G>(), G::SEATS.len()));
            assert_eq!(seats.len(), all, "{v}");
        }
    }

    #[test]
    fn the_node_count_is_deterministic_with_one_thread() {
        let a = run(VariantKind::CatChess, Some(4), 4, 1);
        let b = run(VariantKind::CatChess, Some(4), 4, 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.per_position.len(), crate::games::CatChess::BENCH.len());
        let c = run(VariantKind::Chess, Some(5), 4, 1);
        assert_eq!(c.nodes, run(VariantKind::Chess, Some(5), 4, 1).nodes);
    }
}
