//! A match spread over machines or a scheduler's tasks (#64): `--merge`
//! refuses records that do not belong to one match and names what is
//! missing (unless `--partial`); `--resume` is the one command for the
//! first start and every restart; `--shard auto` reads Slurm's and
//! Kubernetes' variables; `--stop-file` and `--merge --watch` stop the
//! shards of an SPRT once it decides. Engines: `catchess random` and the
//! fake engine of tests/fake/engine.sh.

mod common;
use common::games::games_of;
use common::temp;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use temp::temp;

const BIN: &str = env!("CARGO_BIN_EXE_catchess");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// A chess match of two random engines (games of a few milliseconds),
/// `games` games, seed `seed`, records to `pgn`, and `extra` flags.
fn random_match(pgn: &Path, games: usize, seed: u64, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> =
        ["match", "--variant", "chess", "--tc", "depth=1", "--random-plies", "2"].map(String::from).to_vec();
    v.extend(["--games".into(), games.to_string(), "--seed".into(), seed.to_string(), "--pgn".into(), path(pgn)]);
    v.extend(["--engine".into(), format!("name=a cmd=\"{BIN} random\" option.Seed=1")]);
    v.extend(["--engine".into(), format!("name=b cmd=\"{BIN} random\" option.Seed=2")]);
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run(args: &[String]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn ok(args: &[String]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{args:?}:\n{}", text(&out.stderr));
    out
}

fn merge(inputs: &[&PathBuf], extra: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(["match", "--variant", "chess", "--merge"]).args(inputs).args(extra);
    cmd.output().expect("the binary runs")
}

/// The failure of a command: its exit was not 0, and its stderr.
fn failure(out: &Output) -> String {
    assert!(!out.status.success(), "it succeeded:\n{}", text(&out.stderr));
    text(&out.stderr)
}

/// Shards `1/n` to `n/n` of the random match, played one after another.
fn shards(name: &str, n: usize, games: usize) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let pgn = temp(&format!("{name}-{k}.pgn"));
            ok(&random_match(&pgn, games, 9, &["--shard", &format!("{k}/{n}")]));
            pgn
        })
        .collect()
}

#[test]
fn a_merge_refuses_records_of_another_match_naming_the_file() {
    let s = shards("odd", 3, 12);
    // Shard 3 played again with another seed, then with another time control.
    let other_seed = temp("odd-3-seed.pgn");
    ok(&random_match(&other_seed, 12, 10, &["--shard", "3/3"]));
    let err = failure(&merge(&[&s[0], &s[1], &other_seed], &[]));
    assert!(err.contains("the inputs are not of one match"), "{err}");
    assert!(err.contains(&format!("{} does not belong with {}: seed 10, not 9", path(&other_seed), path(&s[0]))));
    let other_tc = temp("odd-3-tc.pgn");
    let mut args = random_match(&other_tc, 12, 9, &["--shard", "3/3"]);
    args[4] = "depth=2".into();
    ok(&args);
    let err = failure(&merge(&[&other_tc, &s[0], &s[1]], &[]));
    assert!(err.contains(&format!("{} does not belong with {}: other settings", path(&other_tc), path(&s[0]))));
    // Another size, another number of shards, the same shard twice.
    let other_size = temp("odd-3-size.pgn");
    ok(&random_match(&other_size, 18, 9, &["--shard", "3/3"]));
    assert!(failure(&merge(&[&s[0], &s[1], &other_size], &[])).contains("18 games, not 12"));
    let other_count = temp("odd-4of4.pgn");
    ok(&random_match(&other_count, 12, 9, &["--shard", "2/4"]));
    assert!(failure(&merge(&[&s[0], &s[1], &other_count], &[])).contains("4 shards, not 3"));
    let mut cmd = Command::new(BIN);
    cmd.args(["match", "--merge"]).args([&s[0], &s[1], &s[2]]);
    assert!(failure(&cmd.output().unwrap()).contains("the inputs are records of chess: give --variant chess"));
    let err = failure(&merge(&[&s[0], &s[1], &s[1]], &[]));
    assert!(err.contains(&format!("{} and {} are both shard 2/3", path(&s[1]), path(&s[1]))), "{err}");
    // The three that belong together merge.
    let out = merge(&[&s[2], &s[0], &s[1]], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("merge: 12 of 12 games from 3 files"), "{}", text(&out.stderr));
}

#[test]
fn a_merge_names_the_missing_shards_and_games_unless_partial() {
    let s = shards("missing", 4, 16);
    let whole = temp("missing-whole.pgn");
    let table = text(&ok(&random_match(&whole, 16, 9, &[])).stdout);

    // Shards 2 and 4 absent (one not even named): what an afterok merge
    // after a lost task would see.
    let gone = temp("missing-never-written.pgn");
    let err = failure(&merge(&[&s[0], &s[2], &gone], &[]));
    assert!(err.contains("8 of the match's 16 games here"), "{err}");
    assert!(err.contains(&format!("no file {}", path(&gone))), "{err}");
    assert!(err.contains("shards 2, 4 of 4 missing (no input is that shard)"), "{err}");
    assert!(err.contains("add --partial"), "{err}");

    // A shard that lacks its last game (cut off).
    let text_of = std::fs::read_to_string(&s[1]).unwrap();
    let last = text_of.rfind("[Event ").unwrap();
    let short = temp("missing-2-short.pgn");
    std::fs::write(&short, &text_of[..last]).unwrap();
    std::fs::copy(format!("{}.state", path(&s[1])), format!("{}.state", path(&short))).unwrap();
    let err = failure(&merge(&[&s[0], &short, &s[2], &s[3]], &[]));
    assert!(err.contains(&format!("shard 2/4 ({}) lacks 1 of its 4 games (12)", path(&short))), "{err}");

    // --partial: the table of the games there are.
    let out = merge(&[&s[0], &short, &s[2], &s[3]], &["--partial"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("merge: --partial: 15 of the match's 16 games here"));
    assert!(text(&out.stdout).contains("(15 games)"), "{}", text(&out.stdout));

    // All four: the table of one run, and the merged file is a match of
    // its own (its state file as of the whole match), which merges again.
    let merged = temp("missing-merged.pgn");
    let out = merge(&[&s[3], &s[1], &s[0], &s[2]], &["--pgn", &path(&merged)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), table, "the same table as one run");
    let state = std::fs::read_to_string(format!("{}.state", path(&merged))).unwrap();
    assert!(state.contains("games 16\n") && !state.contains("shard"), "{state}");
    let again = merge(&[&merged], &[]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), table);
}

#[test]
fn records_without_a_state_file_merge_only_with_games_given() {
    let s = shards("stateless", 2, 8);
    let bare = temp("stateless-2-bare.pgn");
    std::fs::copy(&s[1], &bare).unwrap();
    let err = failure(&merge(&[&s[0], &bare], &[]));
    assert!(err.contains(&format!("{} has no {}.state", path(&bare), path(&bare))), "{err}");
    let out = merge(&[&s[0], &bare], &["--games", "8"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("its settings are not checked"), "{}", text(&out.stderr));
    assert!(failure(&merge(&[&s[0], &bare], &["--games", "10"])).contains("--games 10, but the state files say"));
    // A state file of version 1 (before #64) says too little.
    let old = temp("stateless-old.pgn");
    std::fs::copy(&s[1], &old).unwrap();
    std::fs::write(format!("{}.state", path(&old)), "catchess match state 1\nseed 9\nsettings x\n").unwrap();
    assert!(failure(&merge(&[&s[0], &old], &[])).contains("is of an older catchess"));
}

#[test]
fn resume_starts_a_match_and_restarts_it_by_the_same_command() {
    let pgn = temp("restart.pgn");
    let command = random_match(&pgn, 6, 4, &["--resume", "--shard", "1/2"]);
    // No state yet: it starts.
    let out = ok(&command);
    assert!(text(&out.stderr).contains("no") && text(&out.stderr).contains("yet: starting the match"));
    let first = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(first.matches("[Event ").count(), 4, "rounds 1 and 3 of three: 4 games");
    // Done: the same command plays nothing and keeps the records.
    let out = ok(&command);
    assert!(text(&out.stderr).contains("resuming: 4 of 6 games already played"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), first);
    // A state of other settings is refused, and nothing is touched.
    let mut other = command.clone();
    other[4] = "depth=2".into();
    assert!(failure(&run(&other)).contains("started with other settings"));
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), first);
    // Records without a state file are not overwritten.
    let orphan = temp("restart-orphan.pgn");
    std::fs::write(&orphan, &first).unwrap();
    let err = failure(&run(&random_match(&orphan, 6, 4, &["--resume"])));
    assert!(err.contains("holds records but there is no"), "{err}");
    assert_eq!(std::fs::read_to_string(&orphan).unwrap(), first);
    // A shard starting with no seed cannot agree with the others.
    let mut seedless = random_match(&temp("restart-seedless.pgn"), 6, 4, &["--resume", "--shard", "1/2"]);
    let at = seedless.iter().position(|a| a == "--seed").unwrap();
    seedless.drain(at..at + 2);
    assert!(failure(&run(&seedless)).contains("--shard needs --seed"));
}

#[test]
fn a_state_file_of_version_1_still_resumes() {
    // Version 1 kept the shard inside the settings line.
    let pgn = temp("v1.pgn");
    let command = random_match(&pgn, 4, 3, &["--shard", "1/2"]);
    ok(&command);
    let state_file = format!("{}.state", path(&pgn));
    let v2 = std::fs::read_to_string(&state_file).unwrap();
    let settings = v2.lines().find_map(|l| l.strip_prefix("settings ")).unwrap();
    let (variant, rest) = settings.split_once(" | ").unwrap();
    let v1 = format!("catchess match state 1\nseed 3\nsettings {variant} | shard Some((1, 2)) | {rest}\n");
    std::fs::write(&state_file, v1).unwrap();
    let records = std::fs::read_to_string(&pgn).unwrap();
    let cut = records.rfind("[Event ").unwrap();
    std::fs::write(&pgn, &records[..cut]).unwrap();
    let mut again = command.clone();
    again.push("--resume".into());
    let out = ok(&again);
    assert!(text(&out.stderr).contains("resuming: 1 of 4 games already played"), "{}", text(&out.stderr));
    assert_eq!(games_of(&std::fs::read_to_string(&pgn).unwrap()), games_of(&records), "the game played again");
    assert_eq!(std::fs::read_to_string(&state_file).unwrap(), v2, "brought up to version 2");
}

#[test]
fn shard_auto_reads_the_schedulers_variables() {
    let play = |name: &str, shard: &str, vars: &[(&str, &str)]| {
        let mut cmd = Command::new(BIN);
        cmd.args(random_match(&temp(name), 6, 2, &["--shard", shard]));
        for var in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_JOB_ID", "JOB_COMPLETION_INDEX"] {
            cmd.env_remove(var);
        }
        cmd.envs(vars.iter().copied()).output().unwrap()
    };
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_MAX", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    let out = play("auto-slurm.pgn", "auto", &slurm);
    assert!(text(&out.stderr).contains("shard 1/3: 2 of the 6 games"), "{}", text(&out.stderr));
    let state = std::fs::read_to_string(temp("auto-slurm.pgn.state")).unwrap();
    assert!(state.contains("shard 1/3\n"), "{state}");
    let out = play("auto-k8s.pgn", "auto/3", &[("JOB_COMPLETION_INDEX", "2")]);
    assert!(text(&out.stderr).contains("shard 3/3: 2 of the 6 games"), "{}", text(&out.stderr));
    let err = failure(&play("auto-none.pgn", "auto", &[]));
    assert!(err.contains("no SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX"), "{err}");
    let err = failure(&play("auto-k8s-count.pgn", "auto", &[("JOB_COMPLETION_INDEX", "2")]));
    assert!(err.contains("give the count as auto/N"), "{err}");
    let err = failure(&play("auto-slurm-count.pgn", "auto/4", &slurm));
    assert!(err.contains("the Slurm array has 3 tasks (SLURM_ARRAY_TASK_COUNT), not 4"), "{err}");
}

/// `a` (the random engine) against the fake engine that answers e2e4
/// after a second, which is illegal from black's first move on: `a`
/// wins every game, each in a second or two, so an SPRT decides within a
/// few pairs (with wide bounds) while the shards still have games to play.
fn lopsided(pgn: &Path, shard: &str, stop: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(["match", "--variant", "chess", "--games", "40", "--seed", "1", "--shard", shard, "--resume"])
        .args(["--pgn", &path(pgn), "--stop-file", &path(stop)])
        .args(["--engine", &format!("name=a cmd=\"{BIN} random\"")])
        .args(["--engine", &format!("name=slow cmd=\"sh {}/tests/fake/engine.sh slow\"", env!("CARGO_MANIFEST_DIR"))]);
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    cmd
}

#[test]
fn a_watched_merge_stops_the_shards_once_the_sprt_decides() {
    let (s1, s2, stop) = (temp("watch-1.pgn"), temp("watch-2.pgn"), temp("watch.stop"));
    let started = Instant::now();
    // The watcher first: the shards' files do not exist yet.
    let watcher = Command::new(BIN)
        .args(["match", "--variant", "chess", "--merge", &path(&s1), &path(&s2), "--watch"])
        .args(["--sprt", "0,200,0.2,0.2", "--stop-file", &path(&stop), "--pgn", &path(&temp("watch-merged.pgn"))])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let shards: Vec<_> = [(&s1, "1/2"), (&s2, "2/2")].map(|(p, k)| lopsided(p, k, &stop).spawn().unwrap()).into();
    let out = watcher.wait_with_output().unwrap();
    let (table, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("merge: --watch: waiting for"), "{stderr}");
    assert!(stderr.contains("merge: 2 files | ") && stderr.contains(" | LLR "), "running results: {stderr}");
    assert!(stderr.contains("SPRT H1 accepted after") && stderr.contains("wrote"), "{stderr}");
    assert!(table.contains(": H1 accepted"), "{table}");
    assert!(stop.exists());
    for shard in shards {
        let out = shard.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("exists: no new game started"), "{stderr}");
    }
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    // The stopped shards' records merge, as a partial table only.
    let err = failure(&merge(&[&s1, &s2], &[]));
    assert!(err.contains("lacks"), "{err}");
    let out = merge(&[&s1, &s2], &["--partial", "--sprt", "0,200,0.2,0.2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(": H1 accepted"), "{}", text(&out.stdout));
    // A shard started after the decision plays nothing.
    let late = lopsided(&temp("watch-late.pgn"), "1/2", &stop).output().unwrap();
    assert!(late.status.success());
    assert!(!text(&late.stderr).contains("game 1/"), "{}", text(&late.stderr));
}

/// The one `- >-` item of a manifest's `args:`, folded as YAML folds it:
/// its lines (each indented deeper than the `- >-`) joined by spaces.
fn folded_args(manifest: &str) -> String {
    let mut lines = manifest.lines().skip_while(|l| l.trim() != "args:").skip(1);
    let item = lines.next().expect("an args: list");
    assert_eq!(item.trim(), "- >-", "args: one folded item");
    let indent = item.len() - item.trim_start().len();
    let body: Vec<&str> =
        lines.take_while(|l| !l.trim().is_empty() && l.len() - l.trim_start().len() > indent).map(str::trim).collect();
    body.join(" ")
}

/// `text` with `from` replaced by `to`, which it must hold exactly once
/// (so that a changed manifest fails here rather than run something else).
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} once in {text}");
    text.replace(from, to)
}

/// A pod's command: `sh -c ARGS`, with the image's paths (/engines,
/// /results) under `root`, `catchess` the binary under test, and the
/// environment a pod of an indexed Job has (JOB_COMPLETION_INDEX).
fn pod(root: &Path, args: &str, index: Option<usize>) -> Output {
    let args = args
        .replace("/engines/", &format!("{}/engines/", path(root)))
        .replace("/results/", &format!("{}/", path(root)));
    let bin_dir = Path::new(BIN).parent().unwrap();
    let mut cmd = Command::new("sh");
    cmd.args(["-c", &args]).env("PATH", format!("{}:{}", path(bin_dir), std::env::var("PATH").unwrap()));
    for var in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_JOB_ID", "JOB_COMPLETION_INDEX"] {
        cmd.env_remove(var);
    }
    if let Some(i) = index {
        cmd.env("JOB_COMPLETION_INDEX", i.to_string());
    }
    cmd.stdin(Stdio::null()).output().unwrap()
}

#[test]
fn the_kubernetes_manifests_pods_play_one_match() {
    // docs/kubernetes/: the Job's pods, one per index, then the merge's pod,
    // each by its command as the manifest writes it, but for a match of 32
    // games (not 2000) with random openings, and random movers as the
    // image's engines. docs/scheduling.md says what was run in containers.
    let job = include_str!("../docs/kubernetes/match.yaml");
    let merge_job = include_str!("../docs/kubernetes/merge.yaml");
    for manifest in [job, merge_job] {
        assert_eq!(manifest.matches("command: [\"sh\", \"-c\"]").count(), 1, "{manifest}");
    }
    let completions: usize = job.lines().find_map(|l| l.trim().strip_prefix("completions: ")).unwrap().parse().unwrap();
    let shard = replace_once(&folded_args(job), "--games 2000", "--games 32 --random-plies 4");
    assert!(shard.contains(&format!("--shard auto/{completions} --resume")), "{shard}");

    let root = temp("k8s");
    std::fs::create_dir_all(root.join("engines")).unwrap();
    for (engine, seed) in [("new", 1), ("old", 2)] {
        let script =
            format!("#!/bin/sh\n{{ echo 'setoption name Seed value {seed}'; exec cat; }} | exec {BIN} random\n");
        let file = root.join("engines").join(engine);
        std::fs::write(&file, script).unwrap();
        std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    for index in 0..completions {
        let out = pod(&root, &shard, Some(index));
        assert!(out.status.success(), "pod {index}:\n{}", text(&out.stderr));
        let expected = format!("shard {}/{completions}: 4 of the 32 games", index + 1);
        assert!(text(&out.stderr).contains(&expected), "pod {index}:\n{}", text(&out.stderr));
    }
    // A pod replaced after its shard was done plays nothing more.
    let again = pod(&root, &shard, Some(0));
    assert!(text(&again.stderr).contains("resuming: 4 of 32 games already played"), "{}", text(&again.stderr));

    let merged = pod(&root, &folded_args(merge_job), None);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let one_run = replace_once(
        &shard,
        &format!("--shard auto/{completions} --resume --pgn /results/shard$((JOB_COMPLETION_INDEX + 1)).pgn"),
        "--pgn /results/one.pgn",
    );
    let one = pod(&root, &one_run, None);
    assert!(one.status.success(), "{}", text(&one.stderr));
    let table =
        |out: &Output| text(&out.stdout).lines().filter(|l| !l.starts_with("SPRT")).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&merged), table(&one), "the merged table is one run's");
    assert!(text(&merged.stdout).contains("SPRT"), "{}", text(&merged.stdout));
    let read = |name: &str| std::fs::read_to_string(root.join(name)).unwrap();
    assert_eq!(games_of(&read("all.pgn")), games_of(&read("one.pgn")), "and so are its records");
    assert_eq!(games_of(&read("one.pgn")).len(), 32);
}
