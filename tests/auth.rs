//! Authentication, account isolation and unforgeable receipt handles, through the real SDK.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::{code, message, TestServer};

/// A consumer that knows the handle layout builds another consumer's handle from its own
/// (the message slots are a counter); the MAC makes that worthless and the other consumer's
/// message stays in flight.
#[tokio::test]
async fn forged_receipt_handles_are_rejected() {
    let s = TestServer::start().await;
    let url = s.create_queue("forge").await;
    s.send(&url, "mine").await;
    s.send(&url, "someone else's").await;
    let mine = s.receive(&url).await.messages()[0]
        .receipt_handle()
        .unwrap()
        .to_owned();
    let theirs = s.receive(&url).await.messages()[0]
        .receipt_handle()
        .unwrap()
        .to_owned();
    let bytes = URL_SAFE_NO_PAD.decode(&mine).unwrap();
    let seq = u64::from_be_bytes(bytes[9..17].try_into().unwrap());
    let mut forgeries: Vec<String> = [seq.wrapping_sub(1), seq + 1]
        .iter()
        .map(|guess| {
            let mut forged = bytes.clone();
            forged[9..17].copy_from_slice(&guess.to_be_bytes());
            URL_SAFE_NO_PAD.encode(&forged)
        })
        .collect();
    forgeries.push(theirs[..theirs.len() - 2].to_owned());
    for bad in &forgeries {
        let err = s
            .client
            .delete_message()
            .queue_url(&url)
            .receipt_handle(bad)
            .send()
            .await
            .unwrap_err();
        assert_eq!(code(&err), "ReceiptHandleIsInvalid");
        assert_eq!(
            message(&err),
            format!("The input receipt handle \"{bad}\" is not a valid receipt handle.")
        );
        let err = s
            .client
            .change_message_visibility()
            .queue_url(&url)
            .receipt_handle(bad)
            .visibility_timeout(0)
            .send()
            .await
            .unwrap_err();
        assert_eq!(code(&err), "ReceiptHandleIsInvalid");
    }
    assert_eq!(s.counts(&url).await, (0, 2, 0));
    s.delete(&url, &mine).await;
    s.delete(&url, &theirs).await;
    assert_eq!(s.counts(&url).await, (0, 0, 0));
}
