//! The text of a game's weights file: the one place its evaluation
//! weights live, written back by `catchess tune` with the command that
//! produced them.

use catchess_core::Tapered;
use std::fmt::Write;

/// A Rust source file declaring `pub const WEIGHTS: [Tapered; N]`, one
/// comment per group (`(name, first index, length)`, in order and covering
/// every weight), `per_line` weights a line; `about` opens its doc comment.
pub fn weights_file(
    about: &str,
    groups: &[(&str, usize, usize)],
    per_line: usize,
    w: &[Tapered],
    command: &str,
) -> String {
    let mut s = String::new();
    for line in about.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    let _ = writeln!(s, "//!\n//! Written by:\n//!\n//! ```text\n//! {command}\n//! ```\n//!");
    let _ = writeln!(s, "//! Edit by hand only to start a tuning run from other values.\n");
    let _ = writeln!(s, "use catchess_core::Tapered;\n");
    let _ = writeln!(s, "const fn t(mg: i32, eg: i32) -> Tapered {{\n    Tapered::new(mg, eg)\n}}\n");
    let _ = writeln!(s, "#[rustfmt::skip]\npub const WEIGHTS: [Tapered; {}] = [", w.len());
    for &(name, first, len) in groups {
        let _ = writeln!(s, "    // {name}");
        for row in w[first..first + len].chunks(per_line) {
            let cells: Vec<String> = row.iter().map(|v| format!("t({}, {})", v.mg, v.eg)).collect();
            let _ = writeln!(s, "    {},", cells.join(", "));
        }
    }
    let _ = writeln!(s, "];");
    s
}
