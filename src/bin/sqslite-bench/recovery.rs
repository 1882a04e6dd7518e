//! `sqslite-bench recovery`: how long durable mode takes to recover, and what it stores.
//! Fills a data directory with N queued messages of B bytes through the engine (no HTTP),
//! then times opening it again, from the log and then from a compacted snapshot, each with
//! the files in the page cache (a restart) and, when run as root, after dropping it (a
//! reboot).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use sqslite::clock::{Clock, SystemClock};
use sqslite::durable::{mode, FsyncPolicy};
use sqslite::engine::arn::QueueKey;
use sqslite::engine::message::NewMessage;

fn disk_use(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.len())
            .sum()
    })
}

/// Empties the page cache (root only), so the next recovery reads from the disk.
fn drop_page_cache() -> bool {
    std::process::Command::new("sync")
        .status()
        .is_ok_and(|s| s.success())
        && std::fs::write("/proc/sys/vm/drop_caches", "3").is_ok()
}

fn recover(dir: &Path, label: &str) {
    recover_once(dir, &format!("{label}, page cache warm"));
    if drop_page_cache() {
        recover_once(dir, &format!("{label}, page cache dropped"));
    } else {
        println!("recovery from {label}, page cache dropped: skipped (needs root)");
    }
}

fn recover_once(dir: &Path, label: &str) {
    let started = Instant::now();
    let (registry, durable) = mode::open(dir, FsyncPolicy::Never, false, SystemClock.now())
        .expect("the directory recovers");
    let took = started.elapsed();
    let queued: usize = registry
        .all()
        .iter()
        .map(|q| {
            let d = q.depth(SystemClock.now());
            d.visible + d.in_flight + d.delayed
        })
        .sum();
    println!(
        "recovery from {label}: {queued} messages in {:.2} s ({} MiB on disk)",
        took.as_secs_f64(),
        disk_use(dir) >> 20
    );
    drop((registry, durable));
}

pub fn run(n: usize, size: usize, dir: Option<std::path::PathBuf>) {
    let dir = dir.unwrap_or_else(|| std::env::temp_dir().join("sqslite-recovery-bench"));
    let _ = std::fs::remove_dir_all(&dir);
    let now = SystemClock.now();
    let (registry, durable) = mode::open(&dir, FsyncPolicy::Never, false, now).expect("opens");
    let key = QueueKey {
        region: "us-east-1".into(),
        account: "000000000000".into(),
        name: "bench".into(),
    };
    let queue = registry
        .create(key, &BTreeMap::new(), BTreeMap::new(), now)
        .expect("creates");
    let body = "x".repeat(size);
    let sender: Arc<str> = Arc::from("bench");
    let started = Instant::now();
    for _ in 0..n {
        let msg = NewMessage {
            body: body.clone(),
            sender_id: sender.clone(),
            ..NewMessage::default()
        };
        queue.send(msg, now).expect("sends");
    }
    drop(queue);
    drop((registry, durable)); // stops the writer once everything is written
    println!(
        "filled: {n} messages of {size} B in {:.2} s, {} MiB on disk",
        started.elapsed().as_secs_f64(),
        disk_use(&dir) >> 20
    );
    recover(&dir, "the log");
    let (registry, durable) = mode::open(&dir, FsyncPolicy::Never, false, now).expect("opens");
    durable
        .compact(&registry, SystemClock.now())
        .expect("compacts");
    drop((registry, durable));
    recover(&dir, "a snapshot");
    let _ = std::fs::remove_dir_all(&dir);
}
