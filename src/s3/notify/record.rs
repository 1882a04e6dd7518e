//! S3's event messages (S3 User Guide, "Event message structure"): a record per event,
//! eventVersion 2.1, and the `s3:TestEvent` a destination receives when it is configured.

use std::net::IpAddr;

use serde_json::json;

use crate::clock::Millis;

/// One event, as the operation that made it knows it.
#[derive(Debug, Clone)]
pub struct Event<'a> {
    /// `ObjectCreated:Put`, `ObjectRemoved:Delete`…
    pub name: &'static str,
    /// The object's key.
    pub key: &'a str,
    /// Its size and ETag, for a created object.
    pub created: Option<(u64, &'a str)>,
    /// The caller's principal id (`AIDA…`, or an account id).
    pub principal: &'a str,
    /// The caller's address.
    pub source_ip: Option<IpAddr>,
    /// The request's id.
    pub request_id: &'a str,
    /// The region the request was for.
    pub region: &'a str,
    /// When it happened.
    pub time: Millis,
}

/// Where an event happened: the bucket, its owner and the rule that sends it.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The bucket's name.
    pub bucket: &'a str,
    /// The bucket owner's account.
    pub owner: &'a str,
    /// The rule's id (`configurationId`).
    pub rule: &'a str,
    /// The event's place in the key's order of events.
    pub sequencer: u64,
}

/// An instant as S3's events write it: `2024-01-31T12:00:00.123Z`.
pub fn iso8601(at: Millis) -> String {
    let seconds = i64::try_from(at / 1000).unwrap_or(0);
    let t = time::OffsetDateTime::from_unix_timestamp(seconds)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        at % 1000
    )
}

/// A key as events write it: URL-encoded, a space as `+`, `/` kept [unverified: S3 documents
/// the space only].
pub fn encoded_key(key: &str) -> String {
    key.split('/')
        .map(|part| form_urlencoded::byte_serialize(part.as_bytes()).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// The message a destination receives for `event`: one record.
pub fn message(event: &Event<'_>, origin: &Origin<'_>) -> String {
    let mut object = json!({
        "key": encoded_key(event.key),
        "sequencer": format!("{:016X}", origin.sequencer),
    });
    if let Some((size, etag)) = event.created {
        object["size"] = json!(size);
        object["eTag"] = json!(etag);
    }
    let record = json!({
        "eventVersion": "2.1",
        "eventSource": "aws:s3",
        "awsRegion": event.region,
        "eventTime": iso8601(event.time),
        "eventName": event.name,
        "userIdentity": {"principalId": format!("AWS:{}", event.principal)},
        "requestParameters": {
            "sourceIPAddress": event.source_ip.map_or_else(|| "127.0.0.1".to_owned(), |ip| ip.to_string()),
        },
        "responseElements": {
            "x-amz-request-id": event.request_id,
            "x-amz-id-2": event.request_id,
        },
        "s3": {
            "s3SchemaVersion": "1.0",
            "configurationId": origin.rule,
            "bucket": {
                "name": origin.bucket,
                "ownerIdentity": {"principalId": origin.owner},
                "arn": format!("arn:aws:s3:::{}", origin.bucket),
            },
            "object": object,
        },
    });
    json!({ "Records": [record] }).to_string()
}

/// The `s3:TestEvent` a newly configured destination receives.
pub fn test_event(bucket: &str, request_id: &str, time: Millis) -> String {
    json!({
        "Service": "Amazon S3",
        "Event": "s3:TestEvent",
        "Time": iso8601(time),
        "Bucket": bucket,
        "RequestId": request_id,
        "HostId": request_id,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_times_as_events_write_them() {
        assert_eq!(encoded_key("in/red flower=1.jpg"), "in/red+flower%3D1.jpg");
        assert_eq!(iso8601(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }

    #[test]
    fn a_created_objects_record() {
        let event = Event {
            name: "ObjectCreated:Put",
            key: "a b",
            created: Some((5, "etag")),
            principal: "AIDAEXAMPLE",
            source_ip: None,
            request_id: "r",
            region: "eu-west-1",
            time: 0,
        };
        let origin = Origin {
            bucket: "box",
            owner: "000000000000",
            rule: "rule-1",
            sequencer: 10,
        };
        let doc: serde_json::Value = serde_json::from_str(&message(&event, &origin)).unwrap();
        let record = &doc["Records"][0];
        assert_eq!(record["eventName"], "ObjectCreated:Put");
        assert_eq!(record["awsRegion"], "eu-west-1");
        assert_eq!(record["s3"]["bucket"]["arn"], "arn:aws:s3:::box");
        assert_eq!(record["s3"]["object"]["key"], "a+b");
        assert_eq!(record["s3"]["object"]["size"], 5);
        assert_eq!(record["s3"]["object"]["sequencer"], "000000000000000A");
        assert_eq!(record["s3"]["configurationId"], "rule-1");
    }
}
