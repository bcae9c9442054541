//! Endgame table files for the tests: the chess tables made by the command
//! (under a second each), and a Cat Chess table written in the real
//! format by the library, since making a real one takes a minute and
//! 715 MiB (README, "Endgame tables").

use catchess::games::chess::{CatChessRules, Variant};
use catchess::tb::file::{self, TableData};
use catchess::tb::value::code;
use catchess::tb::{probe, Material, Verdict};
use std::path::{Path, PathBuf};

/// Makes the chess tables of `materials` in `dir` with `catchess tb
/// generate`; returns what it printed.
pub fn generate_chess(dir: &Path, materials: &[&str]) -> String {
    let mut said = String::new();
    for m in materials {
        let (ok, out, err) = super::run::catchess(&[
            "tb",
            "generate",
            "--variant",
            "chess",
            "--material",
            m,
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        said.push_str(&out);
    }
    said
}

/// Writes the Cat Chess table of `material` into `dir` under the name
/// `tb generate` gives it, every entry holding `verdict`: a result no real
/// table has everywhere, so an answer of `verdict` can only have come
/// from this file. Its 236 MiB are for [`remove`] when the test is done.
pub fn uniform_cat_chess_table(dir: &Path, material: &str, verdict: Verdict) -> PathBuf {
    let material: Material = material.parse().unwrap();
    let layout = probe::layout::<CatChessRules>(material);
    let entry = u8::try_from(code::encode(verdict)).expect("a short win fits one byte");
    let data = TableData { entry_bytes: 1, bytes: vec![entry; layout.len() as usize] };
    file::write(dir, CatChessRules::NAME, &layout, &data).unwrap()
}

/// Removes the files of a folder whose name ends in `.cctb`: the large
/// ones, not left in `target/tmp` by a test that passed.
pub fn remove(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "cctb") {
            std::fs::remove_file(&path).unwrap();
        }
    }
}
