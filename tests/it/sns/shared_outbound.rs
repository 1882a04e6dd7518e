//! A shared instance (issue 50, M1, L1): with `[[credentials]]` declared, an API caller's
//! http endpoint on the machine or its private networks needs an `[outbound] allow` entry,
//! so one account cannot drive the unauthenticated services beside sqslite with a
//! SubscriptionConfirmation; listening on every address, sqslite refuses each of the
//! machine's own addresses on its port. Run in a private network namespace.

use crate::common::endpoint::Endpoint;
use crate::common::netns::private_network;
use crate::common::{sns_client_with, TestServer, OTHER};

/// A server with two accounts and these `[outbound] allow` entries.
async fn shared(allow: Vec<String>) -> TestServer {
    use sqslite::config::Credential;
    let mut config = sqslite::Config::ephemeral()
        .with_credential(Credential::new(
            "AKIDEXAMPLE",
            "secret",
            crate::common::OWNER,
        ))
        .with_credential(Credential::new("AKIDOTHER", "other-secret", OTHER));
    config.outbound.allow = allow;
    TestServer::start_with(config).await
}

/// What `Subscribe(http, endpoint)` of the other account answers: the error's message, or
/// `None` when it was taken.
async fn subscribe(t: &TestServer, endpoint: &str) -> Option<String> {
    let sns = sns_client_with(&t.endpoint(), "AKIDOTHER", "other-secret", &t.clock);
    let topic = sns.create_topic().name("hooks").send().await.unwrap();
    let call = sns.subscribe().topic_arn(topic.topic_arn.unwrap());
    match call.protocol("http").endpoint(endpoint).send().await {
        Ok(_) => None,
        Err(e) => Some(crate::common::message(&e)),
    }
}

#[test]
fn a_callers_endpoint_on_the_machine_cannot_drive_its_services() {
    if !private_network(
        "sns::shared_outbound::a_callers_endpoint_on_the_machine_cannot_drive_its_services",
    ) {
        return;
    }
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        // Another team's sqslite beside this one, with no credentials of its own.
        let victim = TestServer::start().await;
        let queue = victim.create_queue("payments").await;
        victim.send(&queue, "charge 42").await;
        let purge = format!(
            "{}/?Action=PurgeQueue&QueueUrl={}&Version=2012-11-05",
            victim.endpoint(),
            queue
        );
        let t = shared(Vec::new()).await;
        for endpoint in [purge.as_str(), "http://localhost:9/x", "http://10.1.2.3/x"] {
            let message = subscribe(&t, endpoint).await.expect("refused");
            assert!(
                message
                    .starts_with("Invalid parameter: Endpoint Reason: sqslite does not connect to"),
                "{endpoint}: {message}"
            );
            assert!(message.contains("[outbound] allow"), "{message}");
            assert!(
                !message.contains("127.0.0.1:9"),
                "a name's address is not told: {message}"
            );
        }
        let depth = victim
            .attribute(&queue, "ApproximateNumberOfMessages")
            .await;
        assert_eq!(depth, "1", "the other sqslite's queue was not purged");

        // The operator opens one destination: a webhook of the team's, and nothing else.
        let hook = Endpoint::start().await;
        let address = hook
            .url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap();
        let t = shared(vec![address.to_owned()]).await;
        assert_eq!(subscribe(&t, &hook.url).await, None);
        let confirmation = hook.wait_for(1).await.remove(0).json();
        assert_eq!(confirmation["Type"], "SubscriptionConfirmation");
        assert!(subscribe(&t, &purge)
            .await
            .unwrap()
            .contains("not in [outbound] allow"));
    });
}

#[test]
fn listening_on_every_address_refuses_the_machines_own_on_its_port() {
    let test =
        "sns::shared_outbound::listening_on_every_address_refuses_the_machines_own_on_its_port";
    if !private_network(test) {
        return;
    }
    // An address of the namespace's own besides loopback, as a host's LAN address would be.
    let added = std::process::Command::new("ip")
        .args(["addr", "add", "10.200.0.1/32", "dev", "lo"])
        .status()
        .unwrap();
    assert!(added.success());
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let mut config = sqslite::Config::ephemeral();
        config.host = "0.0.0.0".into();
        let s = crate::common::sns::start_with(config).await;
        let topic = s.topic("own", &[]).await;
        let port = s.t.endpoint().rsplit(':').next().unwrap().to_owned();
        for endpoint in [
            format!("http://10.200.0.1:{port}/?Action=PurgeQueue"),
            format!("http://127.0.0.2:{port}/"),
        ] {
            let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
            let err = call.endpoint(&endpoint).send().await.unwrap_err();
            let message = crate::common::message(&err);
            assert!(
                message.contains("sqslite's own listening address"),
                "{endpoint}: {message}"
            );
        }
        // The same address on another port is somebody else's.
        let call = s.sns.subscribe().topic_arn(&topic).protocol("http");
        call.endpoint("http://10.200.0.1:9/").send().await.unwrap();
    });
}
