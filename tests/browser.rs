//! The page in a real browser: `tests/browser/play_catchess.py` drives
//! headless Chromium through selenium against a server started here on a
//! loopback port, plays the first moves of a Cat Chess game by clicking
//! and dragging, checks the zones and the move list, saves a screenshot
//! to `target/browser/catchess.png`, and reloads the page to find the same
//! game. The page's requests pass the server's Host and Origin checks.
//!
//! It needs Debian's `chromium` and `chromium-driver` and Python selenium
//! (`.ci/run` installs them). Without them the test is **SKIPPED**; with
//! the environment variable `CI` set it FAILS instead (`common/skipping.rs`).

mod common;
use common::skipping;

use catchess::serve::{spawn, Config};
use std::path::Path;
use std::process::{Command, ExitCode};

const TESTS: &[(&str, fn())] = &[("the_page_plays_cat_chess_in_chromium", the_page_plays_cat_chess_in_chromium)];

const INSTALL: &str = "apt-get install chromium chromium-driver && python3 -m pip install selenium";

fn browser_available() -> bool {
    let selenium =
        Command::new("python3").args(["-c", "import selenium.webdriver"]).output().is_ok_and(|o| o.status.success());
    selenium && Path::new("/usr/bin/chromium").exists() && Path::new("/usr/bin/chromedriver").exists()
}

fn the_page_plays_cat_chess_in_chromium() {
    // Quick engine moves keep the test short; the page's own limits apply.
    let server = spawn(Config { host: "127.0.0.1".into(), port: 0, ..Config::default() }).expect("the server starts");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("catchess.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new("python3")
        .args(["tests/browser/play_catchess.py", &format!("http://{}/", server.addr), shot.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "browser test failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("browser test passed"), "{stdout}");
    assert!(shot.exists(), "no screenshot at {}", shot.display());
    println!("screenshot: {}", shot.display());
}

fn main() -> ExitCode {
    skipping::run(
        TESTS,
        &skipping::Requirement {
            what: "chromium, chromium-driver and selenium",
            install: INSTALL,
            available: browser_available,
        },
    )
}
