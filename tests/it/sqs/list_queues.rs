//! ListQueues paging, read from the registry's ordered index of names: every name once and
//! in order across pages, exact page boundaries, deletes and re-creates, regions apart, and
//! the 1,000 a page holds without MaxResults.

use crate::common::{client_for, expect_code, TestServer};

/// One ListQueues call: the queue names listed and the next token.
async fn page(
    client: &aws_sdk_sqs::Client,
    prefix: &str,
    max: Option<i32>,
    token: Option<String>,
) -> (Vec<String>, Option<String>) {
    let out = client
        .list_queues()
        .queue_name_prefix(prefix)
        .set_max_results(max)
        .set_next_token(token)
        .send()
        .await
        .unwrap();
    let names = out
        .queue_urls()
        .iter()
        .map(|u| u.rsplit('/').next().unwrap().to_owned())
        .collect();
    (names, out.next_token)
}

#[tokio::test]
async fn pages_list_every_name_once_in_order() {
    let t = TestServer::start().await;
    let mut expected: Vec<String> = (0..25).map(|i| format!("job-{:02}", i * 7 % 25)).collect();
    for name in expected
        .iter()
        .map(String::as_str)
        .chain(["aaa", "job", "jobs", "zzz"])
    {
        t.create_queue(name).await;
    }
    expected.sort();
    let (mut seen, mut token, mut pages) = (Vec::new(), None, 0);
    loop {
        let (names, next) = page(&t.client, "job-", Some(4), token).await;
        assert!(names.len() <= 4);
        seen.extend(names);
        pages += 1;
        token = next;
        if token.is_none() {
            break;
        }
    }
    assert_eq!((seen, pages), (expected, 7));
    // A page that ends exactly at the last match carries no token.
    let (first, token) = page(&t.client, "job-0", Some(5), None).await;
    assert_eq!(first, ["job-00", "job-01", "job-02", "job-03", "job-04"]);
    let (second, token) = page(&t.client, "job-0", Some(5), token).await;
    assert_eq!(second.len(), 5);
    assert_eq!(token, None);
    // The prefix itself is a name too, and a token past every match lists nothing.
    let (names, _) = page(&t.client, "job", Some(2), None).await;
    assert_eq!(names, ["job", "job-00"]);
    let (names, token) = page(&t.client, "", Some(1), Some("enp6eg==".into())).await;
    assert_eq!((names, token), (Vec::<String>::new(), None));
    expect_code(
        t.client
            .list_queues()
            .next_token("not base64 !")
            .send()
            .await,
        "InvalidParameterValue",
    );
}

#[tokio::test]
async fn deleted_queues_leave_and_recreated_ones_come_back_once() {
    let t = TestServer::start().await;
    let mut urls = Vec::new();
    for name in ["a", "b", "c"] {
        urls.push(t.create_queue(name).await);
    }
    t.client
        .delete_queue()
        .queue_url(&urls[1])
        .send()
        .await
        .unwrap();
    assert_eq!(page(&t.client, "", None, None).await.0, ["a", "c"]);
    t.create_queue("b").await;
    t.create_queue("b").await;
    assert_eq!(page(&t.client, "", None, None).await.0, ["a", "b", "c"]);
}

#[tokio::test]
async fn regions_list_apart_and_a_page_holds_a_thousand_by_default() {
    let t = TestServer::start().await;
    let elsewhere = client_for(&t.endpoint(), "eu-west-1", "AKIDEXAMPLE");
    for i in 0..1_001 {
        t.create_queue(&format!("q-{i:04}")).await;
    }
    elsewhere
        .create_queue()
        .queue_name("q-0000")
        .send()
        .await
        .unwrap();
    let (names, token) = page(&t.client, "", None, None).await;
    assert_eq!((names.len(), token), (1_000, None));
    assert_eq!(names.last().map(String::as_str), Some("q-0999"));
    let (names, token) = page(&t.client, "", Some(1_000), None).await;
    assert_eq!(names.len(), 1_000);
    let (rest, _) = page(&t.client, "", Some(1_000), token).await;
    assert_eq!(rest, ["q-1000"]);
    assert_eq!(page(&elsewhere, "", None, None).await.0, ["q-0000"]);
}
