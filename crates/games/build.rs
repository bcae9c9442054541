//! Chooses the chess network built into the engine (`chess/nnue`'s
//! `BUILT_IN_FILE`): the file `CATCHESS_EVALFILE` names (the Makefile's
//! `EVALFILE=`, as OpenBench passes a network to build in), or else the
//! project's own `src/chess/correction.nnue`. It is read with the engine's
//! own reader (`src/nnue/file.rs`), so that a file the engine would
//! refuse fails the build, saying why, rather than the engine at run time.

#[allow(dead_code)]
#[path = "src/nnue/file.rs"]
mod file;

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=CATCHESS_EVALFILE");
    let chosen = std::env::var_os("CATCHESS_EVALFILE").filter(|v| !v.is_empty());
    let path = match &chosen {
        Some(file) => PathBuf::from(file),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/chess/correction.nnue"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    let what = if chosen.is_some() { "CATCHESS_EVALFILE (EVALFILE=)" } else { "the built-in network" };
    let fail = |why: String| -> ! {
        eprintln!("error: {what} {}: {why}", path.display());
        std::process::exit(1)
    };
    let bytes = std::fs::read(&path).unwrap_or_else(|e| fail(e.to_string()));
    if let Err(why) = file::Network::from_bytes(&file::CHESS, &bytes) {
        fail(why);
    }
    let path = path.canonicalize().unwrap_or_else(|e| fail(e.to_string()));
    println!("cargo:rustc-env=CATCHESS_BUILT_IN_NETWORK={}", path.display());
}
