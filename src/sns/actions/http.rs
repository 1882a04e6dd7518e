//! HTTP/S endpoints: each message is POSTed with SNS's headers (SNS developer guide,
//! "HTTP/HTTPS headers") outside the request that caused it, and a failed POST (no answer
//! within 15 seconds, a refused connection, a 5xx; SNS counts 200-499 as delivered) waits
//! in the [`Outbox`](crate::sns::engine::outbox::Outbox) for its next attempt on the
//! server's clock. The ticker hands over what is due ([`step`]), so a manual clock drives
//! retries. A notification whose retries are spent goes to the subscription's dead-letter
//! queue. sqslite speaks plain `http://` only: an `https` POST fails and is retried like
//! an unreachable endpoint.

use std::sync::Arc;
use std::time::Duration;

use crate::clock::Millis;
use crate::sns::engine::outbox::{MessageType, Post};
use crate::sns::Service;

/// How long SNS waits for an endpoint to answer ("about 15 seconds": SNS developer guide,
/// "Preparing your HTTP/S endpoint").
const TIMEOUT: Duration = Duration::from_secs(15);

/// The most of a subscriber's answer read: SNS reads only its status, so a longer body is an
/// answer cut short, not a memory to fill (a 700 MB answer once took 1.4 GB).
const MAX_REPLY: usize = 64 * 1024;

/// SNS's User-Agent on every POST.
pub const USER_AGENT: &str = "Amazon Simple Notification Service Agent";

/// Queues a POST for an attempt now; the ticker sends it.
pub fn enqueue(app: &Service, post: Post, now: Millis) {
    app.sns.outbox.schedule(now, post);
    app.ticker.notify_one();
}

/// Starts every POST due by `now`; when the next one is due.
pub fn step(app: &Arc<Service>, now: Millis) -> Option<Millis> {
    let (due, next) = app.sns.outbox.take_due(now);
    for post in due {
        tokio::spawn(attempt(app.clone(), post));
    }
    next
}

/// The headers SNS sends with `post` (a SubscriptionConfirmation names no subscription).
pub fn headers(post: &Post) -> Vec<(&'static str, &str)> {
    let mut headers = vec![
        ("x-amz-sns-message-type", post.message_type.as_str()),
        ("x-amz-sns-message-id", post.message_id.as_str()),
        ("x-amz-sns-topic-arn", post.topic_arn.as_str()),
    ];
    if post.message_type != MessageType::SubscriptionConfirmation {
        headers.push(("x-amz-sns-subscription-arn", post.subscription_arn.as_str()));
    }
    if post.raw {
        headers.push(("x-amz-sns-rawdelivery", "true"));
    }
    headers.extend([
        ("content-type", post.content_type.as_str()),
        ("user-agent", USER_AGENT),
    ]);
    headers
}

/// One POST; a failure is retried per the policy, then dead-lettered.
async fn attempt(app: Arc<Service>, mut post: Post) {
    let started = app.now();
    let call = crate::http::client::Call {
        method: "POST",
        url: &post.url,
        headers: &headers(&post),
        outbound: Some(&app.outbound),
        max_reply: MAX_REPLY,
    };
    let outcome = crate::http::client::call(call, post.body.clone().into_bytes(), TIMEOUT).await;
    let reason = match outcome {
        Err(e) if e.contains("the answer is longer than") => {
            // The status came in before the body: SNS counts it as answered.
            tracing::debug!(url = %post.url, "SNS subscriber's answer cut short");
            return;
        }
        Ok(reply) if reply.status < 500 => {
            if post.message_type == MessageType::Notification {
                app.sns.count_notification(
                    &post.subscription_arn,
                    crate::sns::engine::counts::Outcome::Delivered,
                );
            }
            return;
        }
        Ok(reply) => format!("the endpoint answered {}", reply.status),
        Err(e) => e,
    };
    let retry = post.retries + 1;
    if let Some(delay) = post.retry.delay_before(retry) {
        tracing::debug!(url = %post.url, %reason, retry, delay_ms = delay, "SNS HTTP delivery failed; retrying");
        post.retries = retry;
        app.sns.outbox.schedule(started.saturating_add(delay), post);
        app.ticker.notify_one();
        return;
    }
    tracing::warn!(
        subscription = %post.subscription_arn,
        url = %post.url,
        %reason,
        retries = post.retries,
        "SNS HTTP delivery failed; retries spent"
    );
    if let Some(d) = &post.dead_letter {
        super::deliver::failed(&app, d, started);
    }
}
