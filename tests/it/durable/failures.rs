//! Durable mode when things go wrong: a second process, a torn tail, a foreign format
//! version, a full disk and a read-only directory, each met clearly and losing nothing.

use std::process::{Command, Stdio};

use crate::common::durable::{
    attribute, chattr, command, log_file, queue_urls, receive, send, temp_dir, Proc,
};
use aws_sdk_sqs::types::QueueAttributeName;

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
