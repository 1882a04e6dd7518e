//! SDK clients for the tests' servers: SQS and SNS, with or without the manual clock as
//! their time source (a server with `[[credentials]]` checks signatures on its own clock).

use std::time::Duration;

use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_sqs::Client;
use sqslite::ManualClock;

pub fn client_for(endpoint: &str, region: &str, access_key: &str) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(region.to_owned()))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new(access_key, "secret", None, None, "test"))
        .retry_config(aws_sdk_sqs::config::retry::RetryConfig::disabled())
        .build();
    Client::from_conf(config)
}

/// An SNS client for a server without `[[credentials]]` (any signature is accepted).
pub fn sns_client_for(endpoint: &str) -> aws_sdk_sns::Client {
    let config = aws_sdk_sns::Config::builder()
        .behavior_version(aws_sdk_sns::config::BehaviorVersion::latest())
        .region(aws_sdk_sns::config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new("test", "secret", None, None, "test"))
        .retry_config(aws_sdk_sns::config::retry::RetryConfig::disabled())
        .build();
    aws_sdk_sns::Client::from_conf(config)
}

/// A client signing with this key and secret at the manual clock's time, as a server with
/// `[[credentials]]` checks signatures against its own clock.
pub fn client_at(endpoint: &str, access_key: &str, secret: &str, clock: &ManualClock) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new(access_key, secret, None, None, "test"))
        .retry_config(aws_sdk_sqs::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    Client::from_conf(config)
}

/// An SNS client on the same endpoint, credentials and clock as [`client_at`]'s.
pub fn sns_client_at(endpoint: &str, clock: &ManualClock) -> aws_sdk_sns::Client {
    sns_client_with(endpoint, "AKIDEXAMPLE", "secret", clock)
}

pub fn sns_client_with(
    endpoint: &str,
    access_key: &str,
    secret: &str,
    clock: &ManualClock,
) -> aws_sdk_sns::Client {
    let config = aws_sdk_sns::Config::builder()
        .behavior_version(aws_sdk_sns::config::BehaviorVersion::latest())
        .region(aws_sdk_sns::config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(Credentials::new(access_key, secret, None, None, "test"))
        .retry_config(aws_sdk_sns::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    aws_sdk_sns::Client::from_conf(config)
}

/// An STS client signing with this key (and session token, for temporary keys) at the manual
/// clock's time.
pub fn sts_client_with(
    endpoint: &str,
    (access_key, secret, token): (&str, &str, Option<&str>),
    clock: &ManualClock,
) -> aws_sdk_sts::Client {
    let credentials = Credentials::new(access_key, secret, token.map(str::to_owned), None, "test");
    let config = aws_sdk_sts::Config::builder()
        .behavior_version(aws_sdk_sts::config::BehaviorVersion::latest())
        .region(aws_sdk_sts::config::Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(credentials)
        .retry_config(aws_sdk_sts::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    aws_sdk_sts::Client::from_conf(config)
}

/// An SQS client signing with temporary keys (an STS answer's `Credentials`).
pub fn client_with_token(
    endpoint: &str,
    (access_key, secret, token): (&str, &str, &str),
    clock: &ManualClock,
) -> Client {
    let credentials = Credentials::new(access_key, secret, Some(token.to_owned()), None, "test");
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(endpoint)
        .credentials_provider(credentials)
        .retry_config(aws_sdk_sqs::config::retry::RetryConfig::disabled())
        .time_source(ClockTime(clock.clone()))
        .build();
    Client::from_conf(config)
}

/// The manual clock as the SDK's time source.
#[derive(Debug)]
pub(super) struct ClockTime(pub(super) ManualClock);

impl aws_smithy_async::time::TimeSource for ClockTime {
    fn now(&self) -> std::time::SystemTime {
        use sqslite::Clock;
        std::time::UNIX_EPOCH + Duration::from_millis(self.0.now())
    }
}
