//! `sqslite-bench recovery`: how long durable mode takes to recover, and what it stores.
//! Fills a data directory with N queued messages of B bytes through the engine (no HTTP),
//! then times opening it again, from the log and then from a compacted snapshot, each in a
//! fresh process (as a server start: a second recovery in the same process would reuse the
//! first one's memory), with the files in the page cache and, as root, without.

use std::path::Path;
use std::time::Instant;

use sqslite::support::Queues;

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

/// Times the recovery of `dir` in fresh processes, as a server start meets it: with the
/// files in the page cache (a restart) and, when run as root, after dropping it (a reboot).
fn recover(dir: &Path, label: &str) {
    for cold in [false, true] {
        let mut cmd = std::process::Command::new(std::env::current_exe().expect("own path"));
        cmd.args(["recovery", "--existing", "--dir"]).arg(dir);
        if cold {
            cmd.arg("--drop-page-cache");
        }
        let out = cmd.output().expect("the bench runs itself");
        let text = String::from_utf8_lossy(&out.stdout);
        let what = if cold {
            "page cache dropped"
        } else {
            "page cache warm"
        };
        println!("recovery from {label}, {what}: {}", text.trim());
    }
}

/// `recovery --existing`: one recovery of `dir` in this process.
pub fn recover_existing(dir: &Path, drop_cache: bool) {
    if drop_cache && !drop_page_cache() {
        println!("skipped (dropping the page cache needs root)");
        return;
    }
    recover_once(dir);
}

fn recover_once(dir: &Path) {
    let started = Instant::now();
    let recovered = Queues::open(dir).expect("the directory recovers");
    let took = started.elapsed();
    let queued = recovered.queued();
    println!(
        "{queued} messages in {:.2} s ({} MiB on disk)",
        took.as_secs_f64(),
        disk_use(dir) >> 20
    );
    drop(recovered);
}

pub fn run(n: usize, size: usize, chosen: Option<&Path>) {
    if let Some(dir) = chosen {
        if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
            eprintln!(
                "{} is not empty: give a new or empty directory",
                dir.display()
            );
            std::process::exit(2);
        }
    }
    let dir = chosen.map_or_else(
        || std::env::temp_dir().join("sqslite-recovery-bench"),
        Path::to_path_buf,
    );
    let _ = std::fs::remove_dir_all(&dir);
    let queues = Queues::open(&dir).expect("opens");
    queues.create("bench", &[]).expect("creates");
    let body = "x".repeat(size);
    let started = Instant::now();
    queues.fill("bench", n, &body).expect("sends");
    drop(queues); // stops the writer once everything is written
    println!(
        "filled: {n} messages of {size} B in {:.2} s, {} MiB on disk",
        started.elapsed().as_secs_f64(),
        disk_use(&dir) >> 20
    );
    recover(&dir, "the log");
    let queues = Queues::open(&dir).expect("opens");
    queues.compact().expect("compacts");
    drop(queues);
    recover(&dir, "a snapshot");
    if chosen.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
