//! How much outbound work may wait and run at once ([`Caps`]), and the POSTs under way
//! ([`Flights`], [`Flight`]): in total, by endpoint, and by account, so one account's dead
//! endpoints cannot take the slots another account's deliveries need.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{lock, Outbox, Post};
use crate::clock::Millis;

/// How much outbound work may wait and run at once (sqslite's bounds: SNS documents none).
/// Past the bytes a delivery goes where SNS sends an undeliverable message; past the POSTs
/// under way the rest wait their turn in the outbox. On a shared instance each account has
/// its share of the totals (set from the number of declared accounts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// POSTs under way at once: an eighth of the open-file limit, 16 to 256, so outbound
    /// connections never take the descriptors the API needs.
    pub in_flight: usize,
    /// POSTs under way at once to one endpoint (scheme, host and port).
    pub per_endpoint: usize,
    /// POSTs under way at once for one account's topics.
    pub account_in_flight: usize,
    /// Body bytes waiting for an attempt, in total.
    pub waiting_bytes: usize,
    /// Body bytes waiting for an attempt, for one account's topics.
    pub account_bytes: usize,
    /// Body bytes waiting for an attempt, for one subscription.
    pub subscription_bytes: usize,
}

impl Default for Caps {
    fn default() -> Self {
        let files = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft);
        let in_flight = usize::try_from(files / 8).unwrap_or(256).clamp(16, 256);
        let waiting_bytes = 64 * 1024 * 1024;
        Caps {
            in_flight,
            per_endpoint: 16,
            account_in_flight: in_flight,
            waiting_bytes,
            account_bytes: waiting_bytes,
            subscription_bytes: 16 * 1024 * 1024,
        }
    }
}

impl Caps {
    /// The caps with each of `accounts` given its share of the totals (the one share rule,
    /// [`crate::quota`]; at least one POST under way).
    pub fn shared_by(self, accounts: usize) -> Caps {
        let share = |total| {
            crate::quota::Quota::whole(total)
                .among(accounts)
                .share()
                .max(1)
        };
        Caps {
            account_in_flight: share(self.in_flight),
            account_bytes: share(self.waiting_bytes),
            ..self
        }
    }
}

/// POSTs under way.
#[derive(Debug, Default)]
pub(super) struct Flights {
    /// In total.
    pub(super) total: usize,
    /// By endpoint (scheme, host and port).
    by_endpoint: HashMap<String, usize>,
    /// By the account whose topic sends them.
    by_account: HashMap<String, usize>,
    /// A throttled subscription's earliest next start, by subscription ARN.
    pub(super) paced: HashMap<String, Millis>,
}

/// One POST under way: counted until this drops.
#[derive(Debug)]
pub struct Flight {
    /// The outbox's count.
    flights: Arc<Mutex<Flights>>,
    /// The endpoint and the account it counts against.
    keys: (String, String),
}

impl Drop for Flight {
    fn drop(&mut self) {
        let mut flights = lock(&self.flights);
        flights.total = flights.total.saturating_sub(1);
        let (endpoint, account) = &self.keys;
        release(&mut flights.by_endpoint, endpoint);
        release(&mut flights.by_account, account);
    }
}

/// One fewer under `key`, forgetting it at zero.
fn release(counts: &mut HashMap<String, usize>, key: &str) {
    if let Some(n) = counts.get_mut(key) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            counts.remove(key);
        }
    }
}

/// The scheme, host and port a URL names: what one endpoint is.
fn endpoint(url: &str) -> &str {
    let start = url.find("://").map_or(0, |i| i + 3);
    url[start..]
        .find('/')
        .map_or(url, |end| &url[..start + end])
}

impl Flights {
    /// Whether `caps` lets `post` start now, beside the POSTs under way.
    fn admits(&self, post: &Post, caps: &Caps) -> bool {
        let under_way =
            |counts: &HashMap<String, usize>, key: &str| counts.get(key).copied().unwrap_or(0);
        under_way(&self.by_endpoint, endpoint(&post.url)) < caps.per_endpoint
            && under_way(&self.by_account, post.account()) < caps.account_in_flight
    }

    /// Counts `post` as under way from `now` (and paces its subscription, if throttled); the
    /// endpoint and account it counts against.
    fn start(&mut self, post: &Post, now: Millis) -> (String, String) {
        let keys = (endpoint(&post.url).to_owned(), post.account().to_owned());
        self.total += 1;
        *self.by_endpoint.entry(keys.0.clone()).or_default() += 1;
        *self.by_account.entry(keys.1.clone()).or_default() += 1;
        if let Some(spacing) = post.retry.spacing() {
            self.paced
                .insert(post.subscription_arn.clone(), now.saturating_add(spacing));
        }
        keys
    }
}

impl Outbox {
    /// The POSTs due by `now` that `caps` lets start, each counted under way until its
    /// [`Flight`] drops, and when the next one is due after now (a due POST held back by the
    /// caps is taken when a POST under way ends, which wakes the ticker).
    pub fn take_due(&self, now: Millis, caps: &Caps) -> (Vec<(Post, Flight)>, Option<Millis>) {
        let mut due = lock(&self.due);
        let mut flights = lock(&self.flights);
        flights.paced.retain(|_, at| *at > now);
        let ready: Vec<(Millis, u64)> = due
            .posts
            .range(..=(now, u64::MAX))
            .map(|(k, _)| *k)
            .collect();
        let mut taken = Vec::new();
        // The earliest a due POST held back by its subscription's throttle may start.
        let mut paced_until: Option<Millis> = None;
        for key in ready {
            if flights.total >= caps.in_flight {
                break;
            }
            let post = &due.posts[&key];
            if let Some(&at) = flights.paced.get(&post.subscription_arn) {
                paced_until = Some(paced_until.map_or(at, |p| p.min(at)));
                continue;
            }
            if !flights.admits(post, caps) {
                continue;
            }
            let Some(post) = due.posts.remove(&key) else {
                continue;
            };
            due.release(&post);
            taken.push((flights.start(&post, now), post));
        }
        let next = due
            .posts
            .range((now.saturating_add(1), 0)..)
            .next()
            .map(|((at, _), _)| *at);
        let next = match (next, paced_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let taken = taken
            .into_iter()
            .map(|(keys, post)| {
                let flights = Arc::clone(&self.flights);
                (post, Flight { flights, keys })
            })
            .collect();
        (taken, next)
    }
}
