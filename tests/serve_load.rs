//! A bounded load on `catchess serve` (issue #41), on 127.0.0.1 only:
//! 32 clients (games of every variant, an engine move each, tried again
//! while the server is busy, and analyses, engine moves and perfts whose
//! clients leave mid-way), a few hundred requests in a few seconds.
//! Checks that no request gets a 5xx, that the server's memory stays
//! under a stated bound while it runs, that its CPU goes idle once the
//! clients have gone, and that deleting every game gives the memory back.

// It measures the server through /proc.
#![cfg(target_os = "linux")]

mod common;

use common::serve_process::{temp_dir, ticks_per_second, Serve};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CLIENTS: usize = 32;
/// Per running search; searches at once.
const HASH_MB: u64 = 16;
const SEARCHES: u64 = 2;
/// The bound on the server's resident memory during the load: its start,
/// plus the tables of the searches it may run at once, plus 64 MiB for
/// games, connections, buffers and the allocator's slack.
fn rss_bound_kib(start: u64) -> u64 {
    start + SEARCHES * HASH_MB * 1024 + 64 * 1024
}

#[test]
fn a_load_leaves_the_server_idle_and_its_memory_bounded() {
    let dir = temp_dir("serve-load");
    let s = Serve::start(
        &dir.join("games.sqlite3"),
        &["--max-searches", &SEARCHES.to_string(), "--hash", &HASH_MB.to_string(), "--max-movetime", "20000"],
    );
    // One request first: the runtime and the page are warm.
    assert_eq!(s.call("GET", "/api/variants", None).0, 200);
    let rss_start = s.rss_kib();
    let peak = Arc::new(AtomicU64::new(rss_start));
    let running = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let (peak, running, pid) = (peak.clone(), running.clone(), s.pid());
        std::thread::spawn(move || {
            while running.load(Ordering::Relaxed) {
                if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
                    if let Some(kib) = status
                        .lines()
                        .find(|l| l.starts_with("VmRSS:"))
                        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                    {
                        peak.fetch_max(kib, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let started = Instant::now();
    let answers: Vec<(Vec<u16>, Option<String>)> = std::thread::scope(|scope| {
        let s = &s;
        let clients: Vec<_> = (0..CLIENTS)
            .map(|i| {
                scope.spawn(move || {
                    let variant = ["catchess", "chess", "xiangqi", "catschess10"][i % 4];
                    let quick = Duration::from_millis(150);
                    let mut seen = Vec::new();
                    let (status, game) = s.call("POST", "/api/games", Some(json!({ "variant": variant })));
                    seen.push(status);
                    let Some(id) = game["id"].as_str() else { return (seen, None) };
                    // An engine move, tried again while both slots are busy (429).
                    for _ in 0..100 {
                        let body = Some(json!({"movetime": 100}));
                        let (status, _) = s.call("POST", &format!("/api/games/{id}/engine"), body);
                        seen.push(status);
                        if status != 429 {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    // A long analysis, and a long engine move, whose clients leave.
                    let path = format!("/api/games/{id}/analysis?movetime=20000");
                    seen.extend(s.call_within("GET", &path, None, quick).map(|(st, _)| st));
                    let body = Some(json!({"movetime": 20000}));
                    seen.extend(
                        s.call_within("POST", &format!("/api/games/{id}/engine"), body, quick).map(|(st, _)| st),
                    );
                    // A deep perft whose client leaves (every fourth client).
                    if i % 4 == 0 {
                        let body = Some(json!({"variant": "catschess10", "depth": 4}));
                        seen.extend(s.call_within("POST", "/api/perft", body, quick).map(|(st, _)| st));
                    }
                    let (status, _) = s.call("GET", &format!("/api/games/{id}"), None);
                    seen.push(status);
                    (seen, Some(id.to_string()))
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let load_time = started.elapsed();
    let ids: Vec<String> = answers.iter().filter_map(|(_, id)| id.clone()).collect();
    let all: Vec<u16> = answers.into_iter().flat_map(|(seen, _)| seen).collect();
    let mut count = std::collections::BTreeMap::new();
    for st in &all {
        *count.entry(*st).or_insert(0) += 1;
    }
    eprintln!("statuses: {count:?}");
    assert!(all.iter().all(|&st| st < 500), "a 5xx: {count:?}");
    // Every game was made, and (but for the few still refused after 5 s of
    // trying) got its engine move.
    assert!(all.iter().filter(|&&st| st == 200 || st == 201).count() >= CLIENTS * 2 + CLIENTS / 2, "{count:?}");

    // Every client has gone: within a second the CPU is idle.
    std::thread::sleep(Duration::from_millis(1000));
    let (t0, c0) = (Instant::now(), s.cpu_ticks());
    std::thread::sleep(Duration::from_secs(2));
    let busy = (s.cpu_ticks() - c0) as f64 / ticks_per_second() as f64 / t0.elapsed().as_secs_f64();
    running.store(false, Ordering::Relaxed);
    sampler.join().unwrap();
    let peak = peak.load(Ordering::Relaxed);

    // Every game deleted: the memory returns near its start.
    assert_eq!(ids.len(), CLIENTS);
    for id in &ids {
        assert_eq!(s.call("DELETE", &format!("/api/games/{id}"), None).0, 204);
    }
    let rss_end = s.rss_kib();
    eprintln!(
        "load: {} requests in {load_time:?}; RSS start {rss_start} KiB, peak {peak} KiB (bound {} KiB), \
         after {rss_end} KiB; CPU after the clients left {:.1}%",
        all.len(),
        rss_bound_kib(rss_start),
        busy * 100.0
    );
    assert!(busy < 0.05, "the server still works after its clients left: {:.1}% CPU", busy * 100.0);
    assert!(peak <= rss_bound_kib(rss_start), "RSS peaked at {peak} KiB, over {} KiB", rss_bound_kib(rss_start));
    assert!(load_time < Duration::from_secs(60), "{load_time:?}");
    assert!(rss_end <= rss_start + 32 * 1024, "RSS {rss_end} KiB after every game was deleted, from {rss_start} KiB");
    let _ = std::fs::remove_dir_all(&dir);
}
