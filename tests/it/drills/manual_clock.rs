//! The manual clock's edges through the admin API: out-of-range advances are refused with a
//! 400 that names the problem, and the clock never wraps round or moves back.

use crate::common::TestServer;
use serde_json::Value;

async fn advance(s: &TestServer, body: &str) -> (u16, Value) {
    let r = s
        .raw(
            "POST",
            "/_sqslite/clock/advance",
            &[("content-type", "application/json")],
            body,
        )
        .await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

async fn now(s: &TestServer) -> u64 {
    let r = s.raw("GET", "/_sqslite/clock", &[], "").await;
    r.json()["now"].as_u64().expect("now")
}

#[tokio::test]
async fn out_of_range_advances_are_400_and_leave_the_clock_alone() {
    let s = TestServer::start().await;
    let before = now(&s).await;
    let cases = [
        (
            r#"{"seconds": 1e300}"#,
            "`seconds` must be a number from 0 to",
        ),
        (r#"{"seconds": -1}"#, "`seconds` must be a number from 0 to"),
        (
            r#"{"seconds": -0.5}"#,
            "`seconds` must be a number from 0 to",
        ),
        (
            r#"{"milliseconds": -5}"#,
            "`milliseconds` must be a whole number",
        ),
        (
            r#"{"milliseconds": 1.5}"#,
            "`milliseconds` must be a whole number",
        ),
        (
            r#"{"milliseconds": 18446744073709551615}"#,
            "`milliseconds` must be a whole number",
        ),
        (
            r#"{"milliseconds": 99999999999999999999999}"#,
            "`milliseconds` must be a whole number",
        ),
        (r#"{"seconds": NaN}"#, "invalid JSON body"),
        (r#"{"seconds": 1, "milliseconds": 1}"#, "exactly one of"),
    ];
    for (body, expected) in cases {
        let (status, answer) = advance(&s, body).await;
        assert_eq!(status, 400, "{body} -> {answer}");
        let message = answer["error"].as_str().unwrap_or_default();
        assert!(message.contains(expected), "{body} -> {message}");
    }
    assert_eq!(now(&s).await, before, "no refused advance moved the clock");
}

#[tokio::test]
async fn the_clock_stops_at_year_9999_instead_of_wrapping() {
    let s = TestServer::start().await;
    let latest = sqslite::LATEST;
    let room = latest - now(&s).await;
    let (status, body) = advance(&s, &format!(r#"{{"milliseconds": {}}}"#, room + 1)).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("9999-12-31"),
        "{body}"
    );
    let (status, body) = advance(&s, &format!(r#"{{"milliseconds": {room}}}"#)).await;
    assert_eq!((status, body["now"].as_u64()), (200, Some(latest)));
    // At the end of time a delayed message stays delayed and a received one stays in flight.
    let url = s.create_queue("edge").await;
    s.client
        .send_message()
        .queue_url(&url)
        .message_body("later")
        .delay_seconds(900)
        .send()
        .await
        .unwrap();
    s.send(&url, "now").await;
    let got = s.receive(&url).await;
    assert_eq!(got.messages().len(), 1);
    assert_eq!(s.counts(&url).await, (0, 1, 1));
    let (status, _) = advance(&s, r#"{"seconds": 1}"#).await;
    assert_eq!(status, 400);
    assert_eq!(now(&s).await, latest);
}
