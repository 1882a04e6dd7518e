//! How many queues exist (issue 50, M3): `max_queues` bounds the server, and on a shared
//! instance each declared account holds at most its share, so one account filling the server
//! cannot refuse another's CreateQueue; a laptop (no declared keys) keeps the whole total.

use aws_sdk_sqs::Client;

use crate::common::accounts::{two_accounts_from, Accounts};
use crate::common::{code, expect_code, message, TestServer};

/// Two accounts sharing `max_queues = 4`, with `data_dir` if one is given.
async fn shared(data_dir: Option<std::path::PathBuf>) -> Accounts {
    let mut config = sqslite::Config::ephemeral();
    config.max_queues = 4;
    config.data_dir = data_dir;
    two_accounts_from(config).await
}

/// CreateQueue as `client`: the queue's URL, or the words of its OverLimit.
async fn create(client: &Client, name: &str) -> Result<String, String> {
    match client.create_queue().queue_name(name).send().await {
        Ok(created) => Ok(created.queue_url.unwrap()),
        Err(e) => {
            assert_eq!(code(&e), "OverLimit", "{e:?}");
            Err(message(&e))
        }
    }
}

/// Past its share, an account's CreateQueue is OverLimit in words that name the setting.
async fn refused(client: &Client, name: &str) {
    let words = create(client, name).await.expect_err("past the share");
    assert!(words.contains("share of 2 queues"), "{words}");
    assert!(words.contains("raise max_queues"), "{words}");
}

#[tokio::test]
async fn each_account_holds_its_share_of_max_queues() {
    let a = shared(None).await;
    create(&a.other_sqs, "b1").await.unwrap();
    create(&a.other_sqs, "b2").await.unwrap();
    refused(&a.other_sqs, "b3").await;
    // The other account's half is still there for its owner.
    create(&a.t.client, "a1").await.unwrap();
    create(&a.t.client, "a2").await.unwrap();
    refused(&a.t.client, "a3").await;
    // A queue deleted frees its account's place.
    let b1 = create(&a.other_sqs, "b1").await.unwrap();
    a.other_sqs
        .delete_queue()
        .queue_url(b1)
        .send()
        .await
        .unwrap();
    create(&a.other_sqs, "b3").await.unwrap();
}

/// The counts are what exists after a restart from the data directory, not kept apart.
#[tokio::test]
async fn the_shares_hold_after_a_restart_from_the_data_directory() {
    let dir = std::env::temp_dir().join(format!("sqslite-queue-shares-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let a = shared(Some(dir.clone())).await;
    create(&a.other_sqs, "b1").await.unwrap();
    create(&a.other_sqs, "b2").await.unwrap();
    a.t.server.shutdown().await;

    let a = shared(Some(dir.clone())).await;
    refused(&a.other_sqs, "b3").await;
    create(&a.t.client, "a1").await.unwrap();
    drop(a);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without declared keys there is one account, whose share is the whole total.
#[tokio::test]
async fn a_laptop_keeps_the_whole_of_max_queues() {
    let mut config = sqslite::Config::ephemeral();
    config.max_queues = 4;
    let t = TestServer::start_with(config).await;
    for name in ["q1", "q2", "q3", "q4"] {
        t.create_queue(name).await;
    }
    let err = expect_code(t.try_create_queue("q5", &[]).await, "OverLimit");
    assert!(
        message(&err).contains("maximum of 4 queues"),
        "{}",
        message(&err)
    );
}
