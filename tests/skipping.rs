//! The harness of the tests that need programs outside Rust
//! (`common/skipping.rs`): a skip names what is missing, and only that.

#[allow(dead_code)]
#[path = "common/skipping.rs"]
mod skipping;

use skipping::{missing, not_installed, Requirement};

const CHROMIUM: Requirement = Requirement { what: "chromium", install: "apt-get install chromium", available: || true };
const DRIVER: Requirement =
    Requirement { what: "chromium-driver", install: "apt-get install chromium-driver", available: || false };
const SELENIUM: Requirement =
    Requirement { what: "selenium", install: "python3 -m pip install selenium", available: || false };

#[test]
fn a_skip_names_only_what_is_missing() {
    let needs = [CHROMIUM, SELENIUM];
    assert_eq!(not_installed(&missing(&needs)), "selenium not installed (python3 -m pip install selenium)");
}

#[test]
fn a_skip_names_each_of_several_missing() {
    let needs = [DRIVER, CHROMIUM, SELENIUM];
    assert_eq!(
        not_installed(&missing(&needs)),
        "chromium-driver and selenium not installed (apt-get install chromium-driver; python3 -m pip install selenium)"
    );
}

#[test]
fn nothing_is_missing_when_every_need_is_met() {
    assert!(missing(&[CHROMIUM]).is_empty());
}
