//! The bench node count of every game, pinned (`tests/bench_nodes.rs`;
//! `tests/openbench.rs` reads chess's from a binary built by `make`), and
//! a bench's output read as OpenBench reads it.

/// The node counts, by game; update with the commit that changes them.
pub const BENCH: [(&str, u64); 4] =
    [("chess", 5_020_904), ("xiangqi", 3_494_367), ("catchess", 4_779_713), ("catschess10", 118_213)];

/// What OpenBench's client does with a bench's output (Client/bench.py,
/// `parse_stream_output`): from the last line up, non-alphanumerics become
/// spaces, and the first `nodes searched N` and `nodes second N` found are
/// the bench and the speed.
pub fn openbench_parse(out: &str) -> (Option<u64>, Option<u64>) {
    let junk = regex::Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps = regex::Regex::new(r"(?i)(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)").unwrap();
    let bench = regex::Regex::new(r"(?i)(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)").unwrap();
    let digits = regex::Regex::new(r"\d+").unwrap();
    let number = |m: regex::Match| digits.find(m.as_str()).unwrap().as_str().parse::<u64>().unwrap();
    let (mut n, mut s) = (None, None);
    for line in out.trim().lines().rev() {
        let line = junk.replace_all(line, " ");
        s = s.or_else(|| nps.find(&line).map(number));
        n = n.or_else(|| bench.find(&line).map(number));
    }
    (n, s)
}
