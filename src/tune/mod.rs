//! `catchess tune`: fits a game's evaluation weights to the results of
//! games the project played itself (Texel tuning). Positions come from
//! `catchess match` records (`data.rs`); each evaluation is traced as a
//! linear function of the weights (`Evaluate::trace`); `fit.rs` finds
//! the weights whose evaluations best predict the results; `source.rs`
//! writes them back to the game's weights file, with the command.

pub mod data;
pub mod fit;
pub mod source;

use crate::core::Tapered;
use crate::game::{Arbitration, Notation};
use crate::search::SearchGame;
use data::{Filter, Sample};
use fit::Settings;

/// What `catchess tune` is asked to do.
#[derive(Clone, Debug)]
pub struct TuneArgs {
    pub records: Vec<String>,
    pub filter: Filter,
    pub settings: Settings,
    /// Where the new weights file goes (`None`: standard output).
    pub out: Option<String>,
    /// The command line, for the file's header.
    pub command: String,
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub games: usize,
    pub skipped_games: usize,
    pub train: usize,
    pub validation: usize,
    pub k: f64,
    /// Loss before and after on the training and the held-out positions.
    pub train_loss: (f64, f64),
    pub validation_loss: (f64, f64),
    pub weights: Vec<Tapered>,
    /// The weights file's text.
    pub source: String,
    /// The largest changes: (name, old, new).
    pub largest_changes: Vec<(String, Tapered, Tapered)>,
}

/// The positions of one game in this many are held out of the fit to
/// measure it (whole games: positions of one game are alike).
const VALIDATION_EVERY: usize = 10;

/// Reads the records, fits, and returns the new weights (writing them to
/// `args.out` if given). `progress` hears each stage.
pub fn run<G: SearchGame + Notation + Arbitration>(
    args: &TuneArgs,
    mut progress: impl FnMut(&str),
) -> Result<TuneReport, String> {
    let tunable = G::tunable().ok_or_else(|| format!("the {} evaluation has no tunable weights", G::VARIANT))?;
    let mut samples: Vec<Sample> = Vec::new();
    let (mut games, mut skipped_games) = (0, 0);
    for path in &args.records {
        let h = data::read_records::<G>(path, args.filter, games, &mut samples)?;
        progress(&format!("{path}: {} games ({} left out), {} quiet positions", h.games, h.skipped_games, h.positions));
        games += h.games;
        skipped_games += h.skipped_games;
    }
    if samples.len() < 1000 {
        return Err(format!("only {} quiet positions: tuning needs at least 1000 (play more games)", samples.len()));
    }
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for s in samples {
        if s.game % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
            validation.push(s);
        } else {
            train.push(s);
        }
    }
    let old: Vec<(f64, f64)> = tunable.weights.iter().map(|w| (f64::from(w.mg), f64::from(w.eg))).collect();
    let k = fit::fit_k(&train, &old);
    let before = (fit::loss(&train, &old, k), fit::loss(&validation, &old, k));
    progress(&format!("K = {k:.4}; loss {:.6} (held out {:.6})", before.0, before.1));
    let mut fitted = old.clone();
    let kept = fit::fit(&train, &validation, &mut fitted, k, args.settings, |epoch, loss, held| {
        progress(&format!("epoch {epoch}: loss {loss:.6} (held out {held:.6})"));
    });
    progress(&format!("kept the weights of epoch {kept}, where the held-out loss was lowest"));
    let weights: Vec<Tapered> =
        fitted.iter().map(|&(mg, eg)| Tapered::new(mg.round() as i32, eg.round() as i32)).collect();
    let rounded: Vec<(f64, f64)> = weights.iter().map(|w| (f64::from(w.mg), f64::from(w.eg))).collect();
    let after = (fit::loss(&train, &rounded, k), fit::loss(&validation, &rounded, k));
    let mut changes: Vec<(String, Tapered, Tapered)> = (0..weights.len())
        .map(|i| ((tunable.name)(i), tunable.weights[i], weights[i]))
        .filter(|(_, a, b)| a != b)
        .collect();
    changes.sort_by_key(|(_, a, b)| std::cmp::Reverse((a.mg - b.mg).abs() + (a.eg - b.eg).abs()));
    changes.truncate(12);
    let source = (tunable.source)(&weights, &args.command);
    if let Some(out) = &args.out {
        std::fs::write(out, &source).map_err(|e| format!("cannot write {out}: {e}"))?;
    }
    Ok(TuneReport {
        games,
        skipped_games,
        train: train.len(),
        validation: validation.len(),
        k,
        train_loss: (before.0, after.0),
        validation_loss: (before.1, after.1),
        weights,
        source,
        largest_changes: changes,
    })
}
