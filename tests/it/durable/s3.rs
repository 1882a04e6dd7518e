//! S3 with a data directory, through the real binary and aws-sdk-s3: buckets, their settings,
//! objects and multipart uploads across SIGKILL, a snapshot and a restart; the files checked
//! at start (orphans cleared, damage refused, `--repair` setting it aside); a body the disk
//! refuses answered InternalError.

use std::path::Path;

use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{CompletedMultipartUpload, CompletedPart, Tag, Tagging};
use aws_sdk_s3::Client;
use sqslite::ManualClock;

use crate::common::durable::{command, temp_dir, Proc};
use crate::common::s3::body;

/// An S3 client for the process (it verifies no signature, so any key and time do).
pub fn client(p: &Proc) -> Client {
    let keys = ("AKIDEXAMPLE", "secret", None);
    crate::common::s3::s3_client_with(&p.endpoint, keys, &ManualClock::starting_now())
}

/// `len` bytes that depend on `key`, so any object can be checked against its name.
pub fn content(key: &str, len: usize) -> Vec<u8> {
    let seed = key
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
    (0..len)
        .map(|i| (seed.wrapping_add(i as u32 / 7).wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect()
}

pub async fn put(s3: &Client, bucket: &str, key: &str, bytes: Vec<u8>) {
    let request = s3
        .put_object()
        .bucket(bucket)
        .key(key)
        .body(ByteStream::from(bytes));
    request.send().await.expect("put");
}

pub async fn get(s3: &Client, bucket: &str, key: &str) -> Vec<u8> {
    body(
        s3.get_object()
            .bucket(bucket)
            .key(key)
            .send()
            .await
            .expect("get"),
    )
    .await
}

/// Whether a GET of `key` is refused NoSuchKey.
async fn no_such_key(s3: &Client, bucket: &str, key: &str) -> bool {
    let got = s3.get_object().bucket(bucket).key(key).send().await;
    got.is_err_and(|e| e.into_service_error().is_no_such_key())
}

/// Starts an upload of `key` and stores `parts` in it; returns its id and the parts.
pub async fn upload(
    s3: &Client,
    bucket: &str,
    key: &str,
    parts: &[Vec<u8>],
) -> (String, Vec<CompletedPart>) {
    let created = s3
        .create_multipart_upload()
        .bucket(bucket)
        .key(key)
        .send()
        .await;
    let id = created.expect("create upload").upload_id.unwrap();
    let mut done = Vec::new();
    for (i, bytes) in parts.iter().enumerate() {
        let number = i as i32 + 1;
        let part = s3
            .upload_part()
            .bucket(bucket)
            .key(key)
            .upload_id(&id)
            .part_number(number)
            .body(ByteStream::from(bytes.clone()))
            .send()
            .await
            .expect("upload part");
        let etag = part.e_tag.unwrap();
        done.push(
            CompletedPart::builder()
                .part_number(number)
                .e_tag(etag)
                .build(),
        );
    }
    (id, done)
}

pub async fn complete(
    s3: &Client,
    bucket: &str,
    key: &str,
    (id, parts): (String, Vec<CompletedPart>),
) -> String {
    let list = CompletedMultipartUpload::builder()
        .set_parts(Some(parts))
        .build();
    let done = s3
        .complete_multipart_upload()
        .bucket(bucket)
        .key(key)
        .upload_id(id)
        .multipart_upload(list)
        .send()
        .await
        .expect("complete");
    done.e_tag.unwrap()
}

const POLICY: &str = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::keep/*"}]}"#;
const BIG: usize = 5 << 20;

/// What the first process writes: a bucket with a Policy and tags, objects with metadata
/// and tags, a copy, a deleted object, a multipart object, an upload left open, a bucket
/// made and deleted. Returns the multipart object's ETag.
async fn write_state(s3: &Client) -> String {
    for bucket in ["keep", "dropped"] {
        s3.create_bucket().bucket(bucket).send().await.unwrap();
    }
    s3.delete_bucket().bucket("dropped").send().await.unwrap();
    s3.put_bucket_policy()
        .bucket("keep")
        .policy(POLICY)
        .send()
        .await
        .unwrap();
    let tag = Tag::builder().key("team").value("a").build().unwrap();
    let tagging = Tagging::builder().tag_set(tag).build().unwrap();
    s3.put_bucket_tagging()
        .bucket("keep")
        .tagging(tagging)
        .send()
        .await
        .unwrap();
    s3.put_object()
        .bucket("keep")
        .key("a.txt")
        .content_type("text/plain")
        .metadata("color", "blue")
        .tagging("t=1")
        .body(ByteStream::from(content("a.txt", 100_000)))
        .send()
        .await
        .unwrap();
    put(s3, "keep", "empty", Vec::new()).await;
    put(s3, "keep", "gone", content("gone", 10)).await;
    s3.delete_object()
        .bucket("keep")
        .key("gone")
        .send()
        .await
        .unwrap();
    s3.copy_object()
        .bucket("keep")
        .key("copy.txt")
        .copy_source("keep/a.txt")
        .send()
        .await
        .unwrap();
    let parts = [content("big", BIG), content("big-tail", 1000)];
    let uploaded = upload(s3, "keep", "big", &parts).await;
    let etag = complete(s3, "keep", "big", uploaded).await;
    upload(s3, "keep", "open", &[content("open", 1000)]).await;
    etag
}

/// Checks what [`write_state`] left.
async fn check_state(s3: &Client, big_etag: &str) {
    let buckets = s3.list_buckets().send().await.unwrap();
    let names: Vec<_> = buckets.buckets().iter().filter_map(|b| b.name()).collect();
    assert_eq!(names, ["keep"]);
    let policy = s3.get_bucket_policy().bucket("keep").send().await.unwrap();
    assert_eq!(policy.policy(), Some(POLICY));
    let tags = s3.get_bucket_tagging().bucket("keep").send().await.unwrap();
    assert_eq!(tags.tag_set()[0].key(), "team");
    check_objects(s3, big_etag).await;
}

/// Checks the objects and uploads [`write_state`] left.
async fn check_objects(s3: &Client, big_etag: &str) {
    let a = s3
        .get_object()
        .bucket("keep")
        .key("a.txt")
        .send()
        .await
        .unwrap();
    assert_eq!(a.content_type(), Some("text/plain"));
    assert_eq!(a.metadata().unwrap()["color"], "blue");
    assert_eq!(body(a).await, content("a.txt", 100_000));
    let tagged = s3
        .get_object_tagging()
        .bucket("keep")
        .key("a.txt")
        .send()
        .await
        .unwrap();
    assert_eq!(tagged.tag_set()[0].value(), "1");
    assert!(get(s3, "keep", "empty").await.is_empty());
    assert_eq!(get(s3, "keep", "copy.txt").await, content("a.txt", 100_000));
    assert!(no_such_key(s3, "keep", "gone").await);
    let big = s3
        .get_object()
        .bucket("keep")
        .key("big")
        .send()
        .await
        .unwrap();
    assert_eq!(big.e_tag(), Some(big_etag));
    let mut expected = content("big", BIG);
    expected.extend(content("big-tail", 1000));
    assert!(body(big).await == expected, "the multipart object's bytes");
    let (_, part) = open_upload(s3).await;
    assert_eq!(part.size(), Some(1000));
}

/// The one upload in progress, `open`: its id and its one part.
async fn open_upload(s3: &Client) -> (String, aws_sdk_s3::types::Part) {
    let uploads = s3.list_multipart_uploads().bucket("keep").send().await;
    let uploads = uploads.unwrap().uploads.unwrap_or_default();
    assert_eq!(uploads.len(), 1);
    let id = uploads[0].upload_id().unwrap().to_owned();
    let listed = s3.list_parts().bucket("keep").key("open").upload_id(&id);
    let parts = listed.send().await.unwrap().parts.unwrap_or_default();
    (id, parts[0].clone())
}

/// Files in `dir`'s `s3/<sub>`.
fn files(dir: &Path, sub: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("s3").join(sub))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Completes the upload left open (after the restarts) and deletes every object and the
/// bucket.
async fn complete_and_empty(s3: &Client) {
    let (id, part) = open_upload(s3).await;
    let named = CompletedPart::builder()
        .part_number(1)
        .e_tag(part.e_tag().unwrap())
        .build();
    complete(s3, "keep", "open", (id, vec![named])).await;
    assert_eq!(get(s3, "keep", "open").await, content("open", 1000));
    for key in ["a.txt", "copy.txt", "big", "open", "empty"] {
        s3.delete_object()
            .bucket("keep")
            .key(key)
            .send()
            .await
            .unwrap();
    }
    s3.delete_bucket().bucket("keep").send().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buckets_objects_and_uploads_survive_a_kill_9_a_snapshot_and_a_restart() {
    let dir = temp_dir("s3-state");
    let p = Proc::start(&dir);
    let etag = write_state(&client(&p)).await;
    p.kill();
    let p = Proc::start(&dir);
    check_state(&client(&p), &etag).await;
    p.snapshot().await;
    p.kill();
    let p = Proc::start(&dir);
    let s3 = client(&p);
    check_state(&s3, &etag).await;
    complete_and_empty(&s3).await;
    drop(s3);
    drop(p);
    let p = Proc::start(&dir);
    let buckets = client(&p).list_buckets().send().await.unwrap();
    assert!(buckets.buckets().is_empty());
    assert_eq!(
        files(&dir, "objects"),
        Vec::<String>::new(),
        "every file was removed"
    );
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cuts the file at `path` to 100 bytes.
fn cut_short(path: &Path) {
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(100).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orphans_are_cleared_damage_is_refused_and_repair_sets_it_aside() {
    let dir = temp_dir("s3-repair");
    let p = Proc::start(&dir);
    let s3 = client(&p);
    s3.create_bucket().bucket("box").send().await.unwrap();
    put(&s3, "box", "whole", content("whole", 3000)).await;
    let before = files(&dir, "objects");
    put(&s3, "box", "torn", content("torn", 5000)).await;
    p.kill();
    let torn = files(&dir, "objects")
        .into_iter()
        .find(|f| !before.contains(f))
        .unwrap();
    let objects = dir.join("s3/objects");
    // A crash between a body's rename and its record leaves an orphan: cleared at start.
    std::fs::write(objects.join("orphan"), b"no record names me").unwrap();
    let p = Proc::start(&dir);
    assert!(!objects.join("orphan").exists(), "the orphan was removed");
    assert_eq!(get(&client(&p), "box", "torn").await, content("torn", 5000));
    p.kill();
    // A file cut short is damage: the start is refused, naming the object.
    cut_short(&objects.join(&torn));
    std::fs::write(objects.join("orphan"), b"again").unwrap();
    let out = command(&dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("object box/torn"), "{stderr}");
    assert!(stderr.contains("--repair"), "{stderr}");
    assert!(
        objects.join(&torn).exists() && objects.join("orphan").exists(),
        "nothing was touched"
    );
    // --repair drops the damaged object and sets its file and the orphan aside.
    let mut repair = command(&dir);
    repair
        .arg("--repair")
        .stdout(std::process::Stdio::inherit());
    let p = Proc::spawn(repair);
    let s3 = client(&p);
    assert!(no_such_key(&s3, "box", "torn").await);
    assert_eq!(get(&s3, "box", "whole").await, content("whole", 3000));
    assert_eq!(files(&dir, "damaged"), {
        let mut set = vec!["orphan".to_owned(), torn.clone()];
        set.sort();
        set
    });
    p.kill();
    let p = Proc::start(&dir);
    assert_eq!(
        get(&client(&p), "box", "whole").await,
        content("whole", 3000)
    );
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_the_disk_refuses_is_an_internal_error_and_nothing_is_stored() {
    let dir = temp_dir("s3-refused");
    let p = Proc::start(&dir);
    let s3 = client(&p);
    s3.create_bucket().bucket("box").send().await.unwrap();
    // A temporary folder that cannot take a file, as a full or read-only disk would not.
    let tmp = dir.join("s3/tmp");
    std::fs::remove_dir(&tmp).unwrap();
    std::fs::write(&tmp, b"not a folder").unwrap();
    let refused = s3
        .put_object()
        .bucket("box")
        .key("k")
        .body(ByteStream::from(vec![1; 10]))
        .send()
        .await;
    let err = refused.unwrap_err();
    assert_eq!(crate::common::s3::status(&err), 500);
    assert_eq!(
        err.into_service_error().meta().code(),
        Some("InternalError")
    );
    let missing = s3.head_object().bucket("box").key("k").send().await;
    assert!(missing.is_err(), "nothing was stored");
    std::fs::remove_file(&tmp).unwrap();
    std::fs::create_dir(&tmp).unwrap();
    put(&s3, "box", "k", vec![2; 10]).await;
    assert_eq!(get(&s3, "box", "k").await, vec![2; 10]);
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A server on `dir` whose object files may hold `max` bytes.
fn bounded(dir: &Path, max: u64) -> Proc {
    let mut cmd = command(dir);
    cmd.args(["--s3-max-bytes", &max.to_string()])
        .stdout(std::process::Stdio::inherit())
        .stderr(std::process::Stdio::piped());
    Proc::spawn(cmd)
}

/// `--s3-max-bytes` bounds the object files as it bounds memory: a PUT past it is
/// EntityTooLarge with nothing stored, a delete makes room, and after a restart the files
/// already stored count against it.
#[tokio::test]
async fn the_bound_holds_on_disk_and_across_a_restart() {
    let dir = temp_dir("s3-bound");
    let p = bounded(&dir, 100_000);
    let s3 = client(&p);
    s3.create_bucket().bucket("box").send().await.unwrap();
    put(&s3, "box", "a", content("a", 60_000)).await;
    let refused = s3
        .put_object()
        .bucket("box")
        .key("b")
        .body(ByteStream::from(content("b", 60_000)))
        .send()
        .await
        .expect_err("past the bound");
    let e = refused.into_service_error();
    assert_eq!(e.meta().code(), Some("EntityTooLarge"), "{e:?}");
    assert!(no_such_key(&s3, "box", "b").await, "nothing stored");
    drop(p);
    let p = bounded(&dir, 100_000);
    let s3 = client(&p);
    let again = s3
        .put_object()
        .bucket("box")
        .key("b")
        .body(ByteStream::from(content("b", 60_000)))
        .send()
        .await;
    assert!(again.is_err(), "the stored object counts after a restart");
    s3.delete_object()
        .bucket("box")
        .key("a")
        .send()
        .await
        .unwrap();
    put(&s3, "box", "b", content("b", 60_000)).await;
    assert_eq!(get(&s3, "box", "b").await, content("b", 60_000));
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
