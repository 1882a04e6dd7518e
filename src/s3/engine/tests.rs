//! The store's bucket rules together: one namespace for every account, S3's answers to a
//! second CreateBucket, and a bucket deleted only when empty.

use super::conditions::Write;
use super::data::Data;
use super::object::{Meta, Object};
use super::{Created, Refusal, Store};

fn object() -> Object {
    Object {
        data: Data::default(),
        etag: "d41d8cd98f00b204e9800998ecf8427e".into(),
        modified: 0,
        meta: Meta::default(),
        parts: None,
    }
}

#[test]
fn bucket_names_are_one_namespace_for_every_account() {
    let store = Store::new(1 << 20);
    assert_eq!(
        store.create("b", "1", "us-east-1", 0),
        Err(Refusal::InvalidBucketName)
    );
    assert_eq!(store.create("old", "1", "us-east-1", 0), Ok(Created::New));
    assert_eq!(store.create("old", "1", "us-east-1", 5), Ok(Created::Again));
    assert_eq!(
        store.create("old", "2", "us-east-1", 5),
        Err(Refusal::BucketAlreadyExists)
    );
    assert_eq!(store.create("euro", "1", "eu-west-1", 0), Ok(Created::New));
    let again = store.create("euro", "1", "eu-west-1", 0);
    assert_eq!(again, Err(Refusal::BucketAlreadyOwnedByYou));
    let mine: Vec<String> = store.owned_by("1").iter().map(|b| b.name.clone()).collect();
    assert_eq!(mine, ["euro", "old"]);
    assert!(store.owned_by("2").is_empty());
    assert_eq!(store.bucket("old").unwrap().created, 0);
}

#[test]
fn a_bucket_is_deleted_only_when_empty_and_then_is_gone_for_every_holder() {
    let store = Store::new(1 << 20);
    store.create("box", "1", "us-east-1", 0).unwrap();
    let held = store.bucket("box").unwrap();
    held.put("k", object(), &Write::default()).unwrap();
    assert_eq!(store.delete("box"), Err(Refusal::BucketNotEmpty));
    held.delete("k").unwrap();
    store.delete("box").unwrap();
    assert_eq!(store.bucket("box").err(), Some(Refusal::NoSuchBucket));
    let late = held.put("k", object(), &Write::default());
    assert_eq!(late.err(), Some(Refusal::NoSuchBucket));
    assert_eq!(store.delete("box"), Err(Refusal::NoSuchBucket));
}
