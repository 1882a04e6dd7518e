//! The writer against serde_json: the same bytes for every shape the answers use.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Serialize;

fn both<T: Serialize>(value: &T) -> (String, String) {
    let mut ours = Vec::new();
    super::write(&mut ours, value).unwrap();
    let theirs = serde_json::to_vec(value).unwrap();
    (
        String::from_utf8(ours).unwrap(),
        String::from_utf8(theirs).unwrap(),
    )
}

fn same<T: Serialize>(value: &T) {
    let (ours, theirs) = both(value);
    assert_eq!(ours, theirs);
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct Answer {
    message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence_number: Option<String>,
    nothing: Option<u8>,
    count: u64,
    delta: i64,
    ok: bool,
    ratio: f64,
    tags: BTreeMap<String, String>,
    list: Vec<Entry>,
    #[serde(flatten)]
    extra: BTreeMap<&'static str, u32>,
    kind: Kind,
    shape: Shape,
    pair: (u8, char),
    unit: (),
    bytes: serde_bytes_like::Bytes,
}

#[derive(Serialize)]
struct Entry {
    #[serde(rename = "Id")]
    id: &'static str,
}

#[derive(Serialize)]
enum Kind {
    Standard,
}

#[derive(Serialize)]
enum Shape {
    Tuple(u8, u8),
}

mod serde_bytes_like {
    pub struct Bytes(pub Vec<u8>);
    impl serde::Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }
}

#[test]
fn every_shape_matches_serde_json() {
    let answer = Answer {
        message_id: "5fea7756-0ea4-451a-a703-a558b933e274".into(),
        sequence_number: None,
        nothing: None,
        count: u64::MAX,
        delta: i64::MIN,
        ok: true,
        ratio: 0.1,
        tags: [("a\"b".into(), "\u{1}\u{7f}é😀".into())].into(),
        list: vec![Entry { id: "0" }, Entry { id: "1" }],
        extra: [("Flattened", 7)].into(),
        kind: Kind::Standard,
        shape: Shape::Tuple(1, 2),
        pair: (3, '\n'),
        unit: (),
        bytes: serde_bytes_like::Bytes(vec![0, 255]),
    };
    same(&answer);
    same(&Vec::<u8>::new());
    same(&BTreeMap::<u32, bool>::from([(1, false), (20, true)]));
    same(&Some(f64::NAN));
}

#[test]
fn every_ascii_character_is_escaped_as_serde_json_escapes_it() {
    let all: String = (0u8..=127).map(char::from).collect();
    same(&all);
    for c in 0u8..=127 {
        // At each position of an eight-byte word, and at the end of the string.
        for pad in 0..9 {
            same(&format!(
                "{}{}{}",
                "x".repeat(pad),
                char::from(c),
                "y".repeat(9)
            ));
            same(&format!("{}{}", "x".repeat(pad), char::from(c)));
        }
    }
}

#[test]
fn a_non_string_key_is_an_error_not_a_panic() {
    let mut out = Vec::new();
    let map = BTreeMap::from([(vec![1u8], 1u8)]);
    assert!(super::write(&mut out, &map).is_err());
}

proptest! {
    #[test]
    fn any_string_is_written_as_serde_json_writes_it(s in any::<String>()) {
        let (ours, theirs) = both(&s);
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn any_ascii_soup_is_written_as_serde_json_writes_it(s in "[\\x00-\\x7f]{0,40}") {
        let (ours, theirs) = both(&s);
        prop_assert_eq!(ours, theirs);
    }
}
