//! The layers are the crates ARCHITECTURE.md draws: every crate of the
//! workspace is in its table, and the `catchess-*` crates each one's
//! `Cargo.toml` depends on are among those its row says it may use. (Cargo
//! already refuses a cycle; this also refuses a front end using another,
//! such as the web app using the protocol, which would compile.)

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// Crate name -> the crates it may use, from ARCHITECTURE.md's table
/// (`| `catchess-x` (...) | what | may use | rule |`).
fn allowed() -> BTreeMap<String, Option<BTreeSet<String>>> {
    let text = fs::read_to_string(Path::new(REPO).join("ARCHITECTURE.md")).unwrap();
    let mut rows = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("| `catchess")) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let name = cells[0].trim_start_matches("| `").split('`').next().unwrap().to_string();
        let may = cells[2].trim();
        let set = match may {
            "—" => Some(BTreeSet::new()),
            "every crate" => None,
            list => Some(list.split(", ").map(|c| format!("catchess-{c}")).collect()),
        };
        rows.insert(name, set);
    }
    rows
}

/// The `catchess-*` crates a manifest's `[dependencies]` (and
/// `[target.….dependencies]`) name; dev-dependencies are not layers.
fn depends_on(manifest: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let mut section = String::new();
    let mut deps = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
        } else if (section == "[dependencies]"
            || (section.starts_with("[target.") && section.ends_with(".dependencies]")))
            && line.starts_with("catchess-")
        {
            deps.insert(line.split([' ', '=', '.']).next().unwrap().to_string());
        }
    }
    deps
}

fn package_name(manifest: &Path) -> String {
    let text = fs::read_to_string(manifest).unwrap();
    let line = text.lines().find(|l| l.starts_with("name = ")).expect("a package name");
    line.trim_start_matches("name = ").trim_matches('"').to_string()
}

#[test]
fn every_crate_uses_only_the_layers_architecture_md_allows_it() {
    let allowed = allowed();
    let mut manifests = vec![Path::new(REPO).join("Cargo.toml")];
    for entry in fs::read_dir(Path::new(REPO).join("crates")).unwrap() {
        manifests.push(entry.unwrap().path().join("Cargo.toml"));
    }
    let names: BTreeSet<String> = manifests.iter().map(|m| package_name(m)).collect();
    let drawn: BTreeSet<String> = allowed.keys().cloned().collect();
    assert_eq!(names, drawn, "the workspace's crates and ARCHITECTURE.md's table differ");
    let mut failures = Vec::new();
    for manifest in &manifests {
        let name = package_name(manifest);
        let Some(may) = &allowed[&name] else { continue };
        for dep in depends_on(manifest) {
            if !may.contains(&dep) {
                failures.push(format!("{name} depends on {dep}, which ARCHITECTURE.md does not allow it"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_manifest_reader_sees_a_forbidden_dependency() {
    let dir = std::env::temp_dir().join(format!("catchess-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("Cargo.toml");
    let text = "[package]\nname = \"catchess-serve\"\n\n[dependencies]\ncatchess-uci = { path = \"../uci\" }\n\
        catchess-game.workspace = true\nrand = \"1\"\n\n[dev-dependencies]\ncatchess-games = { path = \"../games\" }\n";
    fs::write(&manifest, text).unwrap();
    let deps = depends_on(&manifest);
    assert_eq!(deps, ["catchess-game", "catchess-uci"].map(String::from).into());
    assert!(!allowed()["catchess-serve"].as_ref().unwrap().contains("catchess-uci"));
    fs::remove_dir_all(&dir).unwrap();
}
