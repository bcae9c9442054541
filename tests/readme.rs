//! The README as a newcomer reads it: its commands run as written, its
//! shown output is what they print, and what points into it or out of it
//! exists.
//!
//! * A block fenced ` ```sh ` is run by bash (`set -euo pipefail`), the
//!   blocks in order, in one fresh directory (holding a link to the
//!   repository's `perft/`), with the binary under test first on `PATH` as
//!   `catchess`, as the README's own `export PATH=...` puts it there. Each
//!   must succeed within [`LIMIT`].
//! * A ` ```text ` block right after a ` ```sh ` block is that block's
//!   standard output: line by line, where a line `...` stands for any
//!   lines (none included) and `...` inside a line for any text.
//! * A block fenced ` ```sh long ` (a build, a server, a match of minutes)
//!   is not run, but each `catchess` command in it must name subcommands
//!   that exist and only flags that their `--help` lists.
//! * A mention of a README section anywhere in the code or the documents,
//!   such as `(README, "Play")`, names a heading the README has; every
//!   relative link of the README and of `docs/` names a file that exists.

mod common;

use regex::Regex;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const README: &str = include_str!("../README.md");
const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// The longest a block may run: the short ones take a second or two, on a
/// loaded machine several.
const LIMIT: Duration = Duration::from_secs(90);

/// A fenced block's kind, from its info string.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// ` ```sh `: run.
    Run,
    /// ` ```sh long `: flags checked, not run.
    Long,
    /// ` ```text `: the output of the block before.
    Output,
    /// Anything else: left alone.
    Other,
}

struct Block {
    kind: Kind,
    /// The line of its opening fence (1-based), for messages.
    line: usize,
    text: String,
    /// Whether only blank lines separate it from the block before.
    follows: bool,
}

/// The fenced blocks of `md` (fences at the start of a line), and the
/// headings outside them.
fn parse(md: &str) -> (Vec<Block>, Vec<String>) {
    let (mut blocks, mut headings) = (Vec::new(), Vec::new());
    let mut open: Option<Block> = None;
    // Whether only blank lines came since the last block closed.
    let mut after_block = false;
    for (i, line) in md.lines().enumerate() {
        if let Some(block) = open.as_mut() {
            if line.trim_end() == "```" {
                blocks.push(open.take().unwrap());
                after_block = true;
            } else {
                block.text.push_str(line);
                block.text.push('\n');
            }
        } else if let Some(info) = line.strip_prefix("```") {
            let kind = match info.split_whitespace().collect::<Vec<_>>()[..] {
                ["sh"] => Kind::Run,
                ["sh", "long"] => Kind::Long,
                ["text"] => Kind::Output,
                _ => Kind::Other,
            };
            open = Some(Block { kind, line: i + 1, text: String::new(), follows: after_block });
        } else if line.trim().is_empty() {
            // Blank lines keep a block "right after" the one before.
        } else {
            after_block = false;
            if let Some(h) = line.strip_prefix('#') {
                headings.push(h.trim_start_matches('#').trim().to_string());
            }
        }
    }
    assert!(open.is_none(), "README: a block is never closed");
    (blocks, headings)
}

/// Whether `actual` matches `expected`: an expected line `...` stands for
/// any lines, `...` inside a line for any text; trailing spaces and blank
/// lines at either end do not count.
fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| matches(rest, &actual[skip..])),
        Some((pattern, rest)) => {
            actual.split_first().is_some_and(|(line, more)| line_matches(pattern, line) && matches(rest, more))
        }
    }
}

/// Whether one line matches a pattern whose `...` stand for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let Some(mut rest) = line.strip_prefix(parts.next().unwrap_or("")) else { return false };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else { return rest.is_empty() };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// The lines of `text` without trailing spaces or blank lines at the ends.
fn lines(text: &str) -> Vec<&str> {
    let all: Vec<&str> = text.lines().map(str::trim_end).collect();
    let start = all.iter().position(|l| !l.is_empty()).unwrap_or(all.len());
    let end = all.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    all[start..end].to_vec()
}

/// What a block printed, or why it failed.
fn run_block(dir: &Path, index: usize, script: &str) -> Result<String, String> {
    let file = dir.join(format!(".block-{index}.sh"));
    fs::write(&file, format!("set -euo pipefail\n{script}")).unwrap();
    let (out, err) = (dir.join(format!(".block-{index}.out")), dir.join(format!(".block-{index}.err")));
    let bin = Path::new(env!("CARGO_BIN_EXE_catchess")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut child = {
        use std::os::unix::process::CommandExt;
        Command::new("bash")
            .arg(&file)
            .current_dir(dir)
            .env("PATH", path)
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out).unwrap())
            .stderr(fs::File::create(&err).unwrap())
            .process_group(0)
            .spawn()
            .expect("bash runs")
    };
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            // The whole group: the block's engines too.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (fs::read_to_string(&out).unwrap(), fs::read_to_string(&err).unwrap());
    match status {
        Some(s) if s.success() => Ok(stdout),
        Some(s) => Err(format!("exited with {s}\nstdout:\n{stdout}\nstderr:\n{stderr}")),
        None => Err(format!("still running after {LIMIT:?}\nstdout:\n{stdout}\nstderr:\n{stderr}")),
    }
}

#[test]
fn the_readmes_short_commands_run_and_print_what_it_shows() {
    let (blocks, _) = parse(README);
    let dir = common::temp::temp("run");
    fs::create_dir_all(&dir).unwrap();
    let perft = dir.join("perft");
    if !perft.exists() {
        std::os::unix::fs::symlink(Path::new(REPO).join("perft"), &perft).unwrap();
    }
    let mut failures = Vec::new();
    let mut ran = 0;
    for (i, block) in blocks.iter().enumerate() {
        let shown = blocks.get(i + 1).filter(|b| b.kind == Kind::Output && b.follows);
        match block.kind {
            Kind::Run => {}
            Kind::Output if !(i > 0 && blocks[i - 1].kind == Kind::Run && block.follows) => {
                failures.push(format!("README line {}: output shown right after no ```sh block", block.line));
                continue;
            }
            _ => continue,
        }
        ran += 1;
        match run_block(&dir, i, &block.text) {
            Err(why) => failures.push(format!("README line {}:\n{}{why}", block.line, block.text)),
            Ok(stdout) => {
                if let Some(shown) = shown {
                    if !matches(&lines(&shown.text), &lines(&stdout)) {
                        failures.push(format!(
                            "README line {}:\n{}prints\n{stdout}\nwhere the README shows (line {})\n{}",
                            block.line, block.text, shown.line, shown.text
                        ));
                    }
                }
            }
        }
    }
    assert!(ran >= 10, "only {ran} blocks ran: are they still fenced ```sh?");
    assert!(failures.is_empty(), "in {}:\n\n{}", dir.display(), failures.join("\n\n"));
}

/// `catchess <path> --help`.
fn help(path: &[String]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_catchess")).args(path).arg("--help").output().expect("binary runs");
    assert!(out.status.success(), "catchess {} --help failed", path.join(" "));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a `--help` lists under "Commands:".
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

/// The flags a `--help` declares (its option lines, not its examples).
fn flags(help: &str) -> BTreeSet<String> {
    let option = Regex::new(r"^\s+(?:-\w, )?(--[a-z0-9][a-z0-9-]*)").unwrap();
    help.lines().filter_map(|l| option.captures(l)).map(|c| c[1].to_string()).collect()
}

/// What is wrong with one command line (its words, a `catchess` first).
fn check_command(words: &[String]) -> Vec<String> {
    let mut path = Vec::new();
    let mut rest = &words[1..];
    let mut text = help(&path);
    while let Some((word, more)) = rest.split_first() {
        if !subcommands(&text).contains(word) {
            break;
        }
        path.push(word.clone());
        text = help(&path);
        rest = more;
    }
    let known = flags(&text);
    let wrong = rest.iter().filter_map(|w| w.strip_prefix("--").map(|f| format!("--{}", f.split('=').next().unwrap())));
    wrong.filter(|f| !known.contains(f)).map(|f| format!("`catchess {}` has no {f}", path.join(" "))).collect()
}

#[test]
fn the_readmes_long_commands_name_real_subcommands_and_flags() {
    let (blocks, _) = parse(README);
    let mut failures = Vec::new();
    let mut checked = 0;
    for block in blocks.iter().filter(|b| b.kind == Kind::Long) {
        for line in block.text.replace("\\\n", " ").lines() {
            let Some(words) = shlex::split(line) else {
                failures.push(format!("README line {}: unbalanced quotes in {line}", block.line));
                continue;
            };
            for command in words.split(|w| ["|", "||", "&&", ";"].contains(&w.as_str())) {
                if command.first().is_some_and(|w| w == "catchess") {
                    checked += 1;
                    failures
                        .extend(check_command(command).into_iter().map(|e| format!("README line {}: {e}", block.line)));
                }
            }
        }
    }
    assert!(checked >= 5, "only {checked} catchess commands found in ```sh long blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every file under `dir` (not `target/` or `.git/`) whose name ends with
/// one of `ends`.
fn files(dir: &Path, ends: &[&str], found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files(&path, ends, found);
            }
        } else if ends.iter().any(|e| name.ends_with(e)) {
            found.push(path);
        }
    }
}

#[test]
fn every_mention_of_a_readme_section_names_one_it_has() {
    let (_, headings) = parse(README);
    let mut sources = Vec::new();
    files(Path::new(REPO), &[".rs", ".md"], &mut sources);
    // A mention may run over lines of comments and escape its quotes.
    let comment = Regex::new(r"(?m)^\s*//[/!]?").unwrap();
    let mention = Regex::new(r#"README(?:\.md)?(?:, | \()"([^"]+)""#).unwrap();
    let mut failures = Vec::new();
    let mut seen = 0;
    for file in &sources {
        let text = fs::read_to_string(file).unwrap();
        let flat = comment.replace_all(&text, " ").replace("\\\"", "\"");
        let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
        for m in mention.captures_iter(&flat) {
            let name = &m[1];
            seen += 1;
            // "A chess network" names "A chess network (NNUE)".
            if !headings.iter().any(|h| h == name || h.starts_with(&format!("{name} ("))) {
                failures.push(format!("{}: README has no section \"{name}\"", file.display()));
            }
        }
    }
    assert!(seen >= 5, "only {seen} mentions found: is the pattern still right?");
    assert!(failures.is_empty(), "{}\n(the README's headings: {headings:?})", failures.join("\n"));
}

#[test]
fn the_readmes_and_docs_links_name_files_that_exist() {
    let mut docs = vec![Path::new(REPO).join("README.md")];
    files(&Path::new(REPO).join("docs"), &[".md"], &mut docs);
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut failures = Vec::new();
    for doc in &docs {
        let text = fs::read_to_string(doc).unwrap();
        for m in link.captures_iter(&text) {
            let target = m[1].split('#').next().unwrap();
            if target.is_empty() || target.contains("://") {
                continue;
            }
            if !doc.parent().unwrap().join(target).exists() {
                failures.push(format!("{}: no file {target}", doc.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn output_patterns_match_as_the_readme_test_says() {
    assert!(line_matches("white 11", "white 11"));
    assert!(!line_matches("white 11", "white 111"));
    assert!(line_matches("   1  ...       0", "   1  d2     6     3.0       0"));
    assert!(!line_matches("   1  ...       0", "   1  d2     6     3.0      10"));
    assert!(line_matches("a ... c ... e", "a b c d e"));
    assert!(!line_matches("a ... c ... e", "a b d e"));
    assert!(matches(&["...", "bestmove ..."], &["info depth 1", "info depth 2", "bestmove e2e4"]));
    assert!(matches(&["...", "x"], &["x"]));
    assert!(!matches(&["...", "bestmove ..."], &["info depth 1"]));
    assert!(!matches(&["a"], &["a", "b"]));
    assert_eq!(lines("\n a  \n\nb\n\n"), [" a", "", "b"]);
}
