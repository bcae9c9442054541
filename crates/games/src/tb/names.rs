//! The names of the tables' files, and finding a table's file in a folder.
//!
//! A table and its statistics are named by material and variant:
//! `KQvK.catchess.cctb` and `KQvK.catchess.json`, `KQvK.chess.cctb` and
//! `KQvK.chess.json`. So one folder holds both games' tables of one
//! material, as Syzygy's suffixes (`.rtbw`, `.atbw`, …) let one folder hold
//! the tables of chess and of its variants. The variant is spelt in full,
//! as `--variant`, `UCI_Variant` and the table's own header spell it
//! (`Variant::NAME`), rather than as a suffix of its own: the name says
//! what the header says, anyone reading a listing sees which game a file
//! belongs to, and a new game with tables needs no new suffix invented.
//!
//! Before issue #60 the names had no variant (`KQvK.cctb`, `KQvK.json`), so
//! the second game's table of a material overwrote the first's. A table
//! under its old name is still read, but only for the variant its header
//! names: the header decides, and [`super::file::read`] checks it again on
//! every read, so an old chess table never answers a Cat Chess probe.
//! Where a table is under both names the new one is read. `tb generate`
//! writes the new names only and says what to do with old ones
//! ([`old_name_notes`]).

use super::file;
use super::material::Material;
use std::path::{Path, PathBuf};

/// The file of `variant`'s table of `material`: `KQvK.catchess.cctb`.
pub fn table(variant: &str, material: Material) -> String {
    format!("{material}.{variant}.cctb")
}

/// The file of its statistics: `KQvK.catchess.json`.
pub fn stats(variant: &str, material: Material) -> String {
    format!("{material}.{variant}.json")
}

/// A table's name before the variant was in it: `KQvK.cctb`.
fn old_table(material: Material) -> String {
    format!("{material}.cctb")
}

/// Its statistics' name then: `KQvK.json`.
fn old_stats(material: Material) -> String {
    format!("{material}.json")
}

/// Where a variant's table of one material is in a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Located {
    /// Under its name.
    Named(PathBuf),
    /// Under its old name only, the file's header naming this variant, or
    /// a header that cannot be read, so that reading the file reports why
    /// rather than the table being silently missing.
    OldName(PathBuf),
    /// Nowhere. `other` is a file under the old name that holds another
    /// variant's table (that variant, as its header says), worth naming in
    /// the error.
    Missing { other: Option<(PathBuf, String)> },
}

impl Located {
    /// The file to read, if there is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Located::Named(p) | Located::OldName(p) => Some(p),
            Located::Missing { .. } => None,
        }
    }
}

/// Finds `variant`'s table of `material` in `dir`: under its name, else
/// under its old name if that file is this variant's.
pub fn locate(dir: &Path, variant: &str, material: Material) -> Located {
    let named = dir.join(table(variant, material));
    if named.is_file() {
        return Located::Named(named);
    }
    let old = dir.join(old_table(material));
    if !old.is_file() {
        return Located::Missing { other: None };
    }
    match file::variant_of(&old) {
        Ok(owner) if owner != variant => Located::Missing { other: Some((old, owner)) },
        _ => Located::OldName(old),
    }
}

/// What `tb generate` says, once a table and statistics of `material` are
/// written under their names, about the files of that material in `dir`
/// under the old names: each belongs to the variant its
/// content says (a table's header; statistics with a cats seat are Cat
/// Chess's), and can be deleted if that variant's file under the new name
/// exists (it is the one read), else renamed (`mv` and both names). A file
/// that cannot be read or attributed is said so and left alone.
pub fn old_name_notes(dir: &Path, material: Material) -> Vec<String> {
    let mut notes = Vec::new();
    let old = dir.join(old_table(material));
    if old.is_file() {
        match file::variant_of(&old) {
            Ok(owner) => notes.push(note(&old, "table", &dir.join(table(&owner, material)), &owner)),
            Err(e) => notes.push(format!("note: {e} (a table's old name): delete it, or make that table again")),
        }
    }
    let old = dir.join(old_stats(material));
    if old.is_file() {
        match super::stats::variant_of_json_file(&old) {
            Ok(owner) => notes.push(note(&old, "statistics", &dir.join(stats(owner, material)), owner)),
            Err(e) => notes.push(format!("note: {} has the statistics' old name but {e}: left alone", old.display())),
        }
    }
    notes
}

/// The advice for one old-named file of `owner`'s whose new name is `new`.
fn note(old: &Path, what: &str, new: &Path, owner: &str) -> String {
    let shown = old.display();
    if new.is_file() {
        format!(
            "note: {shown} is the {owner} {what} under its old name; {} is the one now, so {shown} can be deleted",
            new.display()
        )
    } else {
        format!("note: {shown} is the {owner} {what} under its old name; give it its own: {}", rename_command(old, new))
    }
}

/// `mv OLD NEW`, each name quoted where a shell needs it.
pub fn rename_command(old: &Path, new: &Path) -> String {
    let quoted = |p: &Path| {
        let name = p.to_string_lossy();
        shlex::try_quote(&name).map_or_else(|_| name.to_string(), |q| q.into_owned())
    };
    format!("mv {} {}", quoted(old), quoted(new))
}
