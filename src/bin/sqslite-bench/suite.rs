//! The full benchmark run: which figures it takes, in order, each on a server of its own when
//! what an earlier scenario left behind would weigh on it.

use std::net::SocketAddr;
use std::time::Duration;

use super::scenarios::{self, Row};
use super::{
    at_scale, cold_start, emit, pipeline_row, print_table, rate_pair, reference_server, sqslite,
    Args,
};

pub async fn run(args: Args) {
    let secs = Duration::from_secs(if args.quick { 1 } else { args.seconds });
    let mut rows = Vec::new();
    if only(&mut rows, &args, secs).await {
        print_table(&rows);
        return;
    }
    let mut starts = cold_start(if args.quick { 3 } else { 10 }).await;
    let (p50, _, _) = scenarios::summarize(&mut starts);
    emit(
        &mut rows,
        Row::figure("cold start to first answer (median)", p50, "ms"),
    );

    let reference = reference_server().await;
    let target = sqslite().await;
    let url = scenarios::create_queue(target.addr, args.protocol, "bench").await;
    emit(
        &mut rows,
        Row::figure("RSS idle", target.rss_mib().unwrap_or(0.0), "MiB"),
    );
    rate_pair(
        &mut rows,
        &args,
        reference.addr,
        (target.addr, "sqslite"),
        &url,
        secs,
    )
    .await;
    at_scale::run(&mut rows, &args, reference.addr, secs).await;
    reference.stop().await;

    let batch_url = scenarios::create_queue(target.addr, args.protocol, "bench-batch").await;
    let mut b = scenarios::batch(target.addr, args.protocol, &batch_url, 16, secs, 100).await;
    emit(
        &mut rows,
        Row::rate("SendMessageBatch(10)", "sqslite", 16, &mut b, "msg/s", 10.0),
    );

    // A fresh server: what the rate scenarios left queued must not weigh on this figure.
    let piped = sqslite().await;
    let pipe_url = scenarios::create_queue(piped.addr, args.protocol, "bench-pipeline").await;
    pipeline_row(
        &mut rows,
        "pipeline send/receive/delete (batches of 10)",
        &args,
        piped.addr,
        &pipe_url,
        secs,
    )
    .await;
    piped.stop().await;

    long_poll_row(&mut rows, &args, target.addr).await;
    target.stop().await;

    memory_row(&mut rows, &args).await;
    if args.deep {
        deep(&mut rows, &args, secs).await;
    }
    print_table(&rows);
}

/// Throughput on a queue holding 1,000,000 messages against the same workload on a shallow
/// queue (20,000 queued, so consumers never wait in either run): what depth alone costs.
async fn deep(rows: &mut Vec<Row>, args: &Args, secs: Duration) {
    let mut rates = Vec::new();
    for (depth, name) in [
        (20_000, "pipeline with 20,000 queued"),
        (1_000_000, "pipeline with 1,000,000 queued"),
    ] {
        let server = sqslite().await;
        let url = scenarios::create_queue(server.addr, args.protocol, "bench-deep").await;
        scenarios::fill(
            server.addr,
            args.protocol,
            &url,
            depth,
            args.deep_body_bytes,
        )
        .await;
        let rss = server.rss_mib().unwrap_or(0.0);
        emit(
            rows,
            Row::figure(&format!("RSS with {depth} queued"), rss, "MiB"),
        );
        rates.push(pipeline_row(rows, name, args, server.addr, &url, secs).await);
        server.stop().await;
    }
    let ratio = rates[1] / rates[0].max(1e-9);
    emit(
        rows,
        Row::figure("1,000,000 / 20,000 queued (sent + consumed)", ratio, "x"),
    );
}

/// The single-figure modes (`--pipeline-only`, with or without `--deep`, and
/// `--scale-only`, `--ratios-only`, `--calibrate`); `false` when none is asked for.
async fn only(rows: &mut Vec<Row>, args: &Args, secs: Duration) -> bool {
    if args.pipeline_only && args.deep {
        deep(rows, args, secs).await;
        return true;
    }
    if args.pipeline_only {
        let target = sqslite().await;
        let url = scenarios::create_queue(target.addr, args.protocol, "bench-pipeline").await;
        pipeline_row(
            rows,
            "pipeline send/receive/delete (batches of 10)",
            args,
            target.addr,
            &url,
            secs,
        )
        .await;
        target.stop().await;
        return true;
    }

    if args.calibrate {
        calibrate(rows, args, secs).await;
        return true;
    }
    if args.ratios_only {
        let reference = reference_server().await;
        let target = sqslite().await;
        let url = scenarios::create_queue(target.addr, args.protocol, "bench").await;
        rate_pair(
            rows,
            args,
            reference.addr,
            (target.addr, "sqslite"),
            &url,
            secs,
        )
        .await;
        target.stop().await;
        at_scale::run(rows, args, reference.addr, secs).await;
        reference.stop().await;
        return true;
    }
    if args.scale_only {
        let reference = reference_server().await;
        at_scale::run(rows, args, reference.addr, secs).await;
        reference.stop().await;
        return true;
    }
    false
}

/// The SendMessage pairs with a second yardstick in sqslite's place.
async fn calibrate(rows: &mut Vec<Row>, args: &Args, secs: Duration) {
    let (reference, twin) = (reference_server().await, reference_server().await);
    let url = "http://127.0.0.1/000000000000/bench";
    rate_pair(rows, args, reference.addr, (twin.addr, "twin"), url, secs).await;
    twin.stop().await;
    reference.stop().await;
}

async fn long_poll_row(rows: &mut Vec<Row>, args: &Args, addr: SocketAddr) {
    let lp_url = scenarios::create_queue(addr, args.protocol, "bench-longpoll").await;
    let mut wake = scenarios::long_poll_wakeup(
        addr,
        args.protocol,
        &lp_url,
        if args.quick { 10 } else { 50 },
    )
    .await;
    let (p50, p90, p99) = scenarios::summarize(&mut wake);
    let mut row = Row::figure("long-poll wake-up", p50, "ms (p50)");
    (row.p50_ms, row.p90_ms, row.p99_ms) = (Some(p50), Some(p90), Some(p99));
    emit(rows, row);
}

/// Resident memory of a fresh server holding a queue of 1 KiB messages.
async fn memory_row(rows: &mut Vec<Row>, args: &Args) {
    let fresh = sqslite().await;
    let mem_url = scenarios::create_queue(fresh.addr, args.protocol, "bench-memory").await;
    let count = if args.quick { 10_000 } else { 100_000 };
    scenarios::fill(fresh.addr, args.protocol, &mem_url, count, 1024).await;
    emit(
        rows,
        Row::figure(
            &format!("RSS with {count} x 1 KiB queued"),
            fresh.rss_mib().unwrap_or(0.0),
            "MiB",
        ),
    );
    fresh.stop().await;
}
