//! sqslite-storage-bench: the storage choice of sqslite's durable mode, by measurement. Runs
//! the same workload on sqslite's own append-only log (through its real code) and on redb,
//! fjall and SQLite: the send/receive/delete pipeline under both fsync policies, recovery of
//! queued messages into memory, and disk use (BENCHMARKS.md, "Storage comparison").
//!
//! ```text
//! sqslite-storage-bench [--quick] [--keep] [--store log,redb,fjall,sqlite] [--only pipeline|durability]
//!                       [--dir DIR] [--rounds N] [--messages N] [--always-messages N] [--queued N]
//! ```

mod fjall_store;
mod kv;
mod ourlog;
mod redb_store;
mod sqlite_store;
mod workload;

/// sqslite's own allocator, so that recovery allocates as the server does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};

use workload::{Durability, Sizes, Timing};

/// The fsync policies compared, named as sqslite's `--fsync`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Sync at most every 200 ms (sqslite's default).
    Interval,
    /// Acknowledge each write after a sync, concurrent writers sharing it.
    Always,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Store {
    Log,
    Redb,
    Fjall,
    Sqlite,
}

impl Store {
    const ALL: [Store; 4] = [Store::Log, Store::Redb, Store::Fjall, Store::Sqlite];

    fn name(self) -> &'static str {
        match self {
            Store::Log => "log",
            Store::Redb => "redb",
            Store::Fjall => "fjall",
            Store::Sqlite => "sqlite",
        }
    }

    fn pipeline(self, dir: &Path, policy: Policy, n: u64) -> f64 {
        match self {
            Store::Log => ourlog::pipeline(dir, policy, n),
            Store::Redb => kv::pipeline::<redb_store::Redb>(dir, policy, n),
            Store::Fjall => kv::pipeline::<fjall_store::Fjall>(dir, policy, n),
            Store::Sqlite => kv::pipeline::<sqlite_store::Sqlite>(dir, policy, n),
        }
    }

    fn durability(self, dir: &Path, sizes: Sizes) -> Durability {
        match self {
            Store::Log => ourlog::durability(dir, sizes),
            Store::Redb => kv::durability::<redb_store::Redb>(dir, sizes),
            Store::Fjall => kv::durability::<fjall_store::Fjall>(dir, sizes),
            Store::Sqlite => kv::durability::<sqlite_store::Sqlite>(dir, sizes),
        }
    }
}

#[allow(clippy::struct_excessive_bools)] // command-line switches
struct Options {
    quick: bool,
    /// Leave the stores' directories behind, to look at their files.
    keep: bool,
    stores: Vec<Store>,
    pipeline: bool,
    durability: bool,
    dir: PathBuf,
    rounds: u64,
    interval_messages: u64,
    always_messages: u64,
    sizes: Sizes,
}

fn usage(problem: &str) -> ! {
    eprintln!("{problem}\nusage: sqslite-storage-bench [--quick] [--keep] [--store log,redb,fjall,sqlite] [--only pipeline|durability] [--dir DIR] [--rounds N] [--messages N] [--always-messages N] [--queued N]");
    std::process::exit(2)
}

fn number(value: Option<String>) -> u64 {
    value
        .and_then(|v| v.replace(['_', ','], "").parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or_else(|| usage("expected a positive number"))
}

fn parse() -> Options {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let keep = args.iter().any(|a| a == "--keep");
    args.retain(|a| a != "--quick" && a != "--keep");
    let mut o = Options {
        quick,
        keep,
        stores: Store::ALL.to_vec(),
        pipeline: true,
        durability: true,
        dir: std::env::temp_dir().join(format!("sqslite-storage-bench-{}", std::process::id())),
        // Four rounds: each store runs first once.
        rounds: if quick { 1 } else { 4 },
        interval_messages: if quick { 20_000 } else { 100_000 },
        always_messages: if quick { 2_000 } else { 20_000 },
        sizes: Sizes {
            queued: if quick { 20_000 } else { 1_000_000 },
            deleted: 0,
            runs: if quick { 1 } else { 3 },
        },
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--store" => {
                let list = args.next().unwrap_or_else(|| usage("--store needs a list"));
                o.stores = list
                    .split(',')
                    .map(|s| {
                        *Store::ALL
                            .iter()
                            .find(|st| st.name() == s)
                            .unwrap_or_else(|| usage(&format!("unknown store {s:?}")))
                    })
                    .collect();
            }
            "--only" => match args.next().as_deref() {
                Some("pipeline") => o.durability = false,
                Some("durability") => o.pipeline = false,
                _ => usage("--only takes pipeline or durability"),
            },
            "--dir" => {
                o.dir = args
                    .next()
                    .unwrap_or_else(|| usage("--dir needs a path"))
                    .into();
            }
            "--messages" => o.interval_messages = number(args.next()),
            "--always-messages" => o.always_messages = number(args.next()),
            "--rounds" => o.rounds = number(args.next()),
            "--queued" => o.sizes.queued = number(args.next()),
            other => usage(&format!("unknown argument {other:?}")),
        }
    }
    // Nine in ten queued messages are deleted, as in the issue's 1,000,000 / 900,000.
    o.sizes.deleted = o.sizes.queued / 10 * 9;
    o
}

/// A fresh, empty directory for one store and step.
fn fresh(o: &Options, store: Store, step: &str) -> PathBuf {
    let dir = o.dir.join(format!("{}-{step}", store.name()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the bench directory");
    dir
}

#[derive(Default)]
struct Row {
    /// Messages per second of each round.
    interval: Vec<f64>,
    always: Vec<f64>,
    durability: Option<Durability>,
}

fn remove(o: &Options, dir: &Path) {
    if !o.keep {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The pipeline, round after round, each round running every store in turn: the disk's sync
/// latency drifts with what else the machine does, and interleaving spreads that drift over
/// all stores instead of charging it to one. Before each run, `sync(2)` writes back what
/// earlier runs (or other processes) left dirty: on ext4 a journal commit would otherwise
/// carry it inside the measured run's first fsyncs.
fn pipelines(o: &Options, rows: &mut [(Store, Row)]) {
    for round in 1..=o.rounds {
        for (policy, n) in [
            (Policy::Interval, o.interval_messages),
            (Policy::Always, o.always_messages),
        ] {
            // Each round starts with another store, so no store always runs first after the
            // previous policy's runs (and their deleted files) or last.
            let n_stores = rows.len();
            for i in 0..n_stores {
                let (store, row) = &mut rows[(i + round as usize - 1) % n_stores];
                let dir = fresh(o, *store, "pipeline");
                rustix::fs::sync();
                let rate = store.pipeline(&dir, policy, n);
                println!(
                    "{:>6} pipeline {policy:?}, round {round}: {n} messages, {rate:.0} msg/s",
                    store.name()
                );
                match policy {
                    Policy::Interval => row.interval.push(rate),
                    Policy::Always => row.always.push(rate),
                }
                remove(o, &dir);
            }
        }
    }
}

fn durabilities(o: &Options, rows: &mut [(Store, Row)]) {
    for (store, row) in rows.iter_mut() {
        let dir = fresh(o, *store, "durability");
        let d = store.durability(&dir, o.sizes);
        println!("{:>6} durability: {d:?}", store.name());
        row.durability = Some(d);
        remove(o, &dir);
    }
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / f64::from(1 << 20))
}

/// The median of the rounds, and their range when there were several.
fn rate(rounds: &[f64]) -> String {
    let mut r = rounds.to_vec();
    r.sort_by(f64::total_cmp);
    match r.as_slice() {
        [] => "-".into(),
        [one] => format!("{one:.0}"),
        [low, .., high] => {
            let mid = r.len() / 2;
            let median = if r.len().is_multiple_of(2) {
                f64::midpoint(r[mid - 1], r[mid])
            } else {
                r[mid]
            };
            format!("{median:.0} ({low:.0}–{high:.0})")
        }
    }
}

/// Seconds of a recovery; for our log, from the log and then from a snapshot.
fn seconds(d: &Durability, cold: bool) -> String {
    let pick = |t: Timing| if cold { t.cold } else { t.warm }.as_secs_f64();
    match d.recovery_snapshot {
        None => format!("{:.2}", pick(d.recovery)),
        Some(snap) => format!("{:.2} log, {:.2} snapshot", pick(d.recovery), pick(snap)),
    }
}

fn print_table(o: &Options, rows: &[(Store, Row)]) {
    let s = o.sizes;
    println!(
        "\n| store | pipeline, interval (msg/s) | pipeline, always (msg/s) | recovery of {}, warm (s) | cold (s) | disk after {} sends | after {} deletes | after compaction |",
        s.queued, s.queued, s.deleted
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (store, row) in rows {
        let durability = row.durability.as_ref().map_or_else(
            || "- | - | - | - | -".to_owned(),
            |d| {
                format!(
                    "{} | {} | {} | {} | {}",
                    seconds(d, false),
                    seconds(d, true),
                    mib(d.after_sends),
                    mib(d.after_deletes),
                    mib(d.after_compaction),
                )
            },
        );
        println!(
            "| {} | {} | {} | {durability} |",
            store.name(),
            rate(&row.interval),
            rate(&row.always),
        );
    }
}

fn main() {
    let o = parse();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "sqslite-storage-bench{}: pipeline {} (interval) / {} (always) messages, {} producers, {} rounds; durability {} queued, {} deleted; SQLite {}; load {}; data in {}",
        if o.quick { " --quick" } else { "" },
        o.interval_messages,
        o.always_messages,
        workload::PRODUCERS,
        o.rounds,
        o.sizes.queued,
        o.sizes.deleted,
        rusqlite::version(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        o.dir.display(),
    );
    let mut rows: Vec<(Store, Row)> = o.stores.iter().map(|s| (*s, Row::default())).collect();
    if o.pipeline {
        pipelines(&o, &mut rows);
    }
    if o.durability {
        durabilities(&o, &mut rows);
    }
    print_table(&o, &rows);
    let _ = std::fs::remove_dir(&o.dir);
}
