//! Files for a test run to write.

use std::path::PathBuf;

/// A file in this run's directory under cargo's folder for test files
/// (`target/tmp`), named for the test target and the process. Each run
/// leaves its directory there, to look at after a failure: in the build's
/// own folder, which `cargo clean` empties, not in the system's `/tmp`.
pub fn temp(name: &str) -> PathBuf {
    let run = format!("{}-{}", env!("CARGO_CRATE_NAME"), std::process::id());
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(run);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
