//! The records are the store: a store rebuilt from a live one's records is the live one, and
//! so is one rebuilt from its snapshot with every record replayed again over it (a snapshot
//! is taken while writes go on, so it may already hold what the log after it says).

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::*;
use crate::policy::Policy;
use crate::s3::engine::conditions::Write;
use crate::s3::engine::multipart::Named;
use crate::s3::engine::notifications::Destination;
use crate::s3::engine::Store;

/// Keeps every record.
#[derive(Debug, Default)]
struct Kept(Mutex<Vec<S3Record>>);

impl S3Journal for Kept {
    fn record(&self, record: &S3Record) {
        self.0.lock().unwrap().push(record.clone());
    }
    fn release(&self, _: &Path) {}
}

fn store(root: &Path) -> (Store, Arc<Kept>) {
    let kept = Arc::new(Kept::default());
    let disk = Disk::open(root, false, kept.clone(), u64::MAX).unwrap();
    (Store::on_disk(disk, kept.clone()), kept)
}

/// `bytes` as a whole file of `store`'s.
fn data(store: &Store, bytes: &[u8]) -> Data {
    let mut temp = store.disk.as_ref().unwrap().temp().unwrap();
    temp.write(bytes).unwrap();
    Data::from_file(temp.keep().unwrap())
}

fn object(store: &Store, bytes: &[u8], etag: &str) -> Object {
    Object {
        data: data(store, bytes),
        etag: etag.into(),
        modified: 5,
        meta: Meta {
            content_type: Some("text/plain".into()),
            metadata: vec![("m".into(), "1".into())],
            ..Meta::default()
        },
        parts: None,
    }
}

/// Every kind of change, some undone later.
fn changes(store: &Store) {
    store.create("keep", "1", "us-east-1", 1).unwrap();
    store.create("dropped", "1", "eu-west-1", 2).unwrap();
    let keep = store.bucket("keep").unwrap();
    let policy = r#"{"Version":"2012-10-17","Statement":[]}"#;
    keep.set_policy(Some(Policy::parse(policy).unwrap()))
        .unwrap();
    keep.set_tags(Some(vec![("team".into(), "a".into())]))
        .unwrap();
    keep.set_notifications(vec![Rule {
        id: "r".into(),
        destination: Destination::Queue("arn:aws:sqs:us-east-1:1:q".into()),
        events: vec!["s3:ObjectCreated:*".into()],
        prefix: None,
        suffix: Some(".txt".into()),
    }])
    .unwrap();
    let w = Write::default();
    keep.put("a", object(store, b"first", "e1"), &w).unwrap();
    keep.put("a", object(store, b"second", "e2"), &w).unwrap();
    keep.put("gone", object(store, b"x", "e3"), &w).unwrap();
    keep.delete("gone").unwrap();
    keep.tag_object("a", vec![("t".into(), "1".into())])
        .unwrap();
    let shared = keep.object("a").unwrap().data.slice(1, 4);
    let copy = Object {
        data: shared,
        ..object(store, b"", "e4")
    };
    keep.put("slice", copy, &w).unwrap();
    for (id, key) in [("u1", "big"), ("u2", "open")] {
        keep.start_upload(Upload {
            id: id.into(),
            key: key.into(),
            initiated: 3,
            owner: "1".into(),
            meta: Meta::default(),
            algorithm: Some("CRC32"),
            parts: BTreeMap::new(),
        })
        .unwrap();
        let part = Part {
            data: data(store, b"part"),
            etag: "p".into(),
            modified: 4,
            checksum: Some("c".into()),
        };
        keep.put_part((id, key), 1, part).unwrap();
    }
    let named = [Named {
        number: 1,
        etag: "p".into(),
    }];
    keep.complete(("u1", "big"), &named, &w, 6).unwrap();
    store.delete("dropped").unwrap();
}

/// What a store holds, as text to compare.
fn picture(store: &Store) -> Vec<String> {
    let mut lines = Vec::new();
    for bucket in store.all() {
        let state = bucket.raw();
        let (name, owner) = (&bucket.name, &bucket.owner);
        lines.push(format!(
            "{name} {owner} {} {}",
            bucket.region, bucket.created
        ));
        lines.push(format!("{:?}", state.config()));
        for (key, object) in &state.objects {
            lines.push(format!("{key} {:?}", stored(object)));
        }
        for upload in state.uploads.values() {
            lines.push(format!("{:?}", started(upload)));
            for (number, part) in &upload.parts {
                lines.push(format!("{number} {:?}", stored_part(part)));
            }
        }
    }
    lines
}

#[test]
fn a_store_rebuilt_from_its_records_or_its_snapshot_and_its_records_is_the_same() {
    let root = std::env::temp_dir().join(format!("sqslite-s3-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (live, kept) = store(&root);
    changes(&live);
    let records = kept.0.lock().unwrap().clone();
    let (rebuilt, _) = store(&root);
    for record in records.clone() {
        rebuilt.restore(record).unwrap();
    }
    assert_eq!(picture(&rebuilt), picture(&live));
    assert!(picture(&live).len() > 6, "{:?}", picture(&live));

    let mut snapshot = Vec::new();
    live.snapshot(&mut |r| {
        snapshot.push(r.clone());
        Ok(())
    })
    .unwrap();
    let (again, _) = store(&root);
    for record in snapshot.into_iter().chain(records) {
        again.restore(record).unwrap();
    }
    assert_eq!(picture(&again), picture(&live));
    // This journal removes no file it is told was released: the first `a`, `gone`, and the
    // empty file made for the slice's fields are orphans, cleared by the check.
    let check = again.check_files(false).unwrap();
    assert_eq!(
        (check.damaged.len(), check.orphans.len()),
        (0, 3),
        "{check:?}"
    );
    assert_eq!(again.check_files(false).unwrap().orphans.len(), 0);
    let _ = std::fs::remove_dir_all(&root);
}
