//! Durable mode through the real binary: state written by one process is there after a
//! SIGKILL and a restart (queues, attributes, tags, messages in every state, receipt
//! handles, FIFO sequence numbers and deduplication, dead letters); the lock, the format
//! version check and torn-tail recovery, as a user would meet them.

use std::process::{Command, Stdio};

use crate::common::durable::{
    attribute, chattr, command, log_file, queue_urls, receive, send, temp_dir, Proc,
};
use aws_sdk_sqs::types::{
    Message, MessageAttributeValue, MessageSystemAttributeName, QueueAttributeName,
};
use aws_sdk_sqs::Client;

/// What the first process left behind, for the second to find.
#[derive(Clone)]
struct Before {
    dlq: String,
    orders: String,
    jobs: String,
    redrive: String,
    held: aws_sdk_sqs::types::Message,
    in_flight: aws_sdk_sqs::types::Message,
    fifo_held: aws_sdk_sqs::types::Message,
    sent: Vec<(String, String)>,
}

/// A queue `name` (visibility `visibility` seconds, tagged) whose dead letters go to
/// `<name>-dlq` after one receive; returns both URLs.
async fn with_dead_letters(c: &Client, name: &str, visibility: &str) -> (String, String) {
    let dlq = c
        .create_queue()
        .queue_name(format!("{name}-dlq"))
        .send()
        .await
        .unwrap();
    let dlq = dlq.queue_url().unwrap().to_owned();
    let dlq_arn = attribute(c, &dlq, QueueAttributeName::QueueArn).await;
    let redrive = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}"#);
    let source = c
        .create_queue()
        .queue_name(name)
        .attributes(QueueAttributeName::VisibilityTimeout, visibility)
        .attributes(QueueAttributeName::RedrivePolicy, &redrive)
        .tags("team", "payments")
        .send()
        .await
        .unwrap();
    (source.queue_url().unwrap().to_owned(), dlq)
}

/// Queues of both kinds with attributes and tags; messages visible, in flight and dead-lettered.
async fn write_state(c: &Client) -> Before {
    let (orders, dlq, held, in_flight) = orders_with_a_dead_letter_and_one_in_flight(c).await;
    let (jobs, sent) = jobs_with_two_sent(c).await;
    let fifo_held = receive(c, &jobs, 1).await.remove(0);
    let redrive = attribute(c, &orders, QueueAttributeName::RedrivePolicy).await;
    Before {
        dlq,
        orders,
        jobs,
        redrive,
        held,
        in_flight,
        fifo_held,
        sent,
    }
}

/// orders with three messages: one `held` past maxReceiveCount (moved to the DLQ by the
/// next receive), one in flight, one visible; returns (orders, dlq, held, in flight).
async fn orders_with_a_dead_letter_and_one_in_flight(
    c: &Client,
) -> (String, String, Message, Message) {
    let (orders, dlq) = with_dead_letters(c, "orders", "600").await;
    for body in ["first", "second", "third"] {
        c.send_message()
            .queue_url(&orders)
            .message_body(body)
            .message_attributes(
                "kind",
                MessageAttributeValue::builder()
                    .data_type("String")
                    .string_value(body)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
    }
    let held = receive(c, &orders, 1).await.remove(0);
    // A message past maxReceiveCount moves to the DLQ at its next receive.
    c.change_message_visibility()
        .queue_url(&orders)
        .receipt_handle(held.receipt_handle().unwrap())
        .visibility_timeout(0)
        .send()
        .await
        .unwrap();
    let held_again = receive(c, &orders, 1).await;
    assert!(held_again.is_empty() || held_again[0].body() != held.body());
    let in_flight = match held_again.first() {
        Some(m) => m.clone(),
        None => receive(c, &orders, 1).await.remove(0),
    };
    (orders, dlq, held, in_flight)
}

/// jobs.fifo (content-based deduplication) with job-1 and job-2 sent in one group; returns
/// its URL and each send's (message id, sequence number).
async fn jobs_with_two_sent(c: &Client) -> (String, Vec<(String, String)>) {
    let jobs = c
        .create_queue()
        .queue_name("jobs.fifo")
        .attributes(QueueAttributeName::FifoQueue, "true")
        .attributes(QueueAttributeName::ContentBasedDeduplication, "true")
        .send()
        .await
        .unwrap();
    let jobs = jobs.queue_url().unwrap().to_owned();
    let mut sent = Vec::new();
    for body in ["job-1", "job-2"] {
        let r = c
            .send_message()
            .queue_url(&jobs)
            .message_body(body)
            .message_group_id("g")
            .send()
            .await
            .unwrap();
        sent.push((
            r.message_id().unwrap().to_owned(),
            r.sequence_number().unwrap().to_owned(),
        ));
    }
    (jobs, sent)
}

async fn check_state(c: &Client, b: Before) {
    let orders = &b.orders;
    check_queues_and_orders_settings(c, orders, &b.redrive).await;
    // One visible, one in flight in orders; the dead letter in the DLQ with its source.
    assert_eq!(
        attribute(c, orders, QueueAttributeName::ApproximateNumberOfMessages).await,
        "1"
    );
    assert_eq!(
        attribute(
            c,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "1"
    );
    let dead = receive(c, &b.dlq, 10).await;
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].body(), b.held.body());
    let source = dead[0]
        .attributes()
        .unwrap()
        .get(&MessageSystemAttributeName::DeadLetterQueueSourceArn);
    assert!(source.is_some_and(|s| s.ends_with(":orders")), "{source:?}");
    check_the_old_handle_deletes(c, orders, &b.in_flight).await;
    check_fifo(c, &b.jobs, &b.fifo_held, &b.sent).await;
}

/// The three queues are back, and orders keeps its visibility, redrive policy and tag.
async fn check_queues_and_orders_settings(c: &Client, orders: &str, redrive: &str) {
    let urls = queue_urls(c).await;
    assert_eq!(urls.len(), 3, "{urls:?}");
    assert_eq!(
        attribute(c, orders, QueueAttributeName::VisibilityTimeout).await,
        "600"
    );
    assert_eq!(
        attribute(c, orders, QueueAttributeName::RedrivePolicy).await,
        redrive
    );
    let tags = c.list_queue_tags().queue_url(orders).send().await.unwrap();
    assert_eq!(
        tags.tags().unwrap().get("team").map(String::as_str),
        Some("payments")
    );
}

/// The handle issued before the restart still deletes its message; the visible one is left.
async fn check_the_old_handle_deletes(c: &Client, orders: &str, in_flight: &Message) {
    c.delete_message()
        .queue_url(orders)
        .receipt_handle(in_flight.receipt_handle().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(
        attribute(
            c,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "0"
    );
    let rest = receive(c, orders, 10).await;
    assert_eq!(rest.len(), 1);
    let kind = rest[0].message_attributes().unwrap().get("kind").unwrap();
    assert_eq!(kind.string_value(), Some(rest[0].body().unwrap()));
}

/// FIFO: the dedup window and the sequence numbers carry on; the held handle deletes.
async fn check_fifo(
    c: &Client,
    jobs: &str,
    fifo_held: &aws_sdk_sqs::types::Message,
    sent: &[(String, String)],
) {
    let again = c
        .send_message()
        .queue_url(jobs)
        .message_body("job-1")
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    assert_eq!(again.message_id(), Some(sent[0].0.as_str()));
    let next = c
        .send_message()
        .queue_url(jobs)
        .message_body("job-3")
        .message_group_id("g")
        .send()
        .await
        .unwrap();
    assert!(next.sequence_number().unwrap() > sent[1].1.as_str());
    c.delete_message()
        .queue_url(jobs)
        .receipt_handle(fifo_held.receipt_handle().unwrap())
        .send()
        .await
        .unwrap();
    let order: Vec<_> = receive(c, jobs, 10)
        .await
        .iter()
        .map(|m| m.body().unwrap().to_owned())
        .collect();
    assert_eq!(order, ["job-2", "job-3"]);
    // Deletions are durable too: after another kill only what is left comes back.
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queues_messages_and_handles_survive_a_kill_9() {
    let dir = temp_dir("state");
    let p = Proc::start(&dir);
    let before = write_state(&p.client).await;
    p.kill();
    let p = Proc::start(&dir);
    check_state(&p.client, before.clone()).await;
    let Before { orders, jobs, .. } = &before;
    p.kill();
    let p = Proc::start(&dir);
    assert_eq!(
        attribute(
            &p.client,
            jobs,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "2"
    );
    assert_eq!(
        attribute(
            &p.client,
            orders,
            QueueAttributeName::ApproximateNumberOfMessagesNotVisible
        )
        .await,
        "1"
    );
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_is_refused_naming_the_first() {
    let dir = temp_dir("lock");
    let first = Proc::start(&dir);
    let out = command(&dir).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("is in use by process {}", first.child.id())),
        "{stderr}"
    );
    drop(first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_tail_is_dropped_and_a_foreign_version_refused() {
    let dir = temp_dir("torn");
    let p = Proc::start(&dir);
    let url = p
        .client
        .create_queue()
        .queue_name("q")
        .send()
        .await
        .unwrap();
    let url = url.queue_url().unwrap().to_owned();
    send(&p.client, &url, "kept").await;
    p.kill();
    let path = log_file(&dir);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend_from_slice(&[40, 0, 0, 0, 1, 2, 3]); // half a record, as a crash leaves it
    std::fs::write(&path, &bytes).unwrap();
    let p = Proc::start(&dir);
    let got = receive(&p.client, &url, 10).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].body(), Some("kept"));
    p.kill();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&99u32.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let out = command(&dir).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("format version 99"), "{stderr}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing was reset");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A disk that fills up: the server runs under a file-size limit (`ulimit -f`, with SIGXFSZ
/// ignored so the write fails with EFBIG instead of killing it), the nearest thing to a full
/// disk without mounting a tiny filesystem. Writes get a 500-class error, reads go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_writes_with_a_server_error_and_reads_go_on() {
    let dir = temp_dir("full");
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "trap '' XFSZ; ulimit -f 1024; exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_sqslite"))
        .args(["--port", "0", "--data-dir"])
        .arg(&dir)
        .env_remove("SQSLITE_CONFIG")
        .env_remove("SQSLITE_PORT")
        .env_remove("SQSLITE_FSYNC")
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped());
    let mut p = Proc::spawn(cmd);
    let c = &p.client;
    let url = c.create_queue().queue_name("q").send().await.unwrap();
    let url = url.queue_url().unwrap().to_owned();
    let body = "x".repeat(200_000);
    let mut failure = None;
    for _ in 0..20 {
        if let Err(e) = c
            .send_message()
            .queue_url(&url)
            .message_body(&body)
            .send()
            .await
        {
            failure = Some(e);
            break;
        }
    }
    let err = failure.expect("a send fails once the file cannot grow");
    let code = crate::common::code(&err);
    assert!(
        ["InternalError", "InternalFailure"].contains(&code.as_str()),
        "{err:?}"
    );
    assert!(
        crate::common::message(&err).contains("could not be stored"),
        "{err:?}"
    );
    let urls = queue_urls(c).await;
    assert_eq!(urls, std::slice::from_ref(&url));
    assert!(
        !attribute(c, &url, QueueAttributeName::ApproximateNumberOfMessages)
            .await
            .is_empty()
    );
    assert!(
        p.child.try_wait().unwrap().is_none(),
        "the server is still running"
    );
    p.child.kill().unwrap();
    let _ = p.child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The one move task of `source`: its status and how many messages it has moved.
async fn move_task(c: &Client, source: &str) -> (String, i64) {
    let out = c
        .list_message_move_tasks()
        .source_arn(source)
        .send()
        .await
        .unwrap();
    let task = &out.results()[0];
    (
        task.status().unwrap().to_owned(),
        task.approximate_number_of_messages_moved(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_move_task_resumes_after_a_kill_9() {
    let dir = temp_dir("move");
    let p = Proc::start_manual(&dir);
    let c = &p.client;
    let (refunds, dlq) = with_dead_letters(c, "refunds", "30").await;
    let dlq_arn = attribute(c, &dlq, QueueAttributeName::QueueArn).await;
    let refunds_arn = attribute(c, &refunds, QueueAttributeName::QueueArn).await;
    for i in 0..5 {
        let body = format!("refund {i}");
        c.send_message()
            .queue_url(&dlq)
            .message_body(body)
            .send()
            .await
            .unwrap();
    }
    c.start_message_move_task()
        .source_arn(&dlq_arn)
        .destination_arn(&refunds_arn)
        .max_number_of_messages_per_second(1)
        .send()
        .await
        .unwrap();
    p.advance(1).await;
    let (status, moved) = move_task(c, &dlq_arn).await;
    assert_eq!(status, "RUNNING");
    assert!(
        (1..5).contains(&moved),
        "moved {moved} of 5 before the kill"
    );
    // The ticker's moves are nobody's request; an acknowledged send after them means the
    // log has them too (one writer, in order).
    c.send_message()
        .queue_url(&dlq)
        .message_body("barrier")
        .send()
        .await
        .unwrap();
    p.kill();

    let p = Proc::start_manual(&dir);
    let c = &p.client;
    let (status, after_restart) = move_task(c, &dlq_arn).await;
    assert_eq!(status, "RUNNING");
    assert!(after_restart >= moved, "moved {after_restart}, was {moved}");
    p.advance(10).await;
    assert_eq!(move_task(c, &dlq_arn).await, ("COMPLETED".to_owned(), 5));
    let mut bodies: Vec<String> = receive(c, &refunds, 10)
        .await
        .iter()
        .map(|m| m.body().unwrap().to_owned())
        .collect();
    bodies.sort();
    let expected: Vec<String> = (0..5).map(|i| format!("refund {i}")).collect();
    assert_eq!(bodies, expected);
    assert_eq!(receive(c, &dlq, 10).await[0].body(), Some("barrier"));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_declaration_applies_to_the_stored_queue_at_the_next_start() {
    let dir = temp_dir("declared");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.with_extension("toml");
    let declare = |extra: &str| {
        let text = format!("[[queues]]\nname = \"payments\"\n{extra}\n");
        std::fs::write(&config, text).unwrap();
        let mut cmd = command(&dir.join("data"));
        cmd.arg("--config")
            .arg(&config)
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped());
        Proc::spawn(cmd)
    };
    let p = declare("VisibilityTimeout = 30\ntags = { team = \"billing\" }");
    let url = p
        .client
        .get_queue_url()
        .queue_name("payments")
        .send()
        .await
        .unwrap()
        .queue_url()
        .unwrap()
        .to_owned();
    p.client
        .set_queue_attributes()
        .queue_url(&url)
        .attributes(QueueAttributeName::MaximumMessageSize, "2048")
        .send()
        .await
        .unwrap();
    send(&p.client, &url, "kept").await;
    p.kill();

    let p = declare("VisibilityTimeout = 60\nDelaySeconds = 5\ntags = { team = \"payments\" }");
    let c = &p.client;
    assert_eq!(
        attribute(c, &url, QueueAttributeName::VisibilityTimeout).await,
        "60"
    );
    assert_eq!(
        attribute(c, &url, QueueAttributeName::DelaySeconds).await,
        "5"
    );
    // What the file does not name keeps the value set at run time.
    assert_eq!(
        attribute(c, &url, QueueAttributeName::MaximumMessageSize).await,
        "2048"
    );
    let tags = c.list_queue_tags().queue_url(&url).send().await.unwrap();
    assert_eq!(
        tags.tags().unwrap().get("team").map(String::as_str),
        Some("payments")
    );
    assert_eq!(receive(c, &url, 1).await[0].body(), Some("kept"));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&config);
}

/// Sends `n` messages to a new queue `name` in batches of ten; returns its URL.
async fn fill(c: &Client, name: &str, n: usize) -> String {
    let url = c.create_queue().queue_name(name).send().await.unwrap();
    let url = url.queue_url().unwrap().to_owned();
    for start in (0..n).step_by(10) {
        let entries = (start..n.min(start + 10)).map(|i| {
            aws_sdk_sqs::types::SendMessageBatchRequestEntry::builder()
                .id(i.to_string())
                .message_body(format!("bulk {i}"))
                .build()
                .unwrap()
        });
        let out = c
            .send_message_batch()
            .queue_url(&url)
            .set_entries(Some(entries.collect()))
            .send()
            .await
            .unwrap();
        assert!(out.failed().is_empty());
    }
    url
}

async fn snapshot(p: &Proc, body: &str) -> crate::common::RawResponse {
    crate::common::raw(
        &p.endpoint,
        "POST",
        "/_sqslite/snapshot",
        &[("content-type", "application/json")],
        body,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_and_its_backup_hold_every_state_and_the_log_goes_on_after_it() {
    let dir = temp_dir("snapshot");
    let backup = dir.with_extension("backup");
    let _ = std::fs::remove_dir_all(&backup);
    let p = Proc::start(&dir);
    let before = write_state(&p.client).await;
    // More than one turn of the snapshot's walk through a queue (in another region, so
    // check_state's ListQueues stays as it was).
    let eu = |p: &Proc| crate::common::client_for(&p.endpoint, "eu-west-1", "test");
    let bulk = fill(&eu(&p), "bulk", 2_500).await;
    let r = snapshot(
        &p,
        &format!(r#"{{"backup_to":{:?}}}"#, backup.to_str().unwrap()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["backup_bytes"].as_u64().unwrap() > 2_500 * 6);
    let again = snapshot(
        &p,
        &format!(r#"{{"backup_to":{:?}}}"#, backup.to_str().unwrap()),
    )
    .await;
    assert_eq!(
        again.status, 400,
        "a backup never overwrites: {}",
        again.body
    );
    let after = eu(&p)
        .send_message()
        .queue_url(&bulk)
        .message_body("after")
        .send()
        .await;
    after.unwrap();
    p.kill();

    let p = Proc::start(&dir);
    let visible = QueueAttributeName::ApproximateNumberOfMessages;
    assert_eq!(attribute(&eu(&p), &bulk, visible.clone()).await, "2501");
    check_state(&p.client, before.clone()).await;
    drop(p);

    let p = Proc::start(&backup);
    assert_eq!(attribute(&eu(&p), &bulk, visible).await, "2500");
    check_state(&p.client, before).await;
    drop(p);
    for d in [&dir, &backup] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_without_a_data_directory_is_refused() {
    let server = crate::common::TestServer::start().await;
    let r = crate::common::raw(&server.endpoint(), "POST", "/_sqslite/snapshot", &[], "").await;
    assert_eq!(r.status, 400);
    assert!(r.body.contains("no --data-dir"), "{}", r.body);
}

async fn receive_attempt(c: &Client, url: &str, attempt: &str) -> Vec<(String, String)> {
    let out = c
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(10)
        .visibility_timeout(600)
        .receive_request_attempt_id(attempt)
        .send()
        .await
        .unwrap();
    out.messages()
        .iter()
        .map(|m| {
            let id = m.message_id().unwrap().to_owned();
            (id, m.receipt_handle().unwrap().to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_receive_retried_after_a_restart_gets_the_same_messages_and_handles() {
    let dir = temp_dir("attempt");
    let p = Proc::start(&dir);
    let url = p
        .client
        .create_queue()
        .queue_name("ledger.fifo")
        .attributes(QueueAttributeName::FifoQueue, "true")
        .attributes(QueueAttributeName::ContentBasedDeduplication, "true")
        .send()
        .await
        .unwrap();
    let url = url.queue_url().unwrap().to_owned();
    for body in ["debit", "credit"] {
        let send = p.client.send_message().queue_url(&url).message_body(body);
        send.message_group_id("acct-1").send().await.unwrap();
    }
    let first = receive_attempt(&p.client, &url, "retry-1").await;
    assert_eq!(first.len(), 2);
    p.kill();

    let p = Proc::start(&dir);
    assert_eq!(receive_attempt(&p.client, &url, "retry-1").await, first);
    assert!(receive_attempt(&p.client, &url, "another").await.is_empty());
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_directory_fails_writes_and_the_start_clearly_and_loses_nothing() {
    let dir = temp_dir("read-only");
    let p = Proc::start(&dir);
    let c = &p.client;
    let url = c.create_queue().queue_name("q").send().await.unwrap();
    let url = url.queue_url().unwrap().to_owned();
    send(c, &url, "kept").await;
    // The immutable flag refuses writes even to root and to files already open, like a
    // file system remounted read-only under a running server.
    let log = log_file(&dir);
    if !chattr("+i", &[&log, &dir]) {
        eprintln!("skipped: chattr +i is not available here (needs root on ext4/xfs/btrfs)");
        return;
    }
    let err = crate::common::expect_code_for(
        c.send_message()
            .queue_url(&url)
            .message_body("refused")
            .send()
            .await,
        "InternalError",
        "a write to a read-only log",
    );
    assert!(
        crate::common::message(&err).contains("could not be stored"),
        "{err:?}"
    );
    let visible = QueueAttributeName::ApproximateNumberOfMessages;
    assert!(!attribute(c, &url, visible.clone()).await.is_empty());
    let listed = c.list_queues().send().await.unwrap();
    assert_eq!(listed.queue_urls(), std::slice::from_ref(&url));
    p.kill();

    let out = command(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains(&*dir.to_string_lossy()), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    assert!(chattr("-i", &[&log, &dir]));
    let p = Proc::start(&dir);
    assert_eq!(receive(&p.client, &url, 10).await[0].body(), Some("kept"));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
