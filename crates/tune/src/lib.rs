//! `catchess tune`: fits a game's evaluation weights to the results of
//! games the project played itself (Texel tuning). Positions come from
//! `catchess match` records (`data.rs`); each evaluation is traced as a
//! linear function of the weights (`Evaluate::trace`); `fit.rs` finds
//! the weights whose evaluations best predict the results; `source.rs`
//! writes them back to the game's weights file, with the command.
//! [`command`] is `catchess tune`: its settings checked, the fit run and
//! reported. `nnue.rs` learns standard chess's network (`catchess train`),
//! from records or from `catchess datagen` files (`selfplay.rs`).

pub mod data;
pub mod fit;
pub mod nnue;
pub mod selfplay;
pub mod source;

use catchess_core::Tapered;
use catchess_game::{Arbitration, Notation};
use catchess_games::{with_game, VariantKind};
use catchess_search::SearchGame;
use data::{Filter, Sample};
use fit::Settings;

/// What `catchess tune` is asked to do.
#[derive(Clone, Debug)]
pub struct TuneArgs {
    pub records: Vec<String>,
    pub filter: Filter,
    pub settings: Settings,
    /// The share of the game result in each position's target; the rest
    /// is the search's score of the move played there, as a win
    /// expectation (1: results alone, classic Texel tuning).
    pub lambda: f64,
    /// Groups of weights (by name) that keep their values.
    pub freeze: Vec<String>,
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
    /// Loss before and after on the training and the held-out positions
    /// (against the targets), and on the held-out ones against results alone.
    pub train_loss: (f64, f64),
    pub validation_loss: (f64, f64),
    pub validation_result_loss: (f64, f64),
    /// The weights file's text.
    pub source: String,
    /// The largest changes: (name, old, new).
    pub largest_changes: Vec<(String, Tapered, Tapered)>,
}

/// The positions of one game in this many are held out of the fit to
/// measure it (whole games: positions of one game are alike).
const VALIDATION_EVERY: usize = 10;

impl TuneArgs {
    /// The settings a fit can work with.
    pub fn check(&self) -> Result<(), String> {
        let s = &self.settings;
        if !(s.rate > 0.0 && s.rate.is_finite()) || s.epochs == 0 {
            return Err("tune: --rate must be a positive number and --epochs at least 1".to_string());
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err("tune: --lambda must be between 0 and 1".to_string());
        }
        if !(s.prior >= 0.0 && s.prior.is_finite()) {
            return Err("tune: --prior must be a number at least 0".to_string());
        }
        Ok(())
    }
}

/// `catchess tune`: checks the settings, fits `variant`'s weights, and
/// reports on stderr; the weights file goes to `args.out`, or stdout.
pub fn command(variant: VariantKind, args: &TuneArgs) -> Result<(), String> {
    args.check()?;
    let report = with_game!(variant, G => run::<G>(args, |line| eprintln!("{line}")))?;
    eprintln!(
        "{} games ({} left out): {} positions fitted, {} held out; K {:.4}",
        report.games, report.skipped_games, report.train, report.validation, report.k
    );
    eprintln!(
        "loss {:.6} -> {:.6}; held out {:.6} -> {:.6}",
        report.train_loss.0, report.train_loss.1, report.validation_loss.0, report.validation_loss.1
    );
    for (name, old, new) in &report.largest_changes {
        eprintln!("  {name}: {}/{} -> {}/{}", old.mg, old.eg, new.mg, new.eg);
    }
    match &args.out {
        Some(out) => eprintln!("weights written to {out}"),
        None => print!("{}", report.source),
    }
    Ok(())
}

/// Reads the records, fits, and returns the new weights (writing them to
/// `args.out` if given). `progress` hears each stage.
pub fn run<G: SearchGame + Notation + Arbitration>(
    args: &TuneArgs,
    mut progress: impl FnMut(&str),
) -> Result<TuneReport, String> {
    let tunable = G::tunable().ok_or_else(|| format!("the {} evaluation has no tunable weights", G::VARIANT))?;
    let mut frozen = vec![false; tunable.weights.len()];
    for name in &args.freeze {
        let Some(&(_, first, len)) = tunable.groups.iter().find(|g| g.0 == name) else {
            let names: Vec<&str> = tunable.groups.iter().map(|g| g.0).collect();
            return Err(format!("no group of weights named {name:?}; the groups are: {}", names.join(", ")));
        };
        frozen[first..first + len].iter_mut().for_each(|f| *f = true);
    }
    let mut samples: Vec<Sample> = Vec::new();
    let (mut games, mut skipped_games, mut read) = (0, 0, 0);
    let mut seen = std::collections::HashSet::new();
    for path in &args.records {
        let h = data::read_records::<G, _>(path, args.filter, read, &mut seen, &mut samples, |pos: &G| pos.trace())?;
        progress(&format!(
            "{path}: {} games ({} left out, {} repeats), {} quiet positions",
            h.games, h.skipped_games, h.repeated_games, h.positions
        ));
        games += h.games;
        read += h.read_games;
        skipped_games += h.skipped_games + h.repeated_games;
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
    let lambda = args.lambda;
    let scored = train.iter().chain(&validation).filter(|s| s.score.is_some()).count();
    for s in train.iter_mut().chain(validation.iter_mut()) {
        if let Some(score) = s.score {
            s.target = lambda * s.result + (1.0 - lambda) * fit::sigmoid(k, score);
        }
    }
    if lambda < 1.0 {
        progress(&format!("{scored} positions have a search score; targets are {lambda} result, the rest score"));
    }
    let before = (fit::loss(&train, &old, k), fit::loss(&validation, &old, k));
    let results_before = fit::result_loss(&validation, &old, k);
    progress(&format!("K = {k:.4}; loss {:.6} (held out {:.6})", before.0, before.1));
    let mut fitted = old.clone();
    let kept = fit::fit(&train, &validation, &mut fitted, &frozen, k, args.settings, |epoch, loss, held| {
        progress(&format!("epoch {epoch}: loss {loss:.6} (held out {held:.6})"));
    });
    progress(&format!("kept the weights of epoch {kept}, where the held-out loss was lowest"));
    let weights: Vec<Tapered> =
        fitted.iter().map(|&(mg, eg)| Tapered::new(mg.round() as i32, eg.round() as i32)).collect();
    let rounded: Vec<(f64, f64)> = weights.iter().map(|w| (f64::from(w.mg), f64::from(w.eg))).collect();
    let after = (fit::loss(&train, &rounded, k), fit::loss(&validation, &rounded, k));
    let results_after = fit::result_loss(&validation, &rounded, k);
    progress(&format!("held-out loss against results alone: {results_before:.6} -> {results_after:.6}"));
    let mut changes: Vec<(String, Tapered, Tapered)> = (0..weights.len())
        .map(|i| ((tunable.name)(i), tunable.weights[i], weights[i]))
        .filter(|(_, a, b)| a != b)
        .collect();
    changes.sort_by_key(|(_, a, b)| std::cmp::Reverse((a.mg - b.mg).abs() + (a.eg - b.eg).abs()));
    changes.truncate(12);
    let source = source::weights_file(tunable.about, tunable.groups, tunable.per_line, &weights, &args.command);
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
        validation_result_loss: (results_before, results_after),
        source,
        largest_changes: changes,
    })
}
