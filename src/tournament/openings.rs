//! Where games start: positions from an EPD or FEN file, and random plies
//! played from there, reproducible from a seed.

use crate::game::{Game, History};
use crate::moves::MoveList;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A FEN from one line of an EPD or FEN file: a full FEN (six fields,
/// anything after ignored) or EPD (four fields, then `;`-separated
/// operations, of which `hmvc` and `fmvn` fill the clocks). `None` for a
/// blank or `#` comment line.
pub fn line_fen(line: &str) -> Option<String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    let is_number = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    if fields.len() >= 6 && is_number(4) && is_number(5) {
        return Some(fields[..6].join(" "));
    }
    let head = fields.iter().take(4).copied().collect::<Vec<_>>().join(" ");
    let ops = fields.get(4..).map(|rest| rest.join(" ")).unwrap_or_default();
    let op = |name: &str| {
        ops.split(';')
            .map(str::trim)
            .find_map(|o| o.strip_prefix(name).map(|v| v.trim().trim_end_matches(';').to_string()))
    };
    let hmvc = op("hmvc ").unwrap_or_else(|| "0".into());
    let fmvn = op("fmvn ").unwrap_or_else(|| "1".into());
    Some(format!("{head} {hmvc} {fmvn}"))
}

/// The largest opening file `--openings` reads.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

/// A text file of at most `limit` bytes (a longer one, or an endless
/// device, is an error rather than a read without end).
pub fn read_bounded(path: &str, limit: u64) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than {} MiB", limit >> 20));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// Every position in an opening file, checked with the game's FEN parser.
pub fn load<G: Game>(path: &str) -> Result<Vec<G>, String> {
    let text = read_bounded(path, MAX_BOOK_BYTES).map_err(|e| format!("cannot read openings {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(fen) = line_fen(line) {
            let pos = G::from_fen(&fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            out.push(pos);
        }
    }
    if out.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    Ok(out)
}

/// A random number generator for opening `index` of a match seeded `seed`
/// (SplitMix64 of both, so neighbouring indices are unrelated).
pub fn rng_for(seed: u64, index: u64) -> StdRng {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    StdRng::seed_from_u64(z ^ (z >> 31))
}

/// `plies` uniformly random legal moves from `start` that do not end the
/// game; a line that ends it early is thrown away and drawn again.
pub fn random_line<G: Game>(start: &G, plies: usize, rng: &mut StdRng) -> Result<Vec<G::Move>, String> {
    if plies == 0 {
        return Ok(Vec::new());
    }
    for _ in 0..1000 {
        let mut h = History::new(*start);
        for _ in 0..plies {
            if h.outcome().is_some() {
                break;
            }
            let mut list = MoveList::default();
            h.current().legal_moves(&mut list);
            let m = list.as_slice()[rng.gen_range(0..list.len())];
            h.push(m);
        }
        if h.moves().len() == plies && h.outcome().is_none() {
            return Ok(h.moves().to_vec());
        }
    }
    Err(format!("found no {plies}-ply random opening from {} that leaves the game going", start.to_fen()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{CatChess, Chess};

    #[test]
    fn epd_and_fen_lines() {
        assert_eq!(line_fen("  # comment"), None);
        assert_eq!(line_fen(""), None);
        assert_eq!(
            line_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ;D1 20").as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        );
        assert_eq!(
            line_fen("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"x\"; hmvc 7; fmvn 30;").as_deref(),
            Some("4k3/8/8/8/8/8/8/4K3 w - - 7 30")
        );
        assert_eq!(line_fen("4k3/8/8/8/8/8/8/4K3 w - -").as_deref(), Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    }

    #[test]
    fn book_reads_are_bounded() {
        let path = std::env::temp_dir().join(format!("catchess-book-test-{}", std::process::id()));
        std::fs::write(&path, "x".repeat(2000)).unwrap();
        let p = path.to_str().unwrap();
        assert_eq!(read_bounded(p, 2000).unwrap().len(), 2000);
        assert!(read_bounded(p, 1999).unwrap_err().contains("larger than"));
        std::fs::remove_file(&path).unwrap();
        if std::path::Path::new("/dev/zero").exists() {
            assert!(read_bounded("/dev/zero", 1 << 20).is_err());
        }
    }

    #[test]
    fn random_lines_are_legal_reproducible_and_unfinished() {
        let a = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 0)).unwrap();
        let b = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 0)).unwrap();
        let c = random_line(&CatChess::startpos(), 9, &mut rng_for(7, 1)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut h = History::new(CatChess::startpos());
        for m in &a {
            h.push_text(&m.to_string()).unwrap();
        }
        assert!(h.outcome().is_none());
        // Bare kings: every line ends at once (insufficient material).
        let bare = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(random_line(&bare, 0, &mut rng_for(1, 0)).is_ok());
        assert!(random_line(&bare, 2, &mut rng_for(1, 0)).is_err());
    }
}
