//! One slice of a batch job cut into N (`--shard I/N`), as `catchess match`
//! and `catchess datagen` take it: written out, or `auto`, from the
//! variables a scheduler sets for each task of an array: Slurm's
//! `SLURM_ARRAY_TASK_ID` (with `SLURM_ARRAY_TASK_MIN`, `_MAX`, `_STEP` and
//! `_COUNT`, so that `--array=1-8`, `--array=0-7` and `--array=0-14:2`
//! all give shards 1 to 8) or Kubernetes' `JOB_COMPLETION_INDEX` (an
//! indexed Job's pods, counted from 0; the count is the Job's
//! `completions`, which the pod is not told: `auto/N`). Each command cuts
//! its own work by the shard ([`Shard::takes`], [`Shard::slice`]).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// The most shards a job may be cut into.
pub const MAX_SHARDS: u64 = 1 << 32;

/// Slice `index` (counted from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// Reads one environment variable (`std::env::var` in use; a table in tests).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Shard {
    /// Shard `index` of `count`, if `1 <= index <= count <= MAX_SHARDS`.
    pub fn new(index: u64, count: u64) -> Result<Shard, String> {
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(format!("shard {index}/{count}: expected I/N with 1 <= I <= N <= {MAX_SHARDS} (e.g. 2/4)"));
        }
        Ok(Shard { index, count })
    }

    /// The whole job as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    pub fn index(self) -> u64 {
        self.index
    }

    pub fn count(self) -> u64 {
        self.count
    }

    /// `I/N`, `auto` or `auto/N` (see the module doc), the variables read
    /// through `env`.
    pub fn parse(text: &str, env: Env) -> Result<Shard, String> {
        let bad = || format!("--shard {text:?}: expected I/N with 1 <= I <= N (e.g. 2/4), auto or auto/N");
        let (i, n) = match text.trim().split_once('/') {
            Some((i, n)) => (i.trim(), Some(n.trim())),
            None => (text.trim(), None),
        };
        let count = n.map(|n| n.parse::<u64>().map_err(|_| bad())).transpose()?;
        if i == "auto" {
            return Shard::from_env(count, env).map_err(|e| format!("--shard {text}: {e}"));
        }
        let index = i.parse::<u64>().map_err(|_| bad())?;
        Shard::new(index, count.ok_or_else(bad)?).map_err(|_| bad())
    }

    /// The shard of the array task this process runs in: Slurm's variables
    /// or Kubernetes', with `count` (if given) the count they must agree
    /// with, or supply (Kubernetes does not say it).
    pub fn from_env(count: Option<u64>, env: Env) -> Result<Shard, String> {
        let slurm = env("SLURM_ARRAY_TASK_ID");
        let kubernetes = env("JOB_COMPLETION_INDEX");
        let (index, found) = match (slurm, kubernetes) {
            (Some(_), Some(_)) => {
                return Err("both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: give the shard as I/N".into())
            }
            (Some(id), None) => slurm_task(&id, env)?,
            (None, Some(index)) => (number("JOB_COMPLETION_INDEX", &index)?.saturating_add(1), None),
            (None, None) => {
                let job = if env("SLURM_JOB_ID").is_some() {
                    " (this Slurm job is not an array: submit it with sbatch --array=1-N)"
                } else {
                    ""
                };
                return Err(format!(
                    "no SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes indexed \
                     Job) in the environment{job}; give the shard as I/N"
                ));
            }
        };
        let count = match (found, count) {
            (Some(f), Some(c)) if f != c => {
                return Err(format!("the Slurm array has {f} tasks (SLURM_ARRAY_TASK_COUNT), not {c}"))
            }
            (Some(n), _) | (None, Some(n)) => n,
            (None, None) => {
                return Err("JOB_COMPLETION_INDEX gives the index only: give the count as auto/N (the Job's \
                            completions)"
                    .into())
            }
        };
        Shard::new(index, count).map_err(|_| format!("task {index} of {count}: the index is beyond the count"))
    }

    /// Whether the shard takes item `i` (from 0) when items are dealt in
    /// turn: every `count`-th, from `index - 1` (`catchess match`'s rounds).
    pub fn takes(self, i: u64) -> bool {
        i % self.count == self.index - 1
    }

    /// The shard's part of `total` items cut into contiguous slices of
    /// nearly equal size, in order (`catchess datagen`'s games).
    pub fn slice(self, total: u64) -> Range<u64> {
        let cut = |i: u64| (u128::from(total) * u128::from(i) / u128::from(self.count)) as u64;
        cut(self.index - 1)..cut(self.index)
    }
}

/// A Slurm array task's index (from 1) and the array's size, from its
/// variables: the array must be an evenly spaced range (`1-8`, `0-14:2`),
/// as a list of numbers (`1,3,7`) cannot be counted through.
fn slurm_task(id: &str, env: Env) -> Result<(u64, Option<u64>), String> {
    let var = |name: &str| {
        let value = env(name).ok_or_else(|| format!("SLURM_ARRAY_TASK_ID is set but {name} is not"))?;
        number(name, &value)
    };
    let id = number("SLURM_ARRAY_TASK_ID", id)?;
    let (min, max, count) =
        (var("SLURM_ARRAY_TASK_MIN")?, var("SLURM_ARRAY_TASK_MAX")?, var("SLURM_ARRAY_TASK_COUNT")?);
    let step = match env("SLURM_ARRAY_TASK_STEP") {
        Some(s) => number("SLURM_ARRAY_TASK_STEP", &s)?.max(1),
        None => 1,
    };
    let spaced = min <= id && id <= max && (id - min).is_multiple_of(step) && (max - min) / step + 1 == count;
    if !spaced {
        return Err(format!(
            "the Slurm array (tasks {min} to {max}, step {step}, {count} tasks, this one {id}) is not an evenly \
             spaced range: submit it as --array=1-N"
        ));
    }
    Ok(((id - min) / step + 1, Some(count)))
}

fn number(name: &str, value: &str) -> Result<u64, String> {
    value.trim().parse::<u64>().map_err(|_| format!("{name}={value:?} is not a whole number"))
}

impl FromStr for Shard {
    type Err = String;
    /// [`Shard::parse`] with this process's environment.
    fn from_str(text: &str) -> Result<Shard, String> {
        Shard::parse(text, &|name| std::env::var(name).ok())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
    }

    fn shard(i: u64, n: u64) -> Shard {
        Shard::new(i, n).unwrap()
    }

    #[test]
    fn written_out() {
        let none = with(&[]);
        assert_eq!(Shard::parse("2/4", &none), Ok(shard(2, 4)));
        assert_eq!(Shard::parse(" 4 / 4 ", &none), Ok(shard(4, 4)));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0", "-1/2", "", "auto/x", "1/4294967297"] {
            assert!(Shard::parse(bad, &none).unwrap_err().contains("expected I/N"), "{bad}");
        }
        assert_eq!(shard(3, 8).to_string(), "3/8");
    }

    #[test]
    fn from_a_slurm_array() {
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(Shard::parse("auto", &with(&one_based)), Ok(shard(3, 4)));
        assert_eq!(Shard::parse("auto/4", &with(&one_based)), Ok(shard(3, 4)));
        let e = Shard::parse("auto/8", &with(&one_based)).unwrap_err();
        assert_eq!(e, "--shard auto/8: the Slurm array has 4 tasks (SLURM_ARRAY_TASK_COUNT), not 8");
        // 0-based, and with a step: the same shards.
        let zero_based = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(Shard::parse("auto", &with(&zero_based)), Ok(shard(1, 4)));
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "6"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(Shard::parse("auto", &with(&stepped)), Ok(shard(3, 4)));
        // A list (--array=1,3,7) cannot be counted through.
        let list = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert!(Shard::parse("auto", &with(&list)).unwrap_err().contains("not an evenly spaced range"));
        let partial = [("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "1")];
        let e = Shard::parse("auto", &with(&partial)).unwrap_err();
        assert!(e.contains("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MAX is not"), "{e}");
        let junk = [("SLURM_ARRAY_TASK_ID", "x")];
        assert!(Shard::parse("auto", &with(&junk)).unwrap_err().contains("SLURM_ARRAY_TASK_ID=\"x\" is not a whole"));
    }

    #[test]
    fn from_a_kubernetes_indexed_job() {
        let pod = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(Shard::parse("auto/8", &with(&pod)), Ok(shard(1, 8)));
        assert!(Shard::parse("auto", &with(&pod)).unwrap_err().contains("give the count as auto/N"));
        let last = [("JOB_COMPLETION_INDEX", "8")];
        assert!(Shard::parse("auto/8", &with(&last)).unwrap_err().contains("task 9 of 8"));
    }

    #[test]
    fn without_a_scheduler_or_with_two() {
        let e = Shard::parse("auto", &with(&[])).unwrap_err();
        assert!(e.contains("no SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX"), "{e}");
        let e = Shard::parse("auto", &with(&[("SLURM_JOB_ID", "7")])).unwrap_err();
        assert!(e.contains("not an array: submit it with sbatch --array=1-N"), "{e}");
        let both = [("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "0")];
        assert!(Shard::parse("auto/2", &with(&both)).unwrap_err().contains("both"));
    }

    #[test]
    fn dealt_in_turn_or_cut_in_slices() {
        let taken: Vec<u64> = (0..10).filter(|&i| shard(2, 3).takes(i)).collect();
        assert_eq!(taken, [1, 4, 7]);
        assert!((0..5).all(|i| Shard::WHOLE.takes(i)));
        let slices: Vec<Range<u64>> = (1..=3).map(|i| shard(i, 3).slice(10)).collect();
        assert_eq!(slices, [0..3, 3..6, 6..10]);
        assert_eq!(shard(2, 4).slice(2), 0..1);
        assert_eq!(shard(3, 3).slice(u64::MAX).end, u64::MAX, "no overflow");
    }
}
