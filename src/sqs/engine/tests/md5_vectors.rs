//! Every MD5 vector recorded from real SQS (fixtures/md5-vectors.json) against our digests.

use crate::sqs::engine::md5;
use crate::sqs::engine::message::{AttrData, AttrValue, MessageAttributes};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;

fn vectors() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/md5-vectors.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn body_vectors() {
    let v = vectors();
    let list = v["body_vectors"].as_array().unwrap();
    assert!(!list.is_empty());
    for case in list {
        assert_eq!(
            md5::of_body(case["body"].as_str().unwrap()),
            case["expected_md5"].as_str().unwrap(),
            "{case}"
        );
    }
}

#[test]
fn attribute_vectors() {
    let v = vectors();
    let list = v["attribute_vectors"].as_array().unwrap();
    assert!(list.len() >= 8);
    for case in list {
        let mut attrs = MessageAttributes::new();
        for (name, value) in case["attributes"].as_object().unwrap() {
            let data_type = value["DataType"].as_str().unwrap().to_owned();
            let data = match value.get("BinaryValue").and_then(Value::as_str) {
                Some(b64) => AttrData::Binary(STANDARD.decode(b64).unwrap()),
                None => AttrData::String(value["StringValue"].as_str().unwrap().to_owned()),
            };
            attrs.insert(name.clone(), AttrValue { data_type, data });
        }
        assert_eq!(
            md5::of_attributes(&attrs).as_deref(),
            case["expected_md5"].as_str(),
            "{}",
            case["name"]
        );
    }
}
