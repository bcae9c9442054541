//! The clock commands of PGN comments (the PGN specification's
//! supplement, as lichess and ChessBase write them): `[%clk 0:04:58]`, the
//! mover's clock after its move, and `[%emt 0:00:03.2]`, the time the move
//! took. Written by the web app's records, read by `pgn stats`.

use std::time::Duration;

/// A clock reading as a `%clk` command: `[%clk 0:04:58]`, with tenths when
/// there are any (`[%clk 0:00:09.5]`).
pub fn clock_command(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let (h, m, s, t) = (tenths / 36_000, tenths / 600 % 60, tenths / 10 % 60, tenths % 10);
    if t == 0 {
        format!("[%clk {h}:{m:02}:{s:02}]")
    } else {
        format!("[%clk {h}:{m:02}:{s:02}.{t}]")
    }
}

/// The clock of a comment's `%clk` command, if it has a readable one.
pub fn read_clock(comment: &str) -> Option<Duration> {
    command(comment, "%clk").and_then(hms)
}

/// The move time of a comment's `%emt` command, if it has a readable one.
pub fn read_elapsed(comment: &str) -> Option<Duration> {
    command(comment, "%emt").and_then(hms)
}

/// The argument of `[<name> <arg>]` in a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let at = comment.find(&format!("[{name} "))?;
    let rest = &comment[at + name.len() + 2..];
    Some(rest[..rest.find(']')?].trim())
}

/// `h:mm:ss`, `m:ss` or `ss`, each with an optional fraction of a second.
fn hms(text: &str) -> Option<Duration> {
    let mut seconds = 0.0f64;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let ok = !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit() || (last && b == b'.'));
        if !ok {
            return None;
        }
        seconds = seconds * 60.0 + part.parse::<f64>().ok()?;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_are_written_and_read_back() {
        for ms in [0, 9_500, 298_000, 3_600_000, 4_000_100] {
            let text = clock_command(Duration::from_millis(ms));
            assert_eq!(read_clock(&format!("+0.3/9 {text}")), Some(Duration::from_millis(ms / 100 * 100)), "{text}");
        }
        assert_eq!(clock_command(Duration::from_millis(298_040)), "[%clk 0:04:58]");
        assert_eq!(clock_command(Duration::from_millis(9_500)), "[%clk 0:00:09.5]");
        assert_eq!(read_elapsed("[%emt 0:00:03.25] [%clk 1:00:00]"), Some(Duration::from_millis(3250)));
        assert_eq!(read_clock("[%emt 0:00:03.25] [%clk 1:00:00]"), Some(Duration::from_secs(3600)));
        for bad in
            ["[%clk]", "[%clk 1:2:3:4]", "[%clk -1]", "[%clk 1e9]", "[%clk 0:0x]", "[%clk 5", "%clk 5", "[%clk é]"]
        {
            assert_eq!(read_clock(bad), None, "{bad}");
        }
    }
}
