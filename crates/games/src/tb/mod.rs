//! Endgame tables for Cat Chess and chess (issue #43): every position of a
//! small material set solved by retrograde analysis under the engine's own
//! rules and turn model, stored in files, and probed by the command line,
//! the search and the protocol.
//!
//! The model: every seat to move is a position; white maximises, black
//! minimises, the cats want the result nearest a draw. A result is a winner
//! and the plies (the cats' included) to the end of the game under best
//! play: the winner takes the fastest win, the loser the slowest loss, the
//! cats the slowest win of either side when they cannot hold. Every draw
//! (stalemate, insufficient material, play that never ends) is the cats'
//! win. No castling, no en passant; the fifty-move rule and repetition are
//! ignored, as in classical distance-to-mate tables ([`probe`] applies the
//! half-move clock where a win cannot arrive in time).
//!
//! Modules: [`material`] (which men), [`index`] (positions as numbers,
//! symmetry), [`value`] (results and how each seat chooses), [`generate`]
//! (the retrograde algorithm), [`file`] (the checked file format),
//! [`names`] (the files' names, one per variant, and the old ones),
//! [`probe`] (answers), [`stats`] (what a table says); the command
//! `catchess tb` is the `catchess` package's (`src/tb_cli.rs`).

pub mod engine;
pub mod file;
pub mod generate;
pub mod index;
pub mod material;
pub mod names;
pub mod probe;
pub mod progress;
pub mod stats;
pub mod value;
pub mod verify;

pub use material::Material;
pub use probe::{Probe, Tablebase};
pub use value::Verdict;

use crate::chess::Variant;
use progress::Bar;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// What `generate` made.
pub struct Generated {
    pub material: Material,
    pub path: std::path::PathBuf,
    pub entries: u64,
    pub entry_bytes: u8,
    pub time: Duration,
    pub stats: stats::Stats,
}

/// Generates the table of `material` into `dir` (and first, if their files
/// are missing, the tables its captures and promotions lead to), writes
/// `DIR/<material>.<variant>.json` with its statistics, and says what it
/// does on `log`, and what to do with files of the material under the old
/// names ([`names::old_name_notes`]).
pub fn generate_to_dir<V: Variant>(
    material: Material,
    dir: &Path,
    threads: usize,
    bar: Bar,
    log: &mut dyn Write,
) -> Result<Vec<Generated>, String> {
    if !material.can_mate() {
        return Err(format!(
            "{material} needs no table: nobody can mate, so the game ends at once ({})",
            if V::CATS { "the cats win" } else { "a draw" }
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut made = Vec::new();
    for next in material.successors().into_iter().filter(|m| m.can_mate()) {
        if names::locate(dir, V::NAME, next).path().is_none() {
            let _ = writeln!(log, "{material} needs {next}: generating it first");
            made.extend(generate_to_dir::<V>(next, dir, threads, bar, log)?);
        }
    }
    let tables = Tablebase::<V>::open(dir)?;
    for next in material.successors().into_iter().filter(|m| m.can_mate()) {
        tables.table(next)?;
    }
    let layout = probe::layout::<V>(material);
    let _ = writeln!(log, "generating {} {material}: {} entries, {} threads", V::NAME, layout.len(), threads);
    let start = Instant::now();
    let outside = |child: &crate::chess::Position<V>| tables.verdict(child).ok().map(|(v, _)| v);
    let settings = generate::Settings { layout, outside: &outside, threads, bar };
    let codes = generate::generate::<V>(&settings)?;
    let data = file::TableData::pack(&codes);
    drop(codes);
    let path = file::write(dir, V::NAME, &layout, &data)?;
    let time = start.elapsed();
    let stats = stats::count::<V>(&layout, |i| data.code(i));
    let json = serde_json::to_string_pretty(&stats.to_json(V::CATS)).expect("JSON of numbers and strings");
    file::write_atomically(&dir.join(names::stats(V::NAME, material)), &[json.as_bytes(), b"\n"])?;
    let _ = writeln!(
        log,
        "{material}: {} entries of {} byte(s) in {:.1}s -> {}\n{}",
        layout.len(),
        data.entry_bytes,
        time.as_secs_f64(),
        path.display(),
        stats.table(V::CATS)
    );
    for note in names::old_name_notes(dir, material) {
        let _ = writeln!(log, "{note}");
    }
    made.push(Generated { material, path, entries: layout.len(), entry_bytes: data.entry_bytes, time, stats });
    Ok(made)
}
