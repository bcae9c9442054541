//! Move generation and perft speed: chess, Cat Chess and xiangqi.
//! `cargo bench --bench movegen`; the perft groups report nodes/s as
//! "elements/s".

use catchess::game::perft::perft;
use catchess::{CatChess, Chess, MoveList, Notation, Xiangqi};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const CHESS: &[(&str, &str)] = &[
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
];

const CATCHESS: &[(&str, &str)] = &[
    ("start", "rnbqkbnr/pppppppp/8/7*/*7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("capture-ban", "r1bqkb1r/pppp1ppp/2n2n2/1*2p3/2B1P1*1/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("cats-to-move", "1k6/p7/8/4PpP1/8/2*4*/P7/1K6 c - f6 0 1"),
];

const XIANGQI: &[(&str, &str)] = &[
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("middlegame", "r1bk1abnr/4a4/4c4/4p1p1p/2p6/p7P/2P1PCP2/2R3N2/4A3R/1NB1KABc1 b - - 3 16"),
    ("in-check", "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"),
];

fn generate<G: Notation>(c: &mut Criterion, group: &str, positions: &[(&str, &str)]) {
    let mut g = c.benchmark_group(group);
    for (name, fen) in positions {
        let pos = G::from_fen(fen).unwrap();
        g.bench_function(BenchmarkId::new("legal_moves", name), |b| {
            b.iter(|| {
                let mut list = MoveList::default();
                black_box(&pos).legal_moves(&mut list);
                list.len()
            })
        });
        g.bench_function(BenchmarkId::new("count_legal_moves", name), |b| {
            b.iter(|| black_box(&pos).count_legal_moves())
        });
    }
    g.finish();
}

fn perft_group<G: Notation>(c: &mut Criterion, group: &str, fen: &str, depth: u32) {
    let pos = G::from_fen(fen).unwrap();
    let nodes = perft(&pos, depth);
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(BenchmarkId::new("perft", depth), |b| b.iter(|| perft(black_box(&pos), depth)));
    g.finish();
}

fn benches(c: &mut Criterion) {
    catchess::games::init();
    generate::<Chess>(c, "chess-movegen", CHESS);
    generate::<CatChess>(c, "catchess-movegen", CATCHESS);
    perft_group::<Chess>(c, "chess-perft", CHESS[0].1, 5);
    perft_group::<Chess>(c, "chess-perft-kiwipete", CHESS[1].1, 4);
    perft_group::<CatChess>(c, "catchess-perft", CATCHESS[0].1, 6);
    generate::<Xiangqi>(c, "xiangqi-movegen", XIANGQI);
    perft_group::<Xiangqi>(c, "xiangqi-perft", XIANGQI[0].1, 5);
    perft_group::<Xiangqi>(c, "xiangqi-perft-middlegame", XIANGQI[1].1, 4);
}

criterion_group!(movegen, benches);
criterion_main!(movegen);
