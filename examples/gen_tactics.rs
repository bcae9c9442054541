//! Finds tactical positions for the suites in `tests/data` and prints them in
//! the suites' EPD format, each with a `# why:` line written from the
//! brute-force analysis.
//!
//! ```text
//! cargo run --profile test --example gen_tactics -- catchess [--seed N] [--seconds S]
//! cargo run --profile test --example gen_tactics -- chess    [--seed N] [--seconds S]
//! ```
//!
//! A fresh output is checked like the suites before it replaces one:
//! `TACTICS_SUITES=new.epd cargo test --test catchess_tactics`. Positions the engine
//! failed are never dropped by a regeneration: a suite keeps them in a
//! section at its end.
//!
//! An example program rather than an ignored test: it is a tool one runs on
//! purpose, with arguments, printing a file to keep; it shares the solver
//! with the tests (`tests/common/solver.rs`), so a position is labelled by
//! exactly the code that later checks the label.
//!
//! Where positions come from:
//! * games from the start and from varied chess positions (cats dropped on
//!   random empty squares), played by biased random playouts (captures and
//!   checks preferred) or by the engine at depth 1-3 with some random moves;
//! * the same positions with the cats placed on purpose: next to the only
//!   defenders of a check, so the capture ban takes the defence away
//!   (`;cat 1` mates), or near the king and the mating piece with the cats
//!   to move (cats-save), or near the mated king (black mates the cats
//!   might try to break).
//!
//! Every candidate is classified by the brute-force solver; only positions
//! whose answer set has 1 to 3 moves and that are not trivial (a mate in n
//! has no mate in n-1; a mate in 1 has checks that fail beside it; the cats
//! have moves that fail) are kept. The engine plays no part in choosing
//! them: the suites test it.

#[allow(dead_code)]
#[path = "../tests/common/cat_claim.rs"]
mod cat_claim;
#[allow(dead_code)]
#[path = "../tests/common/solver.rs"]
mod solver;

use cat_claim::{only_because_of_z, without_cats};
use catchess::core::{Bitboard, Color, Square};
use catchess::games::chess::position::{Position, Variant};
use catchess::games::chess::types::{Piece, Role, Side};
use catchess::games::chess::{Move, MoveKind};
use catchess::search::{Limits, SearchControl, SearchGame, Searcher};
use catchess::{CatChess, Chess, Game, History, MoveList, Notation, Seat};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use solver::{cat_saves, forced_mates, has_forced_mate, mates, names};
use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

/// Chess positions games start from besides the initial position: open
/// games, closed games, attacks on castled kings, endgames. (No "Kiwipete":
/// with cats added, the engine's quiescence search can take a minute on
/// its positions even at depth 1-2; see `engine_choice`.)
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
    "4r1k1/pp3ppp/8/3q4/8/1P3N2/P4PPP/2RQ2K1 w - - 0 1",
    "2r3k1/5ppp/p3p3/1p6/3n4/P3B1P1/1P3P1P/2R3K1 w - - 0 25",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r4rk1/pp3ppp/2n5/2bq4/8/2N5/PPQ2PPP/R1B2RK1 w - - 0 14",
    "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "r1bqk2r/pppp1Npp/2n2n2/2b1p3/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 0 5",
];

/// What to find: kind (with `+cat` for `;cat 1` mates) and how many.
const CATCHESS_QUOTAS: &[(&str, usize)] = &[
    ("white-m1+cat", 4),
    ("white-m1", 4),
    ("black-m1", 7),
    ("white-m2", 5),
    ("white-m3", 3),
    ("black-m2", 3),
    ("cats-save", 7),
];
const CHESS_QUOTAS: &[(&str, usize)] = &[("chess-m1", 3), ("chess-m2", 4), ("chess-m3", 3)];

struct Entry {
    kind: &'static str,
    fen: String,
    answers: Vec<String>,
    depth: u32,
    cat: bool,
    why: String,
}

/// A game in progress: where it came from, for the `why` line.
#[derive(Clone)]
struct Origin {
    game: usize,
    /// Index in `STARTS` of the game's start position.
    start: usize,
    how: String,
    /// Set while classifying a position whose cats were placed on purpose.
    placed: Option<&'static str>,
}

struct Finder {
    rng: StdRng,
    quotas: Vec<(&'static str, usize)>,
    found: BTreeMap<&'static str, Vec<Entry>>,
    seen: HashSet<String>,
    /// Kinds already found in the current game: one of each per game.
    this_game: HashSet<&'static str>,
    origin: Origin,
    /// Entries per (slot, start position): at most `PER_START` each.
    per_start: BTreeMap<(&'static str, usize), usize>,
    /// Entries one game may give (at most one per kind): positions of one
    /// game look alike.
    per_game: usize,
}

/// Entries of one kind from one start position: keeps the suite varied.
const PER_START: usize = 1;

impl Finder {
    fn need(&self, kind: &str) -> bool {
        let want = self.quotas.iter().find(|q| q.0 == kind).map_or(0, |q| q.1);
        self.found.get(kind).map_or(0, Vec::len) < want
            && !self.this_game.contains(kind)
            && self.this_game.len() < self.per_game
    }

    fn done(&self) -> bool {
        self.quotas.iter().all(|&(k, n)| self.found.get(k).map_or(0, Vec::len) >= n)
    }

    fn fresh(&mut self, fen: &str) -> bool {
        // Placement and side to move: clocks and rights do not make a new puzzle.
        let key: String = fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
        self.seen.insert(key)
    }

    fn add(&mut self, slot: &'static str, mut e: Entry) {
        let from_start = (slot, self.origin.start);
        let used = self.per_start.get(&from_start).copied().unwrap_or(0);
        if !self.need(slot) || used >= PER_START || !plausible(&e.fen) || !self.fresh(&e.fen) {
            return;
        }
        self.per_start.insert(from_start, used + 1);
        let placed = self.origin.placed.map(|p| format!("; {p}")).unwrap_or_default();
        e.why = format!("{} [found: game {}, {}{placed}]", e.why, self.origin.game, self.origin.how);
        eprintln!("{slot:14} {} ;bm {}", e.fen, e.answers.join(" "));
        self.this_game.insert(slot);
        self.found.entry(slot).or_default().push(e);
    }
}

/// No promotion freaks: at most one queen, two rooks, bishops and knights
/// and eight pawns a side (random playouts promote freely).
fn plausible(fen: &str) -> bool {
    let placement = fen.split(' ').next().unwrap_or("");
    let count = |c: char| placement.chars().filter(|&x| x == c).count();
    "QRBNP".chars().all(|c| {
        let limit = match c {
            'Q' => 1,
            'P' => 8,
            _ => 2,
        };
        count(c) <= limit && count(c.to_ascii_lowercase()) <= limit
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = "catchess".to_string();
    let (mut seed, mut seconds) = (1u64, 600u64);
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--seed" => seed = args[i + 1].parse().expect("--seed N"),
            "--seconds" => seconds = args[i + 1].parse().expect("--seconds S"),
            v => {
                variant = v.to_string();
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let quotas = if variant == "chess" { CHESS_QUOTAS } else { CATCHESS_QUOTAS };
    let mut f = Finder {
        rng: StdRng::seed_from_u64(seed),
        quotas: quotas.to_vec(),
        found: BTreeMap::new(),
        seen: HashSet::new(),
        this_game: HashSet::new(),
        origin: Origin { game: 0, start: 0, how: String::new(), placed: None },
        per_start: BTreeMap::new(),
        per_game: if variant == "chess" { 1 } else { 2 },
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut game = 0;
    while !f.done() && Instant::now() < deadline {
        game += 1;
        f.this_game.clear();
        if variant == "chess" {
            run_game::<catchess::games::chess::ChessRules>(&mut f, game);
        } else {
            run_game::<catchess::games::chess::CatChessRules>(&mut f, game);
        }
        if game % 20 == 0 {
            let counts: Vec<String> =
                f.quotas.iter().map(|&(k, n)| format!("{k} {}/{n}", f.found.get(k).map_or(0, Vec::len))).collect();
            eprintln!("-- game {game}: {}", counts.join(", "));
        }
    }
    print_suite(&f, &variant, seed, game);
}

fn print_suite(f: &Finder, variant: &str, seed: u64, games: usize) {
    if variant == "chess" {
        println!("# Standard chess mates, our own suite; every answer set verified by brute force (tests/catchess_tactics.rs).");
        println!("# Each puzzle: '# why:' line, then  <fen> ;kind K ;bm <all correct moves> ;depth D");
        println!("# chess-mN: the side to move mates in N of its own moves against every defence, and in no fewer;");
        println!("# depth = plies of the forced line (2N-1).");
    } else {
        println!(
            "# Cat Chess tactical puzzles, our own suite; every answer set verified by brute force (tests/catchess_tactics.rs)."
        );
        println!("# Each puzzle: '# why:' line, then  <cat-fen> ;kind K ;bm <all correct moves> ;depth D [;cat 1]");
        println!("# white-mN / black-mN: the side to move mates in N of its own moves whatever the other side and the");
        println!(
            "# cats reply (every cat step and the pass), and in no fewer.  ;cat 1 = a white mate in 1 that exists"
        );
        println!("# only because of Z: in chess (cats off) the same move is met only by captures that Z forbids.");
        println!("# cats-save: cats to move, white threatens mate in 1, bm = the cat moves after which white has no");
        println!("# mate in 1.  depth = plies of the forced line (white-mN 3N-2, black-mN 3N-1, cats-save 2).");
    }
    println!("# Written by examples/gen_tactics.rs {variant} --seed {seed} ({games} games; the engine's moves");
    println!("# have a time limit, so a rerun may find other positions).");
    for &(slot, _) in &f.quotas {
        for e in f.found.get(slot).into_iter().flatten() {
            println!("# why: {}", e.why);
            let cat = if e.cat { " ;cat 1" } else { "" };
            println!("{} ;kind {} ;bm {} ;depth {}{cat}", e.fen, e.kind, e.answers.join(" "), e.depth);
        }
    }
}

// ---------------------------------------------------------------------------
// Games

/// A start position: a chess position from `STARTS`; in Cat Chess with the
/// cats on a4 and h5 when those are free and it is the initial position,
/// else on two random empty squares.
fn random_start<V: Variant>(rng: &mut StdRng) -> (usize, Position<V>) {
    loop {
        let index = rng.gen_range(0..STARTS.len());
        let fen = STARTS[index];
        if !V::CATS {
            return (index, Position::from_fen(fen).expect("a valid start"));
        }
        if index == 0 && rng.gen_bool(0.5) {
            return (index, Position::startpos());
        }
        let board = Chess::from_fen(fen).expect("a valid start");
        let empty: Vec<Square> = Square::all().filter(|&s| board.piece_at(s).is_none()).collect();
        let a = *empty.choose(rng).unwrap();
        let b = *empty.choose(rng).unwrap();
        if a == b {
            continue;
        }
        if let Some(p) = with_cats(&board, &[a, b], board.side_to_move()) {
            return (index, p);
        }
    }
}

/// `pos` with the cats on `cats` (empty squares) and `turn` to move; clocks
/// reset, en passant dropped. `None` if the rules refuse the position.
fn with_cats<V: Variant, W: Variant>(pos: &Position<V>, cats: &[Square], turn: Side) -> Option<Position<W>> {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(file, rank);
            let c = if cats.contains(&sq) {
                if pos.piece_at(sq).is_some() {
                    return None;
                }
                Some('*')
            } else {
                pos.piece_at(sq).map(Piece::char)
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let castling = pos.to_fen().split(' ').nth(2).unwrap().to_string();
    let fen = format!("{} {} {castling} - 0 {}", rows.join("/"), turn.fen_char(), pos.fullmove_number());
    Position::from_fen(&fen).ok()
}

fn legal<G: Game>(pos: &G) -> Vec<G::Move> {
    let mut list = MoveList::default();
    pos.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// A random move, preferring checks and captures (playouts then reach
/// sharp positions instead of shuffling).
fn biased_random<V: Variant>(rng: &mut StdRng, pos: &Position<V>) -> Move {
    let moves = legal(pos);
    if pos.side_to_move() != Side::Cats && rng.gen_bool(0.6) {
        let forcing: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.piece_at(m.to()).is_some() || pos.play(m).in_check() || m.promotion_role().is_some())
            .collect();
        if let Some(&m) = forcing.choose(rng) {
            return m;
        }
    }
    *moves.choose(rng).unwrap()
}

fn engine_choice<G: SearchGame + Notation>(searcher: &mut Searcher<G>, pos: &G, depth: u32) -> G::Move {
    // A fresh table and history for every move, and a time limit: in sharp
    // Cat Chess positions the engine's quiescence search can run for
    // minutes (with a warm searcher even at depth 1, which no limit stops);
    // a known engine problem, reported with the suite.
    searcher.clear();
    let limits = Limits { depth: Some(depth), movetime: Some(Duration::from_millis(300)), ..Default::default() };
    let t = Instant::now();
    let r = searcher.search(&History::new(*pos), &limits, &SearchControl::new(), &mut |_| {});
    if t.elapsed() > Duration::from_secs(2) {
        eprintln!("slow search {:?} depth {depth} {} nodes: {}", t.elapsed(), r.nodes, pos.to_fen());
    }
    r.best.expect("a legal move")
}

/// Plays one game and offers every position on the way to the classifiers.
fn run_game<V: Variant>(f: &mut Finder, game: usize) {
    let (start_index, start): (usize, Position<V>) = random_start(&mut f.rng);
    let style = f.rng.gen_range(0..4);
    let (depth, noise) = match style {
        0 => (0, 1.0),
        1 => (1, 0.3),
        2 => (2, 0.15),
        _ => (3, 0.1),
    };
    let how = if depth == 0 {
        "biased random playout".to_string()
    } else {
        format!("engine depth {depth} with {}% random moves", (noise * 100.0) as u32)
    };
    let from = if start.to_fen().starts_with("rnbqkbnr/pppppppp") { "the start" } else { "a varied start" };
    let mut searcher = Searcher::<Position<V>>::new(2);
    let mut line = vec![start];
    let max_plies = if V::CATS { 150 } else { 100 };
    while line.len() < max_plies {
        let pos = *line.last().unwrap();
        if (pos.side_to_move() != Side::Cats) && (pos.count_legal_moves() == 0 || pos.halfmove_clock() >= 100) {
            break;
        }
        let m = if depth == 0 || f.rng.gen_bool(noise) {
            biased_random(&mut f.rng, &pos)
        } else {
            engine_choice(&mut searcher, &pos, depth)
        };
        line.push(pos.play(m));
    }
    // Deep mates (in 3 for white, in 2 for black) are worth their cost only
    // near the end of a game or one turn cycle before a shallower mate.
    let len = line.len();
    let cycle = if V::CATS { 3 } else { 2 };
    let mut deep: Vec<bool> = (0..len).map(|ply| len - ply <= 14).collect();
    for (ply, pos) in line.iter().enumerate() {
        let n = if pos.side_to_move() == Side::White { 2 } else { 1 };
        if ply >= cycle && pos.side_to_move() != Side::Cats && has_forced_mate(pos, n) {
            deep[ply - cycle] = true;
        }
    }
    for (ply, pos) in line.iter().enumerate() {
        f.origin = Origin { game, start: start_index, how: format!("{how} from {from}, ply {ply}"), placed: None };
        if V::CATS {
            let pos = CatChess::from_fen(&pos.to_fen()).expect("same rules");
            classify_catchess(f, &pos, deep[ply]);
        } else {
            let pos = Chess::from_fen(&pos.to_fen()).expect("same rules");
            classify_chess(f, &pos, deep[ply]);
        }
        if f.done() {
            return;
        }
    }
}

// ---------------------------------------------------------------------------
// Describing moves and lines

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// `Qg4-c8`, `Bh3xc8`, `...Qh1-d1`, `e7-e8=Q`, `O-O`, `cat f4-g5`.
fn describe<V: Variant>(pos: &Position<V>, m: Move) -> String {
    if m.is_pass() {
        return "the cats' pass".into();
    }
    if m.kind() == MoveKind::Cat {
        return format!("cat {}-{}", m.from(), m.to());
    }
    let dots = if pos.side_to_move() == Side::Black { "..." } else { "" };
    if m.kind() == MoveKind::Castle {
        let side = if m.to().file() > m.from().file() { "O-O" } else { "O-O-O" };
        return format!("{dots}{side}");
    }
    let piece = pos.piece_at(m.from()).expect("a piece moves");
    let letter = if piece.role == Role::Pawn { String::new() } else { piece.char().to_ascii_uppercase().to_string() };
    let capture = pos.piece_at(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
    let sep = if capture { 'x' } else { '-' };
    let promo = m.promotion_role().map(|r| format!("={}", r.char().to_ascii_uppercase())).unwrap_or_default();
    format!("{dots}{letter}{}{sep}{}{promo}", m.from(), m.to())
}

/// "a check", "a capture", "a quiet move": what the key move looks like.
fn nature<V: Variant>(pos: &Position<V>, m: Move) -> &'static str {
    let after = pos.play(m);
    let gives_check = match after.side_to_move() {
        Side::Cats => pos.side_to_move().color().is_some_and(|c| after.checkers_of(c.other()).any()),
        _ => after.in_check(),
    };
    if gives_check {
        "a check"
    } else if pos.piece_at(m.to()).is_some() {
        "a capture"
    } else {
        "a quiet move"
    }
}

/// The key moves with what each looks like: `Qd6-f6! (a check)`.
fn keys_with_nature<V: Variant>(pos: &Position<V>, moves: &[Move]) -> String {
    let d: Vec<String> = moves.iter().map(|&m| format!("{}! ({})", describe(pos, m), nature(pos, m))).collect();
    d.join(" or ")
}

/// "all 3 black replies", "the only black reply".
fn replies(n: u64, who: &str) -> String {
    if n == 1 {
        format!("the only {who} reply")
    } else {
        format!("all {n} {who} replies")
    }
}

/// The smallest k ≤ n with a forced mate by `attacker` within k moves.
fn mate_distance<G: Game>(pos: &G, attacker: Seat, n: u32) -> Option<u32> {
    (0..=n).find(|&k| mates(pos, attacker, k))
}

/// A forced line from `pos`: the attacker's quickest mating move, the
/// defenders' most stubborn replies.
fn mate_line<V: Variant>(pos: &Position<V>, n: u32) -> String {
    let attacker = pos.to_move();
    let mut words = Vec::new();
    let mut p = *pos;
    let mut left = n;
    for _ in 0..12 {
        if (p.side_to_move() != Side::Cats) && p.count_legal_moves() == 0 {
            words.push("mate".to_string());
            break;
        }
        let moves = legal(&p);
        let m = if p.to_move() == attacker {
            let best = moves
                .iter()
                .copied()
                .filter_map(|m| mate_distance(&p.play(m), attacker, left - 1).map(|d| (d, m)))
                .min_by_key(|x| x.0);
            let Some((d, m)) = best else { break };
            left = d;
            m
        } else {
            let worst = moves
                .iter()
                .copied()
                .map(|m| (mate_distance(&p.play(m), attacker, left).unwrap_or(u32::MAX), m))
                .max_by_key(|x| x.0);
            let Some((_, m)) = worst else { break };
            m
        };
        words.push(describe(&p, m));
        p = p.play(m);
    }
    words.join(" ")
}

fn checking_moves<V: Variant>(pos: &Position<V>) -> usize {
    legal(pos).into_iter().filter(|&m| pos.play(m).in_check()).count()
}

fn list_moves<V: Variant>(pos: &Position<V>, moves: &[Move]) -> String {
    let d: Vec<String> = moves.iter().map(|&m| describe(pos, m)).collect();
    d.join(" or ")
}

fn cat_next_to(pos: &CatChess, sq: Square) -> Option<Square> {
    pos.cats().iter().find(|&c| ring(c, 1).contains(&sq))
}

/// Squares at king distance ≤ r from `sq` (itself included).
fn ring(sq: Square, r: i8) -> Vec<Square> {
    let mut v = Vec::new();
    for df in -r..=r {
        for dr in -r..=r {
            if let Some(s) = sq.offset(df, dr) {
                v.push(s);
            }
        }
    }
    v
}

// ---------------------------------------------------------------------------
// Cat Chess

fn classify_catchess(f: &mut Finder, pos: &CatChess, deep: bool) {
    match pos.side_to_move() {
        Side::White => {
            let m1 = forced_mates(pos, 1);
            if !m1.is_empty() {
                white_m1(f, pos, &m1);
                if f.need("cats-save") {
                    f.origin.placed = Some("cats placed near the mate, cats to move");
                    for variant in cat_placements_near_mate(f, pos, &m1) {
                        cats_save(f, &variant);
                    }
                    f.origin.placed = None;
                }
            } else if f.need("white-m2") || f.need("white-m3") {
                let m2 = forced_mates(pos, 2);
                if !m2.is_empty() {
                    white_mn(f, pos, 2, &m2);
                } else if deep && f.need("white-m3") {
                    let t = Instant::now();
                    let m3 = forced_mates(pos, 3);
                    if t.elapsed() > Duration::from_millis(500) {
                        eprintln!("slow m3 {:?}: {}", t.elapsed(), pos.to_fen());
                    }
                    white_mn(f, pos, 3, &m3);
                }
            }
            if f.need("white-m1+cat") {
                f.origin.placed = Some("cats placed next to the defenders");
                for variant in cat_placements_disarming_defenders(f, pos) {
                    let m1 = forced_mates(&variant, 1);
                    if !m1.is_empty() {
                        white_m1(f, &variant, &m1);
                    }
                }
                f.origin.placed = None;
            }
        }
        Side::Black => {
            let m1 = forced_mates(pos, 1);
            if !m1.is_empty() {
                black_m1(f, pos, &m1);
                // The same position with a cat near white's king: the
                // cats might break some of the mates.
                if f.need("black-m1") {
                    f.origin.placed = Some("a cat placed near white's king");
                    for _ in 0..6 {
                        let king = pos.king(Color::White);
                        if let Some(v) = move_a_cat_near(f, pos, king, 2, Side::Black) {
                            let m1 = forced_mates(&v, 1);
                            if !m1.is_empty() {
                                black_m1(f, &v, &m1);
                            }
                        }
                    }
                    f.origin.placed = None;
                }
            } else if deep && f.need("black-m2") {
                let m2 = forced_mates(pos, 2);
                if !m2.is_empty() && m2.len() <= 3 {
                    let key = keys_with_nature(pos, &m2);
                    let why = format!(
                        "{key} forces mate on black's next turn whatever white and the cats reply; no mate in 1; e.g. {}",
                        mate_line(pos, 2)
                    );
                    f.add("black-m2", entry("black-m2", pos, &m2, 5, false, why));
                }
            }
        }
        Side::Cats => cats_save(f, pos),
    }
}

fn entry<V: Variant>(
    kind: &'static str,
    pos: &Position<V>,
    answers: &[Move],
    depth: u32,
    cat: bool,
    why: String,
) -> Entry {
    Entry { kind, fen: pos.to_fen(), answers: names(answers), depth, cat, why }
}

fn white_m1(f: &mut Finder, pos: &CatChess, m1: &[Move]) {
    let checks = checking_moves(pos);
    if m1.len() > 3 || checks <= m1.len() || already_in_check(pos) {
        return;
    }
    let fen = pos.to_fen();
    let claims: Vec<Result<Vec<Move>, String>> = m1.iter().map(|m| only_because_of_z(&fen, &m.to_string())).collect();
    let key = list_moves(pos, m1);
    if claims.iter().all(Result::is_ok) {
        // Name the disarmed defenders and the cats that disarm them.
        let chess = Chess::from_fen(&without_cats(&fen)).unwrap();
        let after = chess.play(chess.parse_move(&m1[0].to_string()).unwrap());
        let defences = claims[0].as_ref().unwrap();
        let mut why_not: Vec<String> = Vec::new();
        let mut seen = HashSet::new();
        for &d in defences {
            if !seen.insert(d.from()) {
                continue;
            }
            let role = pos.piece_at(d.from()).unwrap().role;
            let cat = cat_next_to(pos, d.from()).unwrap();
            why_not.push(format!(
                "{} (banned: its {} on {} stands disarmed in Z of the cat on {cat})",
                describe(&after, d),
                role_name(role),
                d.from()
            ));
        }
        let plural = if why_not.len() > 1 { "s" } else { "" };
        let verb = if m1.len() > 1 { "each mate" } else { "mates" };
        let why = format!(
            "{key} {verb} only under cat rules: the plain-chess defence{plural} {}; white has {checks} checking moves",
            why_not.join(", ")
        );
        f.add("white-m1+cat", entry("white-m1", pos, m1, 1, true, why));
        return;
    }
    // The same move in chess, cats off: a mate too, or which defence exists.
    let also = match Chess::from_fen(&without_cats(&fen)) {
        Err(e) => format!(" (with the cats off this is no legal chess position: {e})"),
        Ok(c) => match c.parse_move(&m1[0].to_string()) {
            Err(_) => format!(" (with the cats off {} would be illegal)", describe(pos, m1[0])),
            Ok(cm) => {
                let a = c.play(cm);
                match legal(&a).first() {
                    None => " (also a mate in chess with the cats off)".to_string(),
                    Some(&d) => format!(" (in chess with the cats off {} would answer)", describe(&a, d)),
                }
            }
        },
    };
    let verb = if m1.len() > 1 { "each mate" } else { "mates" };
    let why = format!("{key} {verb}{also}; white has {checks} checking moves");
    f.add("white-m1", entry("white-m1", pos, m1, 1, false, why));
}

fn white_mn(f: &mut Finder, pos: &CatChess, n: u32, sols: &[Move]) {
    if sols.is_empty() || sols.len() > 3 || already_in_check(pos) {
        return;
    }
    let key = keys_with_nature(pos, sols);
    let black = replies(pos.play(sols[0]).count_legal_moves(), "black");
    let why = if n == 2 {
        format!(
            "{key} forces mate on white's next turn against {black} and every cats' reply; no mate in 1; e.g. {}",
            mate_line(pos, 2)
        )
    } else {
        format!(
            "{key} forces mate within three white moves (w b c w b c w) against every defence; no mate in 2; e.g. {}",
            mate_line(pos, n)
        )
    };
    let kind = if n == 2 { "white-m2" } else { "white-m3" };
    f.add(kind, entry(kind, pos, sols, 3 * n - 2, false, why));
}

fn black_m1(f: &mut Finder, pos: &CatChess, m1: &[Move]) {
    if m1.len() > 3 {
        return;
    }
    // A tempting move: one that mates after some cat replies but not all.
    let mut tempter = None;
    for m in legal(pos) {
        if m1.contains(&m) {
            continue;
        }
        let after = pos.play(m);
        let replies = legal(&after);
        let mated: Vec<bool> = replies.iter().map(|&c| has_no_escape(&after.play(c))).collect();
        if mated.iter().any(|&x| x) {
            if let Some(i) = mated.iter().position(|&x| !x) {
                tempter = Some((m, replies[i], mated.iter().filter(|&&x| x).count(), replies.len()));
                break;
            }
        }
    }
    let checks = checking_moves_black(pos);
    let key = list_moves(pos, m1);
    let verb = if m1.len() > 1 { "each mate" } else { "mates" };
    let why = match tempter {
        Some((t, c, good, all)) => {
            let after = pos.play(t);
            let refuted = after.play(c);
            let reason = if !refuted.in_check() {
                let checkers = after.checkers_of(Color::White);
                match checkers.iter().find(|&s| refuted.zone().contains(s)) {
                    Some(s) => format!("disarms the checking piece on {s}"),
                    None => "blocks the check".to_string(),
                }
            } else {
                let escape = legal(&refuted)[0];
                format!("lets white escape with {}", describe(&refuted, escape))
            };
            format!(
                "{key} {verb} whatever the cats reply; the tempting {} (a mate after {good} of the {all} cat replies) fails: {} {reason}",
                describe(pos, t),
                describe(&after, c)
            )
        }
        None if checks > m1.len() + 1 => {
            format!("{key} {verb} whatever the cats reply (no cat step breaks it); black has {checks} checking moves")
        }
        None => return,
    };
    f.add("black-m1", entry("black-m1", pos, m1, 2, false, why));
}

/// White to move with black's king already attacked (a cat step exposed
/// it): every white move then "checks", a puzzle about nothing.
fn already_in_check(pos: &CatChess) -> bool {
    pos.side_to_move() == Side::White && pos.checkers_of(Color::Black).any()
}

/// Whether the side to move, judged here, is mated.
fn has_no_escape(pos: &CatChess) -> bool {
    (pos.side_to_move() != Side::Cats) && pos.in_check() && pos.count_legal_moves() == 0
}

/// Black moves that leave white's king attacked by an armed piece.
fn checking_moves_black(pos: &CatChess) -> usize {
    legal(pos).into_iter().filter(|&m| pos.play(m).checkers_of(Color::White).any()).count()
}

fn cats_save(f: &mut Finder, pos: &CatChess) {
    if !f.need("cats-save") {
        return;
    }
    let moves = legal(pos);
    if moves.len() < 4 {
        return;
    }
    // Keep the question pure: no cat move ends the game at once.
    if moves.iter().any(|&c| pos.play(c).count_legal_moves() == 0) {
        return;
    }
    let saves = cat_saves(pos);
    if saves.is_empty() || saves.len() > 3 || saves.len() == moves.len() {
        return;
    }
    // The threat: the mating move that follows most of the failing cat moves.
    let mut threats: BTreeMap<String, (usize, Move, CatChess)> = BTreeMap::new();
    for &c in moves.iter().filter(|c| !saves.contains(c)) {
        let after = pos.play(c);
        for m in forced_mates(&after, 1) {
            let e = threats.entry(describe(&after, m)).or_insert((0, m, after));
            e.0 += 1;
        }
    }
    let (threat, (_, tm, _)) = threats.iter().max_by_key(|(_, v)| v.0).unwrap();
    let s = saves[0];
    let after = pos.play(s);
    let reason = match after.parse_move(&tm.to_string()) {
        Err(_) => format!("{threat} is no longer possible"),
        Ok(m) => {
            let a = after.play(m);
            if !a.in_check() {
                format!("{threat} gives no check")
            } else {
                let reply = legal(&a)[0];
                format!("{threat} is met by {}", describe(&a, reply))
            }
        }
    };
    let which = list_moves(pos, &saves);
    let others: Vec<&String> = threats.keys().filter(|k| *k != threat).collect();
    let also = if others.is_empty() {
        String::new()
    } else {
        format!(" (other cat moves allow {} too)", others.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "))
    };
    let why = format!(
        "white threatens {threat} mate{also}; only {which} of the {} cat moves stops every mate (after {}, {reason})",
        moves.len(),
        describe(pos, s)
    );
    f.add("cats-save", entry("cats-save", pos, &saves, 2, false, why));
}

/// The position with one cat (chosen at random) moved to a random empty
/// square within `r` of `target`, `turn` to move.
fn move_a_cat_near(f: &mut Finder, pos: &CatChess, target: Square, r: i8, turn: Side) -> Option<CatChess> {
    let cats: Vec<Square> = pos.cats().iter().collect();
    let keep: Vec<Square> = if cats.len() == 2 { vec![cats[f.rng.gen_range(0..2)]] } else { cats.clone() };
    let near: Vec<Square> = ring(target, r).into_iter().filter(|&s| pos.piece_at(s).is_none()).collect();
    let new = *near.choose(&mut f.rng)?;
    let mut placed = keep;
    if placed.contains(&new) {
        return None;
    }
    placed.push(new);
    with_cats(pos, &placed, turn)
}

/// Cats-to-move variants of a position where white mates in 1: one cat
/// near the black king or the mating piece, the other kept.
fn cat_placements_near_mate(f: &mut Finder, pos: &CatChess, m1: &[Move]) -> Vec<CatChess> {
    let mut out = Vec::new();
    let targets = [pos.king(Color::Black), m1[0].to(), m1[0].from()];
    for _ in 0..8 {
        let t = *targets.choose(&mut f.rng).unwrap();
        if let Some(v) = move_a_cat_near(f, pos, t, 2, Side::Cats) {
            out.push(v);
        }
    }
    out
}

/// The `;cat 1` construction: in chess (cats off) find a check whose only
/// defences are captures by one or two pieces, then put the cats next to
/// those pieces, so the capture ban leaves black without a defence.
fn cat_placements_disarming_defenders(f: &mut Finder, pos: &CatChess) -> Vec<CatChess> {
    let Ok(chess) = Chess::from_fen(&without_cats(&pos.to_fen())) else { return Vec::new() };
    let mut out = Vec::new();
    for m in legal(&chess) {
        let after = chess.play(m);
        if !after.in_check() {
            continue;
        }
        let defences = legal(&after);
        if defences.is_empty() || !defences.iter().all(|d| after.by_color(Color::White).contains(d.to())) {
            continue;
        }
        let defenders: Bitboard = defences.iter().map(|d| d.from()).collect();
        if defenders.count() > 2 || defenders.contains(after.king(Color::Black)) {
            continue;
        }
        let d: Vec<Square> = defenders.iter().collect();
        let free = |s: &Square| chess.piece_at(*s).is_none();
        let near0: Vec<Square> = ring(d[0], 1).into_iter().filter(free).collect();
        let mut pairs = Vec::new();
        if d.len() == 1 {
            let empty: Vec<Square> = Square::all().filter(free).collect();
            for &a in &near0 {
                let b = *empty.choose(&mut f.rng).unwrap();
                pairs.push(vec![a, b]);
                pairs.push(vec![a]);
            }
        } else {
            let near1: Vec<Square> = ring(d[1], 1).into_iter().filter(free).collect();
            for &a in &near0 {
                for &b in &near1 {
                    pairs.push(if a == b { vec![a] } else { vec![a, b] });
                }
            }
        }
        for cats in pairs {
            // Two cats as in the game: fill a lone placement with a far cat.
            let cats = if cats.len() == 1 {
                let far: Vec<Square> = Square::all().filter(|s| free(s) && !ring(cats[0], 1).contains(s)).collect();
                vec![cats[0], *far.choose(&mut f.rng).unwrap()]
            } else {
                cats
            };
            if let Some(v) = with_cats(&chess, &cats, Side::White) {
                out.push(v);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Chess

fn classify_chess(f: &mut Finder, pos: &Chess, deep: bool) {
    let m1 = forced_mates(pos, 1);
    if !m1.is_empty() {
        let checks = checking_moves(pos);
        if m1.len() <= 3 && checks > m1.len() {
            let key = list_moves(pos, &m1);
            let why = format!("standard chess: {key} mates; {checks} checking moves");
            f.add("chess-m1", entry("chess-m1", pos, &m1, 1, false, why));
        }
        return;
    }
    if !f.need("chess-m2") && !f.need("chess-m3") {
        return;
    }
    let m2 = forced_mates(pos, 2);
    if !m2.is_empty() {
        if m2.len() <= 3 {
            let key = keys_with_nature(pos, &m2);
            let them = if pos.side_to_move() == Side::White { "black" } else { "white" };
            let all = replies(pos.play(m2[0]).count_legal_moves(), them);
            let why = format!(
                "standard chess: {key} mates next move against {all}; no mate in 1; e.g. {}",
                mate_line(pos, 2)
            );
            f.add("chess-m2", entry("chess-m2", pos, &m2, 3, false, why));
        }
        return;
    }
    if deep && f.need("chess-m3") {
        let m3 = forced_mates(pos, 3);
        if !m3.is_empty() && m3.len() <= 3 {
            let key = keys_with_nature(pos, &m3);
            let why = format!(
                "standard chess: {key} mates in 3 against every defence; no mate in 2; e.g. {}",
                mate_line(pos, 3)
            );
            f.add("chess-m3", entry("chess-m3", pos, &m3, 5, false, why));
        }
    }
}
