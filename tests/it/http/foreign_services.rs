//! A request for a service sqslite does not serve, as that service's SDK would send it,
//! surfaces in the SDK as `UnknownService` with a message naming sqslite and what it serves
//! (before: an S3 call came back as `NotFound: UnknownError` with an empty body). The SDKs of
//! other services are not dependencies, so a real SQS client (AWS JSON 1.0, as DynamoDB's) and
//! a real SNS client (AWS Query, as IAM's) send their requests re-addressed, just before
//! transmission, to another service's signing name and target: what the SDK then reports is
//! its own error parser's reading of sqslite's answer.

use aws_sdk_sqs::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextMut;

use crate::common::{sns_client_at, TestServer};

/// Re-addresses a signed request to `scope` (the credential scope's service) and, for the
/// JSON protocols, to the `target` operation, as that service's SDK would have.
#[derive(Debug)]
struct AsIfFor {
    from: &'static str,
    scope: &'static str,
    target: Option<&'static str>,
}

impl Intercept for AsIfFor {
    fn name(&self) -> &'static str {
        "as-if-for-another-service"
    }

    fn modify_before_transmit(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let headers = context.request_mut().headers_mut();
        let auth = headers.get("authorization").ok_or("unsigned")?.to_owned();
        let (from, to) = (
            format!("/{}/aws4_request", self.from),
            format!("/{}/aws4_request", self.scope),
        );
        assert!(auth.contains(&from), "{auth}");
        headers.insert("authorization", auth.replace(&from, &to));
        if let Some(target) = self.target {
            headers.insert("x-amz-target", target);
        }
        Ok(())
    }
}

fn assert_names_sqslite(code: Option<&str>, message: Option<&str>, service: &str) {
    assert_eq!(code, Some("UnknownService"), "{message:?}");
    let message = message.unwrap_or_default();
    assert!(
        message.starts_with("sqslite serves Amazon SQS"),
        "{message}"
    );
    assert!(message.contains("Amazon SNS"), "{message}");
    assert!(message.contains(&format!("'{service}'")), "{message}");
}

#[tokio::test]
async fn a_json_sdk_of_another_service_reads_unknown_service_naming_sqslite() {
    use aws_sdk_sqs::error::ProvideErrorMetadata;
    let t = TestServer::start().await;
    let conf = t
        .client
        .config()
        .to_builder()
        .interceptor(AsIfFor {
            from: "sqs",
            scope: "dynamodb",
            target: Some("DynamoDB_20120810.ListTables"),
        })
        .build();
    let dynamo = aws_sdk_sqs::Client::from_conf(conf);
    let err = dynamo.list_queues().send().await.unwrap_err();
    let raw = err.raw_response().map(|r| r.status().as_u16());
    assert_eq!(raw, Some(400));
    let err = err.into_service_error();
    assert_names_sqslite(err.code(), err.message(), "dynamodb");
}

#[tokio::test]
async fn a_query_sdk_of_another_service_reads_unknown_service_naming_sqslite() {
    use aws_sdk_sns::error::ProvideErrorMetadata;
    let t = TestServer::start().await;
    let sns = sns_client_at(&t.endpoint(), &t.clock);
    let conf = sns
        .config()
        .to_builder()
        .interceptor(AsIfFor {
            from: "sns",
            scope: "iam",
            target: None,
        })
        .build();
    let iam = aws_sdk_sns::Client::from_conf(conf);
    let err = iam.list_topics().send().await.unwrap_err();
    let raw = err.raw_response().map(|r| r.status().as_u16());
    assert_eq!(raw, Some(400));
    let err = err.into_service_error();
    assert_names_sqslite(err.code(), err.message(), "iam");
}

/// The services sqslite serves are not caught by the refusal: the same clients, addressed to
/// their own services, work.
#[tokio::test]
async fn the_served_services_still_answer() {
    let t = TestServer::start().await;
    t.client.list_queues().send().await.expect("SQS answers");
    let sns = sns_client_at(&t.endpoint(), &t.clock);
    sns.list_topics().send().await.expect("SNS answers");
}
