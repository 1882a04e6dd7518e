//! HTTP/S endpoints: each message is POSTed with SNS's headers (SNS developer guide,
//! "HTTP/HTTPS headers") outside the request that caused it, and a failed POST (no answer
//! within 15 seconds, a refused connection, a 5xx; SNS counts 200-499 as delivered) waits
//! in the [`Outbox`](crate::sns::engine::outbox::Outbox) for its next attempt on the
//! server's clock. The ticker hands over what is due ([`step`]), so a manual clock drives
//! retries. A notification whose retries are spent goes to the subscription's dead-letter
//! queue. `https` endpoints are called over TLS (`http::tls`). The outbox bounds the work:
//! bytes waiting (past them a delivery fails as undeliverable, to the subscription's
//! dead-letter queue if it has one) and POSTs under way (the rest wait their turn).

use std::sync::Arc;
use std::time::Duration;

use crate::clock::Millis;
use crate::sns::engine::counts::Undeliverable;
use crate::sns::engine::outbox::{MessageType, Post, MAX_RETRY_MILLIS};
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
    match app
        .topics
        .outbox
        .schedule(now, post, &app.topics.limits.http)
    {
        Ok(()) => app.ticker.notify_one(),
        Err(post) => overflow(app, &post, now),
    }
}

/// A delivery the outbox has no room for: undeliverable, as SNS treats one it cannot make
/// (counted as failed, then to the subscription's dead-letter queue if it has one).
fn overflow(app: &Service, post: &Post, now: Millis) {
    let (waiting, bytes, _) = app.topics.outbox.waiting();
    tracing::warn!(
        subscription = %post.subscription_arn,
        url = %post.url,
        waiting,
        bytes,
        "SNS HTTP delivery dropped: the deliveries waiting hold as much as sqslite keeps (in total, for the topic's account, or for the subscription)"
    );
    if let Some(d) = &post.dead_letter {
        let reason = format!("{bytes} bytes were waiting for delivery, as much as sqslite keeps");
        super::deliver::failed(app, d, now, Undeliverable::OutboxFull, reason);
    }
}

/// Starts every POST due by `now` that the caps let start; when the next one is due.
pub fn step(app: &Arc<Service>, now: Millis) -> Option<Millis> {
    let (due, next) = app.topics.outbox.take_due(now, &app.topics.limits.http);
    for (post, flight) in due {
        let app = app.clone();
        tokio::spawn(async move {
            attempt(&app, post).await;
            // A POST held back by the caps may start now.
            drop(flight);
            app.ticker.notify_one();
        });
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
async fn attempt(app: &Arc<Service>, mut post: Post) {
    let started = app.now();
    let call = crate::http::client::Call {
        method: "POST",
        url: &post.url,
        headers: &headers(&post),
        outbound: Some(&app.outbound),
        chosen_by: crate::http::outbound::ChosenBy::Caller,
        max_reply: MAX_REPLY,
    };
    let outcome = crate::http::client::call(call, post.body.as_bytes().to_vec(), TIMEOUT).await;
    let reason = match outcome {
        Err(e) if e.contains("the answer is longer than") => {
            // The status came in before the body: SNS counts it as answered.
            tracing::debug!(url = %post.url, "SNS subscriber's answer cut short");
            return;
        }
        Ok(reply) if reply.status < 500 => {
            if post.message_type == MessageType::Notification {
                app.topics.count_notification(
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
    let since = *post.since.get_or_insert(started);
    let delay = (post.retry.delay_before(retry))
        .filter(|delay| started.saturating_add(*delay).saturating_sub(since) <= MAX_RETRY_MILLIS);
    if let Some(delay) = delay {
        tracing::debug!(url = %post.url, %reason, retry, delay_ms = delay, "SNS HTTP delivery failed; retrying");
        post.retries = retry;
        let at = started.saturating_add(delay);
        match app
            .topics
            .outbox
            .schedule(at, post, &app.topics.limits.http)
        {
            Ok(()) => app.ticker.notify_one(),
            Err(post) => overflow(app, &post, started),
        }
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
        let reason = format!("{reason} (after {} retries)", post.retries);
        super::deliver::failed(app, d, started, Undeliverable::RetriesSpent, reason);
    }
}
