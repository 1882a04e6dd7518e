//! The issue-17 figures, each next to its yardstick of the same run: batches against the bare
//! server, parked consumers against nobody parked, many queues, fan-out against one queue.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::load::{self, Conn, Protocol};
use crate::scale;
use crate::scenarios::{self, create_queue, extract, Row};
use crate::{emit, sqslite, Args};

/// Sizes of the scale scenarios: the in a full run, smaller in `--quick`.
struct Sizes {
    parked: usize,
    rounds: usize,
    queues: usize,
    fan_out_queues: usize,
    handles: u64,
}

impl Sizes {
    fn of(args: &Args) -> Sizes {
        if args.quick {
            Sizes {
                parked: 200,
                rounds: 50,
                queues: 1_000,
                fan_out_queues: 100,
                handles: 20_000,
            }
        } else {
            Sizes {
                parked: 1_000,
                rounds: 500,
                queues: 10_000,
                fan_out_queues: 1_000,
                handles: 200_000,
            }
        }
    }
}

/// Runs every scale scenario on fresh servers and emits their rows.
pub async fn run(rows: &mut Vec<Row>, args: &Args, reference: SocketAddr, secs: Duration) {
    let sizes = Sizes::of(args);
    batches(rows, args, reference, secs, sizes.handles).await;
    if args.ratios_only {
        return;
    }

    parked(rows, args, &sizes).await;
    many_queues(rows, args, secs, sizes.queues).await;
    fan_out(rows, args, secs, sizes.fan_out_queues).await;
}

/// Sends answered by `sizes.parked` parked long polls: the server's CPU against unparked
/// polls, and the wake-up latency.
async fn parked(rows: &mut Vec<Row>, args: &Args, sizes: &Sizes) {
    let server = sqslite().await;
    let p = scale::parked_consumers(&server, args.protocol, sizes.parked, sizes.rounds).await;
    server.stop().await;
    let mut cpu = Row::figure(
        &format!(
            "{} sends answered by {} parked polls: server CPU",
            sizes.rounds, sizes.parked
        ),
        p.cpu_ratio,
        "x unparked",
    );
    cpu.connections = sizes.parked;
    emit(rows, cpu);
    let mut wake = p.wakeups_us;
    let (p50, p90, p99) = scenarios::summarize(&mut wake);
    let mut row = Row::figure(
        &format!(
            "wake-up among {} parked ({} rounds)",
            sizes.parked, sizes.rounds
        ),
        p50,
        "ms (p50)",
    );
    (row.p50_ms, row.p90_ms, row.p99_ms) = (Some(p50), Some(p90), Some(p99));
    emit(rows, row);
}

/// `n` queues on one server: memory each, the per-queue requests, the scrapes and alarm
/// evaluation over all of them, and startup with `n` declared.
async fn many_queues(rows: &mut Vec<Row>, args: &Args, secs: Duration, n: usize) {
    let server = sqslite().await;
    let m = scale::many_queues(&server, args.protocol, n, secs).await;
    server.stop().await;
    for (name, value, unit) in [
        (
            format!("{n} empty queues: memory each"),
            m.bytes_per_queue,
            "B",
        ),
        (format!("{n} queues: CreateQueue"), m.create_per_s, "req/s"),
        (format!("{n} queues: GetQueueUrl"), m.get_url_per_s, "req/s"),
        (
            format!("{n} queues: ListQueues page of 1000"),
            m.list_page_ms,
            "ms",
        ),
        (
            format!("{n} queues: ListQueues page of 10"),
            m.list_small_page_ms,
            "ms",
        ),
        (format!("{n} queues: /metrics scrape"), m.metrics_ms, "ms"),
        (
            format!("{n} queues: /metrics scrape, server CPU"),
            m.metrics_cpu_ms,
            "ms",
        ),
        (format!("{n} queues: alarm evaluation"), m.alarms_ms, "ms"),
        (
            format!("{n} queues: alarm evaluation, server CPU"),
            m.alarms_cpu_ms,
            "ms",
        ),
    ] {
        emit(rows, Row::figure(&name, value, unit));
    }
    let program = std::env::var_os("SQSLITE_BENCH_SERVER").map_or_else(
        || crate::process::sibling("sqslite"),
        std::path::PathBuf::from,
    );
    let startup = scale::declared_startup(&program, n, if args.quick { 1 } else { 5 }).await;
    emit(
        rows,
        Row::figure(&format!("startup with {n} declared queues"), startup, "ms"),
    );
}

/// SendMessage on 64 connections to random queues among `queues`, against one queue, in
/// alternating rounds on the same server.
async fn fan_out(rows: &mut Vec<Row>, args: &Args, secs: Duration, queues: usize) {
    let server = sqslite().await;
    let mut urls = Vec::with_capacity(queues);
    for i in 0..queues {
        urls.push(create_queue(server.addr, args.protocol, &format!("fan-{i}")).await);
    }
    let single = vec![create_queue(server.addr, args.protocol, "fan-single").await];
    let rounds = if args.quick { 1 } else { 4 };
    let round = (secs / rounds).max(Duration::from_secs(1));
    let (mut one, mut many) = load::alternated(
        rounds,
        || scale::fan_out(server.addr, args.protocol, single.clone(), 64, round),
        || scale::fan_out(server.addr, args.protocol, urls.clone(), 64, round),
    )
    .await;
    server.stop().await;
    let base = Row::rate(
        "SendMessage, one queue",
        "sqslite",
        64,
        &mut one,
        "req/s",
        1.0,
    );
    let mut row = Row::rate(
        &format!("SendMessage, random of {queues} queues"),
        "sqslite",
        64,
        &mut many,
        "req/s",
        1.0,
    );
    row.ratio_to_reference = Some(row.rate / base.rate.max(1e-9));
    emit(rows, base);
    emit(rows, row);
}

/// SendMessageBatch(10), ReceiveMessage(10) and DeleteMessageBatch(10) on 16 connections,
/// each against the bare server answering the same requests.
async fn batches(
    rows: &mut Vec<Row>,
    args: &Args,
    reference: SocketAddr,
    secs: Duration,
    handles: u64,
) {
    let protocol = args.protocol;
    let server = sqslite().await;
    let addr = server.addr;
    let send_url = create_queue(addr, protocol, "bench-batch-send").await;
    let recv_url = create_queue(addr, protocol, "bench-batch-receive").await;
    scenarios::fill(addr, protocol, &recv_url, 10_000, 100).await;
    let del_url = create_queue(addr, protocol, "bench-batch-delete").await;
    scenarios::fill(addr, protocol, &del_url, handles, 100).await;
    let groups = receive_all(addr, protocol, &del_url).await;

    let entries: Vec<_> = (0..10)
        .map(|i| json!({"Id": format!("e{i}"), "MessageBody": "x".repeat(100)}))
        .collect();
    let send = json!({"QueueUrl": send_url, "Entries": entries});
    let receive = json!({"QueueUrl": recv_url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 0});
    let host = addr.to_string();
    let ref_host = reference.to_string();
    let make_send = |host: String| {
        let send = send.clone();
        move |_: usize, _: u64| load::sqs_request(&host, protocol, "SendMessageBatch", &send)
    };
    versus(
        rows,
        "SendMessageBatch(10)",
        (reference, addr),
        (secs, args.rounds_per_ratio()),
        make_send(ref_host.clone()),
        make_send(host.clone()),
    )
    .await;
    let make_receive = |host: String| {
        let receive = receive.clone();
        move |_: usize, _: u64| load::sqs_request(&host, protocol, "ReceiveMessage", &receive)
    };
    versus(
        rows,
        "ReceiveMessage(10)",
        (reference, addr),
        (secs, args.rounds_per_ratio()),
        make_receive(ref_host.clone()),
        make_receive(host.clone()),
    )
    .await;
    let groups = Arc::new(groups);
    let make_delete =
        |host: String| delete_batches(host, protocol, del_url.clone(), groups.clone());
    versus(
        rows,
        "DeleteMessageBatch(10)",
        (reference, addr),
        (secs, args.rounds_per_ratio()),
        make_delete(ref_host),
        make_delete(host),
    )
    .await;
    server.stop().await;
}

/// DeleteMessageBatch requests, each of the next ten handles of `groups`.
fn delete_batches(
    host: String,
    protocol: Protocol,
    url: String,
    groups: Arc<Vec<Vec<String>>>,
) -> impl Fn(usize, u64) -> hyper::Request<load::Body> + Send + Sync + 'static {
    let next = Arc::new(AtomicUsize::new(0));
    move |_: usize, _: u64| {
        // Each batch deletes ten messages still there until the handles run out; after that
        // deletes repeat (still a success, but cheaper: the messages are gone).
        let i = next.fetch_add(1, Ordering::Relaxed) % groups.len().max(1);
        let entries: Vec<_> = groups
            .get(i)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(k, h)| json!({"Id": format!("d{k}"), "ReceiptHandle": h}))
            .collect();
        let input = json!({"QueueUrl": url, "Entries": entries});
        load::sqs_request(&host, protocol, "DeleteMessageBatch", &input)
    }
}

/// The bare server and sqslite in alternating rounds on 16 connections; sqslite's row
/// carries the ratio.
async fn versus<F, G>(
    rows: &mut Vec<Row>,
    name: &str,
    (reference, target): (SocketAddr, SocketAddr),
    (secs, rounds): (Duration, u32),
    on_reference: F,
    on_target: G,
) where
    F: Fn(usize, u64) -> hyper::Request<load::Body> + Send + Sync + 'static,
    G: Fn(usize, u64) -> hyper::Request<load::Body> + Send + Sync + 'static,
{
    // Alternating rounds, as for SendMessage: one round each was the noisiest figure.
    let round = (secs / rounds).max(Duration::from_secs(1));
    let (on_reference, on_target) = (Arc::new(on_reference), Arc::new(on_target));
    let (mut base, mut ours) = load::alternated(
        rounds,
        || {
            let make = on_reference.clone();
            load::run(reference, 16, round, move |c, i| make(c, i))
        },
        || {
            let make = on_target.clone();
            load::run(target, 16, round, move |c, i| make(c, i))
        },
    )
    .await;
    let base_row = Row::rate(name, "reference", 16, &mut base, "req/s", 1.0);
    let mut row = Row::rate(name, "sqslite", 16, &mut ours, "req/s", 1.0);
    row.against(&base_row, &ours, &base);
    emit(rows, base_row);
    emit(rows, row);
}

/// Receives every message of the queue (visibility 12 h), as groups of up to ten handles.
async fn receive_all(addr: SocketAddr, protocol: Protocol, url: &str) -> Vec<Vec<String>> {
    let mut conn = Conn::open(addr).await.expect("connect to receive");
    let input = json!({"QueueUrl": url, "MaxNumberOfMessages": 10, "VisibilityTimeout": 43_200});
    let mut groups = Vec::new();
    loop {
        let (_, body) = conn.call(protocol, "ReceiveMessage", &input).await;
        let handles = extract(&String::from_utf8_lossy(&body), "ReceiptHandle");
        if handles.is_empty() {
            return groups;
        }
        groups.push(handles);
    }
}
