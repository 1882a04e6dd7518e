//! The Lambda side of the harness: an `aws-sdk-lambda` client on the test server's endpoint
//! and clock, servers with declared functions, and the few calls the trigger API tests repeat.

use std::time::Duration;

use aws_sdk_lambda::error::SdkError;
use aws_sdk_lambda::types::EventSourceMappingConfiguration;
use aws_sdk_sqs::config::Credentials;
use sqslite::config::{Function, Target};
use sqslite::Config;

use super::{ClockTime, TestServer};

pub struct Lambda {
    pub t: TestServer,
    pub lambda: aws_sdk_lambda::Client,
}

/// A function that is never invoked by these tests (nothing is sent to its queues), on a
/// port nothing listens on.
pub fn function(name: &str) -> Function {
    Function::new(name, Target::Url("http://127.0.0.1:9/".into()))
}

/// The ARN of [`server`]'s `orders` function.
pub const ORDERS_ARN: &str = "arn:aws:lambda:us-east-1:000000000000:function:orders";

/// A server declaring `orders`, `audit` (Lambda's default 3 s timeout) and `slow` (60 s).
pub async fn server() -> Lambda {
    let mut slow = function("slow");
    slow.timeout = Duration::from_mins(1);
    start(vec![function("orders"), function("audit"), slow]).await
}

/// A server with these functions declared, and a Lambda client for it.
pub async fn start(functions: Vec<Function>) -> Lambda {
    let mut config = Config::ephemeral();
    config.triggers.functions = functions;
    let t = TestServer::start_with(config).await;
    let lambda = lambda_client_at(&t.endpoint(), &t.clock);
    Lambda { t, lambda }
}

/// A Lambda client signing at the manual clock's time, retries off.
pub fn lambda_client_at(endpoint: &str, clock: &sqslite::ManualClock) -> aws_sdk_lambda::Client {
    lambda_client_with(endpoint, "AKIDEXAMPLE", "secret", clock)
}

/// [`lambda_client_at`] with this key and secret.
pub fn lambda_client_with(
    endpoint: &str,
    access_key: &str,
    secret: &str,
    clock: &sqslite::ManualClock,
) -> aws_sdk_lambda::Client {
    let config = aws_sdk_lambda::Config::builder()
        .behavior_version(aws_sdk_lambda::config::BehaviorVersion::latest())
        .region(aws_sdk_lambda::config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new(access_key, secret, None, None, "test"))
        .retry_config(aws_sdk_lambda::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    aws_sdk_lambda::Client::from_conf(config)
}

/// An SDK error's code, HTTP status and message.
pub fn failure<E>(
    err: &SdkError<E, aws_sdk_lambda::config::http::HttpResponse>,
) -> (String, u16, String)
where
    E: aws_sdk_lambda::error::ProvideErrorMetadata + std::fmt::Debug,
{
    let status = err.raw_response().map_or(0, |r| r.status().as_u16());
    match err.as_service_error() {
        Some(e) => (
            e.code().unwrap_or_default().to_owned(),
            status,
            e.message().unwrap_or_default().to_owned(),
        ),
        None => (format!("{err:?}"), status, String::new()),
    }
}

impl Lambda {
    /// A queue's URL and ARN.
    pub async fn queue(&self, name: &str, attributes: &[(&str, &str)]) -> (String, String) {
        let url = self.t.create_queue_with(name, attributes).await;
        let arn = self.t.attribute(&url, "QueueArn").await;
        (url, arn)
    }

    /// CreateEventSourceMapping with Lambda's defaults.
    pub async fn map(&self, function: &str, queue_arn: &str) -> EventSourceMappingConfiguration {
        let out = self
            .lambda
            .create_event_source_mapping()
            .function_name(function)
            .event_source_arn(queue_arn)
            .send()
            .await
            .expect("create mapping");
        to_configuration(out)
    }

    pub async fn get(&self, uuid: &str) -> EventSourceMappingConfiguration {
        let out = self
            .lambda
            .get_event_source_mapping()
            .uuid(uuid)
            .send()
            .await
            .expect("get mapping");
        EventSourceMappingConfiguration::builder()
            .set_uuid(out.uuid)
            .set_state(out.state)
            .set_batch_size(out.batch_size)
            .set_function_arn(out.function_arn)
            .set_maximum_batching_window_in_seconds(out.maximum_batching_window_in_seconds)
            .build()
    }

    /// The mapping once the runtime has settled it out of its transitional state: the test
    /// waits on the state the server reports, never on time alone.
    pub async fn settled(&self, uuid: &str) -> String {
        for _ in 0..500 {
            let state = self.get(uuid).await.state.expect("a state");
            if state == "Enabled" || state == "Disabled" {
                return state;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("mapping {uuid} did not settle");
    }
}

fn to_configuration(
    out: aws_sdk_lambda::operation::create_event_source_mapping::CreateEventSourceMappingOutput,
) -> EventSourceMappingConfiguration {
    EventSourceMappingConfiguration::builder()
        .set_uuid(out.uuid)
        .set_state(out.state)
        .set_batch_size(out.batch_size)
        .set_event_source_arn(out.event_source_arn)
        .set_function_arn(out.function_arn)
        .set_maximum_batching_window_in_seconds(out.maximum_batching_window_in_seconds)
        .set_function_response_types(out.function_response_types)
        .set_state_transition_reason(out.state_transition_reason)
        .set_event_source_mapping_arn(out.event_source_mapping_arn)
        .set_last_modified(out.last_modified)
        .set_filter_criteria(out.filter_criteria)
        .set_scaling_config(out.scaling_config)
        .build()
}
