//! Reading a text file whose name comes from the user (a PGN, an opening
//! book, a perft suite, a state file): at most a given size, so that a
//! huge file or an endless device (`/dev/zero`, a pipe) is an error, not
//! a read without end. The one bounded reader every command uses; and
//! [`read_line`], the same bound for a line of a stream (the protocol's
//! commands, `tb probe`'s FENs).

use std::io::{BufRead, Read};

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

/// The regular file at `path`, opened, with its metadata. Anything else
/// (a device, a pipe, a folder) is refused before it is opened: opening a
/// pipe waits for a writer, and a device's read need never end. Errors
/// name the path.
pub fn open_regular(path: &str) -> Result<(std::fs::File, std::fs::Metadata), String> {
    let cannot = |e: std::io::Error| format!("cannot read {path}: {e}");
    if !std::fs::metadata(path).map_err(cannot)?.is_file() {
        return Err(format!("{path} is not a regular file"));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let metadata = file.metadata().map_err(cannot)?;
    Ok((file, metadata))
}

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// The end of the input, with no line before it.
    End,
    /// A line (its newline left out) is in the buffer.
    Line,
    /// A line of this many bytes, over the limit: consumed and dropped,
    /// the buffer left empty, so that memory stays bounded.
    TooLong(usize),
}

/// Reads one line of at most `limit` bytes into `buf` (bytes, not text:
/// the caller decides what to do with a line that is not UTF-8). A last
/// line without its newline still counts.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, limit: usize) -> std::io::Result<LineRead> {
    buf.clear();
    let mut dropped = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (dropped, buf.is_empty()) {
                (0, true) => LineRead::End,
                (0, false) => LineRead::Line,
                (n, _) => LineRead::TooLong(n),
            });
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], Some(i + 1)),
            None => (available, None),
        };
        if dropped > 0 || buf.len() + chunk.len() > limit {
            dropped += buf.len() + chunk.len();
            buf.clear();
        } else {
            buf.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(available.len());
        input.consume(used);
        if done.is_some() {
            return Ok(if dropped > 0 { LineRead::TooLong(dropped) } else { LineRead::Line });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_an_over_long_one_is_dropped_whole() {
        let mut input = std::io::Cursor::new(b"abc\nxxxxxxxxxx\n\xff\nlast".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"abc");
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::TooLong(10));
        assert!(buf.is_empty());
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, [0xff]);
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf, 5).unwrap(), LineRead::End);
        // A line read in several chunks (a small buffer) is measured whole.
        let mut small = std::io::BufReader::with_capacity(2, std::io::Cursor::new(b"abcdef\nab".to_vec()));
        assert_eq!(read_line(&mut small, &mut buf, 5).unwrap(), LineRead::TooLong(6));
        assert_eq!(read_line(&mut small, &mut buf, 5).unwrap(), LineRead::Line);
        assert_eq!(buf, b"ab");
    }

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
