//! The page in a real browser: `tests/browser/play_games.py` drives
//! headless Chromium through selenium against a server started here on a
//! loopback port and plays every game by clicks as a person would: Cat
//! Chess (clicks, a drag, the zones, the move list stepped with the arrow
//! keys, a reload finding the same game), Cat's Chess 10×10 turns built
//! step by step (a teleport, a neutral's move, a cat and a mouse), xiangqi
//! (characters from the page's own font, and letters), and chess with a
//! clock that runs out, a rematch with the seats turned, a resignation and
//! a level picker. Screenshots go to `target/tmp/browser/`. The page's
//! requests pass the server's Host and Origin checks.
//!
//! It needs Debian's `chromium` and `chromium-driver` and Python selenium
//! (`.ci/run` installs them). Without them the test is **SKIPPED**; with
//! the environment variable `CI` set it FAILS instead (`common/skipping.rs`).

mod common;
use common::skipping;

use catchess::serve::{spawn, Config};
use std::path::Path;
use std::process::{Command, ExitCode};

const TESTS: &[(&str, fn())] = &[("the_page_plays_every_game_in_chromium", the_page_plays_every_game_in_chromium)];

const INSTALL: &str = "apt-get install chromium chromium-driver && python3 -m pip install selenium";

fn browser_available() -> bool {
    let selenium =
        Command::new("python3").args(["-c", "import selenium.webdriver"]).output().is_ok_and(|o| o.status.success());
    selenium && Path::new("/usr/bin/chromium").exists() && Path::new("/usr/bin/chromedriver").exists()
}

fn the_page_plays_every_game_in_chromium() {
    // The engine's moves take the server's default time (1 s).
    let server = spawn(Config { host: "127.0.0.1".into(), port: 0, ..Config::default() }).expect("the server starts");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("python3")
        .args(["tests/browser/play_games.py", &format!("http://{}/", server.addr), dir.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "browser test failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("browser test passed"), "{stdout}");
    for name in ["catchess.png", "catschess10.png", "xiangqi.png", "chess-resigned.png"] {
        let shot = dir.join(name);
        assert!(shot.exists(), "no screenshot at {}", shot.display());
    }
    println!("screenshots: {}", dir.display());
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
