//! A match on a real scheduler (#64): a one-node Slurm cluster on
//! 127.0.0.1 (its own slurm.conf, munge key and ports in a temporary
//! directory; munged, slurmctld and slurmd started here, as root, and
//! stopped at the end), the README's job scripts (`docs/slurm/shard.sh` as
//! an array of four shards, `docs/slurm/merge.sh` after them with
//! `--dependency=afterok`), one shard stopped by `scancel --signal=TERM`
//! in the middle of its games and requeued: the merged table and records
//! must be those of one run of the same match; and the early stop of an
//! SPRT spread over shards (`merge.sh --watch` as a job beside the array,
//! writing the stop file the shards look for). Bounded: every wait has a
//! deadline and each test must end within two minutes.
//!
//! Without Slurm, munge or root the test is reported SKIPPED with what is
//! missing; with `CI` set it FAILS (`common/skipping.rs`). `.ci/run`
//! installs Debian's `slurm-wlm` and `munge`.

mod common;

use common::games::games_of;
use common::skipping::{run, Requirement};
use common::temp::temp;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_catchess");
const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// The whole test, cluster included.
const LIMIT: Duration = Duration::from_secs(120);

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

const SLURM: Requirement = Requirement {
    what: "slurm-wlm",
    install: "apt-get install slurm-wlm",
    available: || {
        ["sbatch", "scancel", "scontrol", "sinfo", "squeue", "slurmctld", "slurmd"].iter().all(|p| on_path(p))
    },
};
const MUNGE: Requirement =
    Requirement { what: "munge", install: "apt-get install munge", available: || on_path("munged") };
/// slurmd starts each job as its user, which only root may do.
const ROOT: Requirement = Requirement {
    what: "root",
    install: "run the test as root, as CI does",
    available: || unsafe { libc::geteuid() } == 0,
};

fn main() -> ExitCode {
    run(
        &[
            ("a_match_over_a_slurm_array_with_a_requeued_shard_is_one_match", one_match_over_slurm),
            ("a_watch_job_stops_the_shards_of_an_sprt_once_it_decides", an_sprt_stopped_early),
        ],
        &[SLURM, MUNGE, ROOT],
    )
}

/// A free TCP port on loopback (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The daemons of the cluster, killed (by their own process ids) and
/// reaped when dropped, whatever the test's outcome.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
    deadline: Instant,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.slurm("scancel", &["--user=root"]).status();
        for (_, child) in self.daemons.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Cluster {
    /// munged, slurmctld and slurmd for one node, `localhost` at
    /// 127.0.0.1 with two CPUs, each daemon in the foreground.
    fn start(name: &str, deadline: Instant) -> Cluster {
        let dir = temp(name);
        let _ = fs::remove_dir_all(&dir);
        for sub in ["munge", "state", "spool"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir.join("munge"), fs::Permissions::from_mode(0o700)).unwrap();
        let key = dir.join("munge/munge.key");
        let random: Vec<u8> = (0..1024).map(|_| rand::random::<u8>()).collect();
        fs::write(&key, random).unwrap();
        fs::set_permissions(&key, fs::Permissions::from_mode(0o400)).unwrap();
        let socket = dir.join("munge/munge.socket");
        let d = |p: &str| dir.join(p).display().to_string();
        let conf = dir.join("slurm.conf");
        fs::write(
            &conf,
            format!(
                "ClusterName=catchess\n\
                 SlurmctldHost=localhost(127.0.0.1)\n\
                 SlurmctldPort={}\nSlurmdPort={}\n\
                 SlurmUser=root\nSlurmdUser=root\n\
                 AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={}\n\
                 StateSaveLocation={}\nSlurmdSpoolDir={}\n\
                 SlurmctldPidFile={}\nSlurmdPidFile={}\n\
                 SlurmctldLogFile={}\nSlurmdLogFile={}\n\
                 ProctrackType=proctrack/pgid\nTaskPlugin=task/none\n\
                 JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n\
                 SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
                 MpiDefault=none\nReturnToService=2\nKillWait=5\nMinJobAge=600\nInactiveLimit=0\nJobRequeue=1\n\
                 NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
                 PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4\n",
                free_port(),
                free_port(),
                socket.display(),
                d("state"),
                d("spool"),
                d("slurmctld.pid"),
                d("slurmd.pid"),
                d("slurmctld.log"),
                d("slurmd.log"),
            ),
        )
        .unwrap();
        let mut cluster = Cluster { dir: dir.clone(), conf, daemons: Vec::new(), deadline };
        let mut munged = Command::new("munged");
        munged
            .args(["--foreground", "--force"])
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--pid-file={}", d("munge/munged.pid")))
            .arg(format!("--log-file={}", d("munge/munged.log")))
            .arg(format!("--seed-file={}", d("munge/munged.seed")));
        cluster.daemon("munged", &mut munged);
        cluster.wait_for("munge's socket", |_| socket.exists());
        let conf = cluster.conf.display().to_string();
        cluster.daemon("slurmctld", Command::new("slurmctld").args(["-D", "-i", "-f", &conf]));
        cluster.daemon("slurmd", Command::new("slurmd").args(["-D", "-N", "localhost", "-f", &conf]));
        cluster.wait_for("the node to be idle", |cluster| {
            let out = cluster.slurm("sinfo", &["-h", "-o", "%T"]).output().unwrap();
            String::from_utf8_lossy(&out.stdout).trim() == "idle"
        });
        cluster
    }

    fn daemon(&mut self, name: &'static str, command: &mut Command) {
        let log = fs::File::create(self.dir.join(format!("{name}.out"))).unwrap();
        let child = command
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.daemons.push((name, child));
    }

    /// A Slurm command against this cluster, with the binary under test
    /// first on the `PATH` its jobs inherit.
    fn slurm(&self, program: &str, args: &[&str]) -> Command {
        let bin = Path::new(BIN).parent().unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
        let mut cmd = Command::new(program);
        cmd.args(args).env("SLURM_CONF", &self.conf).env("PATH", path);
        cmd
    }

    /// The command's standard output; it must succeed.
    fn output(&self, program: &str, args: &[&str]) -> String {
        let out = self.slurm(program, args).output().unwrap();
        assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits until `done`, within the test's deadline; a daemon that died
    /// fails the test at once, with its log.
    fn wait_for(&mut self, what: &str, done: impl Fn(&Cluster) -> bool) {
        while !done(self) {
            for (name, child) in &mut self.daemons {
                if let Ok(Some(status)) = child.try_wait() {
                    let log = fs::read_to_string(self.dir.join(format!("{name}.out"))).unwrap_or_default();
                    panic!("{name} exited ({status}) while waiting for {what}:\n{log}");
                }
            }
            assert!(Instant::now() < self.deadline, "still waiting for {what} after {LIMIT:?}\n{}", self.logs());
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The job's state as `squeue` or, once it has left the queue,
    /// `scontrol` says (`RUNNING`, `PENDING`, `COMPLETED`, ...).
    fn state(&self, job: &str) -> String {
        let out = self.slurm("scontrol", &["-o", "show", "job", job]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        text.split_whitespace().find_map(|w| w.strip_prefix("JobState=")).unwrap_or("").to_string()
    }

    /// What the daemons wrote, for a failure's message.
    fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log"]
            .iter()
            .map(|l| {
                let text = fs::read_to_string(self.dir.join(l)).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(15).collect();
                format!("--- {l}:\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The match: two random engines, one of which (`a` as white) takes 300 ms
/// a move from its 30th, so that a shard lasts seconds; at most 40 moves.
fn match_flags() -> Vec<String> {
    let mut v: Vec<String> =
        ["--variant", "chess", "--tc", "depth=1", "--random-plies", "2", "--maxmoves", "40"].map(String::from).to_vec();
    v.extend(["--games", "16", "--seed", "21"].map(String::from));
    v.extend(["--engine".into(), format!("name=a cmd=\"{BIN} random\" option.Seed=1 option.Faults=white=slow@30")]);
    v.extend(["--engine".into(), format!("name=b cmd=\"{BIN} random\" option.Seed=2")]);
    v
}

fn records_in(path: &Path) -> usize {
    fs::read_to_string(path).map(|t| t.matches("[Event ").count()).unwrap_or(0)
}

fn one_match_over_slurm() {
    let started = Instant::now();
    let mut cluster = Cluster::start("requeue", started + LIMIT);
    let results = cluster.dir.join("results");
    fs::create_dir_all(&results).unwrap();
    let results_arg = results.display().to_string();

    // The same match in one run, beside the cluster.
    let whole = results.join("whole.pgn");
    let mut one_run = Command::new(BIN);
    one_run.arg("match").args(match_flags()).args(["--concurrency", "4", "--pgn", whole.to_str().unwrap()]);
    let one_run = one_run.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();

    // The README's recipe: four shards, the merge after them.
    let shard_script = format!("{REPO}/docs/slurm/shard.sh");
    let output = format!("--output={}/shard%a.log", results.display());
    let mut args = vec!["--parsable", "--array=1-4", &output, &shard_script, &results_arg];
    let flags = match_flags();
    args.extend(flags.iter().map(String::as_str));
    let array = cluster.output("sbatch", &args);
    let merge_script = format!("{REPO}/docs/slurm/merge.sh");
    let dependency = format!("--dependency=afterok:{array}");
    let merge_log = format!("--output={}/merge.log", results.display());
    let merge_args =
        ["--parsable", &dependency, &merge_log, &merge_script, &results_arg, "4", "all", "--variant", "chess"];
    let merge = cluster.output("sbatch", &merge_args);

    // Shard 2 stopped after its first game, while it plays the others.
    let victim = format!("{array}_2");
    let pgn2 = results.join("shard2.pgn");
    cluster.wait_for("shard 2's first record", |_| records_in(&pgn2) >= 1);
    let before = records_in(&pgn2);
    assert!(before < 4, "shard 2 finished before it could be stopped");
    cluster.output("scancel", &["--signal=TERM", "--full", &victim]);
    // Its trap requeues it; Slurm holds a requeued job for two minutes
    // (its begin time), which the test does not wait for.
    cluster.wait_for("shard 2 to be requeued", |c| c.state(&victim) == "PENDING");
    cluster.output("scontrol", &["update", &format!("jobid={victim}"), "StartTime=now"]);
    cluster.wait_for("the merge job", |c| ["COMPLETED", "FAILED", "CANCELLED"].contains(&c.state(&merge).as_str()));
    let merge_state = cluster.state(&merge);
    let log = |name: &str| fs::read_to_string(results.join(name)).unwrap_or_default();
    assert_eq!(merge_state, "COMPLETED", "merge.log:\n{}\nshard2.log:\n{}", log("merge.log"), log("shard2.log"));

    // Shard 2 ran twice: stopped by the signal, then resumed, not replayed.
    let shard2 = log("shard2.log");
    assert!(shard2.contains("SIGTERM received"), "{shard2}");
    assert!(shard2.contains(&format!("resuming: {before} of 16 games already played")), "{shard2}");
    for k in [1, 3, 4] {
        assert!(!log(&format!("shard{k}.log")).contains("resuming"), "shard {k} ran once");
    }

    let one_run = one_run.wait_with_output().unwrap();
    assert!(one_run.status.success());
    let table = log("all.txt");
    assert_eq!(table, String::from_utf8_lossy(&one_run.stdout), "the merged table is one run's");
    assert!(table.contains("(16 games)"), "{table}");
    let merged = fs::read_to_string(results.join("all.pgn")).unwrap();
    assert_eq!(games_of(&merged), games_of(&fs::read_to_string(&whole).unwrap()), "the same games");
    assert!(started.elapsed() < LIMIT, "{:?}", started.elapsed());
    eprintln!("slurm: the match over the cluster took {:.1} s", started.elapsed().as_secs_f64());
}

/// The recipe of an SPRT stopped early: the watch job (`merge.sh --watch`)
/// submitted with the shards, both given the stop file; `a` against the
/// fake engine that moves e2e4 after a second (illegal from black's first
/// move on), so `a` wins every game and the wide SPRT decides after a
/// few pairs, while the shards still have most of their 40 games to play.
/// The stopped shards succeed, and an `afterok` merge with `--partial`
/// gives the table.
fn an_sprt_stopped_early() {
    let started = Instant::now();
    let mut cluster = Cluster::start("watch", started + LIMIT);
    let results = cluster.dir.join("results");
    fs::create_dir_all(&results).unwrap();
    let (results_arg, stop) = (results.display().to_string(), results.join("stop").display().to_string());
    let merge_script = format!("{REPO}/docs/slurm/merge.sh");
    let sprt = ["--variant", "chess", "--sprt", "0,200,0.2,0.2"];
    let watch_log = format!("--output={}/watch.log", results.display());
    let mut watch_args = vec!["--parsable", &watch_log, &merge_script, &results_arg, "2", "watch"];
    watch_args.extend(sprt);
    watch_args.extend(["--watch", "--stop-file", &stop]);
    let watch = cluster.output("sbatch", &watch_args);
    let shard_script = format!("{REPO}/docs/slurm/shard.sh");
    let output = format!("--output={}/shard%a.log", results.display());
    let slow = format!("name=slow cmd=\"sh {REPO}/tests/fake/engine.sh slow\"");
    let random = format!("name=a cmd=\"{BIN} random\"");
    let mut args = vec!["--parsable", "--array=1-2", &output, &shard_script, &results_arg];
    args.extend(["--variant", "chess", "--games", "40", "--seed", "1", "--engine", &random, "--engine", &slow]);
    args.extend(["--stop-file", &stop]);
    let array = cluster.output("sbatch", &args);
    let dependency = format!("--dependency=afterok:{array}");
    let merge_log = format!("--output={}/merge.log", results.display());
    let mut merge_args = vec!["--parsable", &dependency, &merge_log, &merge_script, &results_arg, "2", "all"];
    merge_args.extend(sprt);
    merge_args.push("--partial");
    let merge = cluster.output("sbatch", &merge_args);

    let done = |c: &Cluster, job: &str| ["COMPLETED", "FAILED", "CANCELLED"].contains(&c.state(job).as_str());
    cluster.wait_for("the watch job", |c| done(c, &watch));
    let log = |name: &str| fs::read_to_string(results.join(name)).unwrap_or_default();
    assert_eq!(cluster.state(&watch), "COMPLETED", "watch.log:\n{}", log("watch.log"));
    let watched = log("watch.log");
    assert!(watched.contains(" | LLR "), "running results: {watched}");
    assert!(watched.contains("SPRT H1 accepted after") && watched.contains("wrote"), "{watched}");
    cluster.wait_for("the merge job", |c| done(c, &merge));
    assert_eq!(cluster.state(&merge), "COMPLETED", "merge.log:\n{}", log("merge.log"));
    for k in [1, 2] {
        let shard = log(&format!("shard{k}.log"));
        assert!(shard.contains("stop exists: no new game started"), "shard {k}: {shard}");
        let played = fs::read_to_string(results.join(format!("shard{k}.pgn"))).unwrap().matches("[Event ").count();
        assert!(played < 20, "shard {k} played {played} of its 20 games: not stopped");
    }
    assert!(log("watch.txt").contains(": H1 accepted"), "{}", log("watch.txt"));
    let table = log("all.txt");
    assert!(table.contains(": H1 accepted"), "{table}");
    assert!(log("merge.log").contains("merge: --partial:"), "{}", log("merge.log"));
    assert!(started.elapsed() < LIMIT, "{:?}", started.elapsed());
    eprintln!("slurm: the SPRT stopped early over the cluster in {:.1} s", started.elapsed().as_secs_f64());
}
