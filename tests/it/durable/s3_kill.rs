//! SIGKILL at random moments while S3 PUTs and multipart completions run: after every restart
//! each acknowledged write is there with its bytes, and every object there is whole (each key
//! is written once, with bytes its name determines).

use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart};
use aws_sdk_s3::Client;
use tokio::sync::mpsc;

use super::s3::{client, content, get};
use crate::common::durable::{temp_dir, Proc};

/// A random number below `n`.
fn below(n: u64) -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    u64::from_le_bytes(bytes) % n
}

/// A key that names its length, so its bytes can be checked: `<tag>-<len>`.
fn key(tag: &str, len: usize) -> String {
    format!("{tag}-{len}")
}

fn length_of(key: &str) -> usize {
    key.rsplit('-').next().unwrap().parse().unwrap()
}

/// Writes until the server dies: PUTs of 1 byte to 300 KiB, or (worker 0) two-part
/// multipart objects. Each acknowledged key goes to `acked`.
async fn writer(s3: Client, round: usize, worker: usize, acked: mpsc::UnboundedSender<String>) {
    for i in 0.. {
        let tag = format!("r{round}-w{worker}-{i}");
        let done = if worker == 0 {
            let (head, tail) = (
                content(&format!("{tag}-1"), 5 << 20),
                below(2000) as usize + 1,
            );
            let key = key(&tag, (5 << 20) + tail);
            let parts = [head, content(&format!("{tag}-2"), tail)];
            try_multipart(&s3, &key, &parts).await.then_some(key)
        } else {
            let key = key(&tag, below(300 << 10) as usize + 1);
            let bytes = content(&key, length_of(&key));
            let sent = s3
                .put_object()
                .bucket("box")
                .key(&key)
                .body(bytes.into())
                .send()
                .await;
            sent.is_ok().then_some(key)
        };
        let Some(key) = done else { return };
        if acked.send(key).is_err() {
            return;
        }
    }
}

/// A multipart upload completed, or false at the first failure (the server killed).
async fn try_multipart(s3: &Client, key: &str, parts: &[Vec<u8>]) -> bool {
    let (bucket, mut done) = ("box", Vec::new());
    let Ok(created) = s3
        .create_multipart_upload()
        .bucket(bucket)
        .key(key)
        .send()
        .await
    else {
        return false;
    };
    let id = created.upload_id.unwrap_or_default();
    for (i, bytes) in parts.iter().enumerate() {
        let number = i as i32 + 1;
        let part = s3.upload_part().bucket(bucket).key(key).upload_id(&id);
        let body = aws_sdk_s3::primitives::ByteStream::from(bytes.clone());
        let Ok(part) = part.part_number(number).body(body).send().await else {
            return false;
        };
        let etag = part.e_tag.unwrap_or_default();
        done.push(
            CompletedPart::builder()
                .part_number(number)
                .e_tag(etag)
                .build(),
        );
    }
    let list = CompletedMultipartUpload::builder()
        .set_parts(Some(done))
        .build();
    let complete = s3
        .complete_multipart_upload()
        .bucket(bucket)
        .key(key)
        .upload_id(id);
    complete.multipart_upload(list).send().await.is_ok()
}

/// The bytes a multipart key's object must hold.
fn expected(key: &str) -> Vec<u8> {
    let len = length_of(key);
    let tag = key.rsplit_once('-').unwrap().0;
    if len > 5 << 20 {
        let mut bytes = content(&format!("{tag}-1"), 5 << 20);
        bytes.extend(content(&format!("{tag}-2"), len - (5 << 20)));
        bytes
    } else {
        content(key, len)
    }
}

/// Every acknowledged key is there, and every key there holds its bytes.
async fn check(s3: &Client, acked: &[String]) {
    let mut listed = Vec::new();
    let mut pages = s3.list_objects_v2().bucket("box").into_paginator().send();
    while let Some(page) = pages.next().await {
        listed.extend(
            page.unwrap()
                .contents()
                .iter()
                .map(|o| o.key().unwrap().to_owned()),
        );
    }
    for key in acked {
        assert!(listed.contains(key), "acknowledged {key} is missing");
    }
    for key in &listed {
        assert!(get(s3, "box", key).await == expected(key), "{key} is torn");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_puts_and_completions_survive_kill_9_at_random_moments() {
    let dir = temp_dir("s3-kill");
    let mut acked = Vec::new();
    for round in 0..10 {
        let p = Proc::start(&dir);
        let s3 = client(&p);
        if round == 0 {
            s3.create_bucket().bucket("box").send().await.unwrap();
        }
        check(&s3, &acked).await;
        let (tx, mut rx) = mpsc::unbounded_channel();
        let workers: Vec<_> = (0..4)
            .map(|w| tokio::spawn(writer(s3.clone(), round, w, tx.clone())))
            .collect();
        drop(tx);
        // Killed after a random number of acknowledged writes, others in flight (and in the
        // first round not before a multipart object is complete).
        let target = below(30) + 3;
        let mut p = p;
        let mut count = 0;
        while count < target || (round == 0 && !acked.iter().any(|k| length_of(k) > 5 << 20)) {
            acked.push(rx.recv().await.expect("the writers go on"));
            count += 1;
        }
        p.child.kill().unwrap();
        p.child.wait().unwrap();
        for w in workers {
            w.await.unwrap();
        }
        while let Some(key) = rx.recv().await {
            acked.push(key);
        }
    }
    let p = Proc::start(&dir);
    check(&client(&p), &acked).await;
    assert!(
        acked.iter().any(|k| length_of(k) > 5 << 20),
        "a multipart object was written"
    );
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
