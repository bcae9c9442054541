//! Reading a text file whose name comes from the user (a PGN, an opening
//! book, a perft suite, a state file): at most a given size, so that a
//! huge file or an endless device (`/dev/zero`, a pipe) is an error, not
//! a read without end. The one bounded reader every command uses.

use std::io::Read;

/// The text of `path` if it holds at most `limit` bytes of UTF-8. The
/// error says why not, without the path (callers say what they read).
pub fn read_bounded(path: &str, limit: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than {} MiB", limit >> 20));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded() {
        let path = std::env::temp_dir().join(format!("catchess-files-test-{}", std::process::id()));
        std::fs::write(&path, "x".repeat(2000)).unwrap();
        let p = path.to_str().unwrap();
        assert_eq!(read_bounded(p, 2000).unwrap().len(), 2000);
        assert!(read_bounded(p, 1999).unwrap_err().contains("larger than"));
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(read_bounded(p, 10).unwrap_err(), "not UTF-8 text");
        std::fs::remove_file(&path).unwrap();
        if std::path::Path::new("/dev/zero").exists() {
            assert!(read_bounded("/dev/zero", 1 << 20).is_err());
        }
        assert!(read_bounded("/nonexistent/x", 10).is_err());
    }
}
