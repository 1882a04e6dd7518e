//! Every S3 record kind survives its byte form, and a damaged one is refused, not misread.

use super::*;

fn segment(file: &str, offset: u64, len: u64) -> Segment {
    Segment {
        file: file.into(),
        file_len: offset + len + 3,
        offset,
        len,
    }
}

fn meta() -> Meta {
    Meta {
        content_type: Some("text/plain".into()),
        content_encoding: None,
        content_disposition: Some("inline".into()),
        content_language: None,
        cache_control: Some("no-cache".into()),
        expires: Some(1_700_000_000_000),
        metadata: vec![("color".into(), "blue".into())],
        checksum: Some(Checksum {
            algorithm: "CRC32C",
            value: "abc=".into(),
        }),
        tags: vec![("team".into(), "a".into()), ("empty".into(), String::new())],
    }
}

fn records() -> Vec<S3Record> {
    let mut all = bucket_records();
    all.extend(object_records());
    all
}

fn bucket_records() -> Vec<S3Record> {
    let rule = Rule {
        id: "r1".into(),
        destination: Destination::Topic("arn:aws:sns:us-east-1:000000000000:t".into()),
        events: vec!["s3:ObjectCreated:*".into()],
        prefix: Some("in/".into()),
        suffix: None,
    };
    vec![
        S3Record::Bucket {
            name: "box".into(),
            owner: "000000000000".into(),
            region: "eu-west-1".into(),
            created: 42,
        },
        S3Record::Config {
            bucket: "box".into(),
            config: Config {
                policy: Some(r#"{"Version":"2012-10-17","Statement":[]}"#.into()),
                tags: Some(vec![("k".into(), "v".into())]),
                notifications: vec![rule],
            },
        },
        S3Record::Config {
            bucket: "box".into(),
            config: Config {
                policy: None,
                tags: None,
                notifications: Vec::new(),
            },
        },
    ]
}

fn object_records() -> Vec<S3Record> {
    vec![
        S3Record::Object {
            bucket: "box".into(),
            key: "a/b.txt".into(),
            object: StoredObject {
                segments: vec![segment("f1", 0, 5), segment("f2", 7, 11)],
                etag: "0123-2".into(),
                modified: 9,
                meta: meta(),
                parts: Some(vec![5, 11]),
            },
        },
        S3Record::Object {
            bucket: "box".into(),
            key: "empty".into(),
            object: StoredObject {
                segments: Vec::new(),
                etag: "d41d".into(),
                modified: 1,
                meta: Meta::default(),
                parts: None,
            },
        },
        S3Record::ObjectDeleted {
            bucket: "box".into(),
            key: "a/b.txt".into(),
        },
        S3Record::Upload {
            bucket: "box".into(),
            upload: Upload {
                id: "u1".into(),
                key: "big".into(),
                initiated: 3,
                owner: "000000000000".into(),
                meta: meta(),
                algorithm: Some("SHA256"),
                parts: std::collections::BTreeMap::new(),
            },
        },
        S3Record::Part {
            bucket: "box".into(),
            upload: "u1".into(),
            number: 10_000,
            part: StoredPart {
                segments: vec![segment("p1", 0, 5 << 20)],
                etag: "beef".into(),
                modified: 4,
                checksum: Some("sum".into()),
            },
        },
        S3Record::UploadEnded {
            bucket: "box".into(),
            upload: "u1".into(),
        },
        S3Record::BucketDeleted { name: "box".into() },
        S3Record::Cleared,
    ]
}

#[test]
fn every_record_round_trips() {
    for record in records() {
        let mut bytes = Vec::new();
        encode(&record, &mut bytes);
        assert!(is_s3(&bytes), "{record:?}");
        let decoded = decode(&bytes).unwrap();
        // Records hold no bytes of objects, so their debug form shows every field.
        assert_eq!(format!("{decoded:?}"), format!("{record:?}"));
        let mut again = Vec::new();
        encode(&decoded, &mut again);
        assert_eq!(again, bytes);
    }
}

#[test]
fn short_long_and_unknown_records_are_refused() {
    for record in records() {
        let mut bytes = Vec::new();
        encode(&record, &mut bytes);
        if bytes.len() > 1 {
            assert!(decode(&bytes[..bytes.len() - 1]).is_err(), "{record:?}");
        }
        bytes.push(0);
        assert!(decode(&bytes).is_err(), "{record:?}");
    }
    assert!(decode(&[127])
        .unwrap_err()
        .contains("unknown S3 record type"));
    assert!(!is_s3(&[95]) && !is_s3(&[128]));
}
