//! `sqslite-bench`: a benchmark anyone can rerun. It starts sqslite (and a bare hyper server as
//! the yardstick) as child processes on this machine, drives them over HTTP/1.1 keep-alive, and
//! prints JSON lines and a table. `cargo build --release && target/release/sqslite-bench`.

#![warn(clippy::too_many_lines)]

mod at_scale;
mod load;
mod process;
mod recovery;
mod reference;
mod s3;
mod scale;
mod scenarios;
mod suite;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use load::{Conn, Protocol};
use process::Server;
use scenarios::Row;

// The yardstick runs from this binary, so it allocates as sqslite does and the ratio
// compares request handling, not allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Each bool is a command-line switch.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Parser)]
#[command(
    name = "sqslite-bench",
    about = "Benchmarks sqslite against a bare hyper server"
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Wire protocol of the generated requests.
    #[arg(long, value_enum, default_value = "json")]
    protocol: Protocol,
    /// Seconds per rate measurement.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
    /// Alternated rounds of each server behind every ratio to the bare server (one with
    /// --quick); each round lasts --seconds divided by this, and at least a second.
    #[arg(long, default_value_t = 5)]
    rounds: u32,
    /// A short smoke run for CI: one second per measurement, smaller fills.
    #[arg(long)]
    quick: bool,
    /// Also measure throughput with 1,000,000 messages queued (takes a minute or two).
    #[arg(long)]
    deep: bool,
    /// Body size of the messages --deep fills the queues with.
    #[arg(long, default_value_t = 100)]
    deep_body_bytes: usize,
    /// Producer connections in the pipeline (each sends batches of 10).
    #[arg(long, default_value_t = 4)]
    producers: usize,
    /// Consumer connections in the pipeline (each receives 10 and deletes them in one batch).
    #[arg(long, default_value_t = 8)]
    consumers: usize,
    /// Only the pipeline scenario (for tuning producer/consumer counts); with --deep, only the
    /// pipeline on a queue holding 1,000,000 messages.
    #[arg(long)]
    pipeline_only: bool,
    /// Only the scale scenarios (batches, parked consumers, many queues, fan-out, startup).
    #[arg(long)]
    scale_only: bool,
    /// Only the figures with a ratio to the bare server: SendMessage on 16 and 64
    /// connections and the three batch actions (about 70 s at `--seconds 1`).
    #[arg(long)]
    ratios_only: bool,
    /// Only the SendMessage ratios, with a second bare server in sqslite's place: what a
    /// server identical to the yardstick reads, the figure's own spread from run to run.
    #[arg(long)]
    calibrate: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// S3's figures: 1 KiB PUTs and GETs, a multipart upload and its download, for sqslite
    /// or another S3 server (`--against`).
    S3(s3::Options),
    /// Serve the fixed-response reference server (used by the benchmark itself).
    Reference {
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
    /// Fill a data directory with queued messages, then time its recovery.
    Recovery {
        #[arg(long, default_value_t = 1_000_000)]
        messages: usize,
        #[arg(long, default_value_t = 1024)]
        body_bytes: usize,
        /// Where to fill: a new or empty directory, kept afterwards [default: a temporary
        /// one, removed]. With --existing, the data directory to time as it is.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Only time the recovery of `--dir` as a server start would (one whose server is
        /// stopped; a torn tail is cut as at any start).
        #[arg(long, requires = "dir")]
        existing: bool,
        /// With --existing: drop the page cache first (root only), as after a reboot.
        #[arg(long, requires = "existing")]
        drop_page_cache: bool,
    },
}

impl Args {
    /// Alternated rounds per ratio figure.
    fn rounds_per_ratio(&self) -> u32 {
        if self.quick {
            1
        } else {
            self.rounds.max(1)
        }
    }
}

fn emit(rows: &mut Vec<Row>, row: Row) {
    println!("{}", serde_json::to_string(&row).unwrap_or_default());
    rows.push(row);
}

pub(crate) async fn sqslite() -> Server {
    // SQSLITE_BENCH_ARGS adds server flags, e.g. "--data-dir /tmp/d{n} --fsync always"; `{n}`
    // numbers each server started, so none shares another's data directory.
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    // SQSLITE_BENCH_SERVER picks another build (e.g. the profiling one) of the server.
    let program = std::env::var_os("SQSLITE_BENCH_SERVER")
        .map_or_else(|| process::sibling("sqslite"), std::path::PathBuf::from);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let extra = std::env::var("SQSLITE_BENCH_ARGS")
        .unwrap_or_default()
        .replace("{n}", &n.to_string());
    let mut args = vec!["--port", "0"];
    args.extend(extra.split_whitespace());
    Server::spawn(&program, &args)
        .await
        .expect("sqslite starts (build it with cargo build --release)")
}

async fn reference_server() -> Server {
    Server::spawn(&std::env::current_exe().unwrap_or_default(), &["reference"])
        .await
        .expect("reference starts")
}

/// Spawn to first answered request, the best of `runs` starts.
async fn cold_start(runs: usize) -> Vec<u32> {
    let mut samples = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let server = sqslite().await;
        let mut conn = Conn::open(server.addr).await.expect("connect");
        let (status, _) = conn
            .call(Protocol::Json, "ListQueues", &serde_json::json!({}))
            .await;
        if status == 200 {
            samples.push(started.elapsed().as_micros() as u32);
        }
        server.stop().await;
    }
    samples
}

/// SendMessage on 16 and 64 connections, `target` (named `target_name` in the rows) against
/// the yardstick at `reference`.
async fn rate_pair(
    rows: &mut Vec<Row>,
    args: &Args,
    reference: SocketAddr,
    (target, target_name): (SocketAddr, &str),
    url: &str,
    secs: Duration,
) {
    // Alternating rounds, each server first in turn, so a change in the machine's load during
    // the run (other tenants, the kernel) weighs on both sides of the ratio alike.
    let rounds = args.rounds_per_ratio();
    let round = (secs / rounds).max(Duration::from_secs(1));
    for conns in [16, 64] {
        let (mut base, mut ours) = load::alternated(
            rounds,
            || scenarios::send(reference, args.protocol, url, conns, round),
            || scenarios::send(target, args.protocol, url, conns, round),
        )
        .await;
        let base_row = Row::rate("SendMessage", "reference", conns, &mut base, "req/s", 1.0);
        let mut row = Row::rate("SendMessage", target_name, conns, &mut ours, "req/s", 1.0);
        row.against(&base_row, &ours, &base);
        emit(rows, base_row);
        emit(rows, row);
    }
}

async fn pipeline_row(
    rows: &mut Vec<Row>,
    name: &str,
    args: &Args,
    target: SocketAddr,
    url: &str,
    secs: Duration,
) -> f64 {
    let mut p = scenarios::pipeline(
        target,
        args.protocol,
        url,
        args.producers,
        args.consumers,
        secs,
    )
    .await;
    let (p50, p90, p99) = scenarios::summarize(&mut p.latencies_us);
    let secs = p.elapsed.as_secs_f64();
    let rate = p.delivered as f64 / secs;
    let mut row = Row::figure(name, rate, "msg/s");
    row.connections = args.producers + args.consumers;
    (row.p50_ms, row.p90_ms, row.p99_ms) = (Some(p50), Some(p90), Some(p99));
    emit(rows, row);
    let mut sent = Row::figure(&format!("{name}: sent"), p.sent as f64 / secs, "msg/s");
    sent.connections = args.producers;
    emit(rows, sent);
    // Throughput of both directions: on a deep queue consumers never wait, so counting only
    // what they consume would compare a different balance of work with the empty queue.
    (p.sent + p.delivered) as f64 / secs
}

pub(crate) fn print_table(rows: &[Row]) {
    let ms = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"));
    println!(
        "\n{:<46} {:>9} {:>5} {:>12} {:>8} {:>7} {:>7} {:>7} {:>6}",
        "scenario", "server", "conns", "value", "unit", "p50 ms", "p90 ms", "p99 ms", "ratio"
    );
    for r in rows {
        println!(
            "{:<46} {:>9} {:>5} {:>12.1} {:>8} {:>7} {:>7} {:>7} {:>6}",
            r.scenario,
            r.server,
            r.connections,
            r.rate,
            r.unit,
            ms(r.p50_ms),
            ms(r.p90_ms),
            ms(r.p99_ms),
            r.ratio_to_reference
                .map_or_else(|| "-".to_owned(), |v| format!("{:.0}%", v * 100.0)),
        );
    }
}

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        match args.command {
            Some(Command::Reference { port }) => {
                if let Err(e) = reference::serve(port).await {
                    eprintln!("reference server: {e}");
                }
            }
            Some(Command::Recovery {
                messages,
                body_bytes,
                dir,
                existing,
                drop_page_cache,
            }) => match (dir, existing) {
                (Some(dir), true) => recovery::recover_existing(&dir, drop_page_cache),
                (dir, _) => recovery::run(messages, body_bytes, dir.as_deref()),
            },
            Some(Command::S3(options)) => s3::run(options).await,
            None => suite::run(args).await,
        }
    });
}
