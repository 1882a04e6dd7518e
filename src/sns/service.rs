//! The SNS service as the composition root builds it: its topics, what it reaches beyond
//! them, and the fault rules it meets.

use std::sync::Arc;

use tokio::sync::Notify;

use super::engine::Sns;
use crate::clock::Millis;
use crate::faults::inject::Injector;
use crate::sqs::actions::Sqs;

/// The SNS service: its topics, and what it reaches beyond them (the SQS service deliveries
/// go into, the ticker, the fault rules) with the setting it reads.
pub struct Service {
    /// Topics and subscriptions.
    pub topics: Sns,
    /// The queues deliveries go into, through SQS's own send.
    pub sqs: Arc<Sqs>,
    /// Wakes the ticker when its schedule changes.
    pub ticker: Arc<Notify>,
    /// The fault rules its calls and deliveries meet.
    pub faults: Arc<Injector>,
    /// `--strict`: a delivery the queue's Policy would refuse on AWS is refused.
    pub strict: bool,
    /// Where its http/s POSTs may go (the server's outbound rule).
    pub outbound: Arc<crate::http::outbound::Outbound>,
    /// What SubscribeURL, UnsubscribeURL and SigningCertURL start with: `--public-url`, else
    /// the listening address, set once the server listens. Never a request's Host header,
    /// which any caller writes (a link a subscriber follows would hand its token over).
    links: std::sync::OnceLock<String>,
}

impl Service {
    /// The service over `sns`'s topics (new, or recovered from a data directory),
    /// delivering into `sqs`, strict as `--strict` says.
    pub fn new(sns: Sns, sqs: Arc<Sqs>, faults: Arc<Injector>, strict: bool) -> Self {
        Service {
            topics: sns,
            ticker: sqs.ticker.clone(),
            sqs,
            faults,
            strict,
            outbound: Arc::default(),
            links: std::sync::OnceLock::new(),
        }
    }

    /// Sets what the links in SNS's messages start with (once, when the server listens):
    /// `public_url`, else `http://` and the listening address (`localhost` for an
    /// unspecified one, which no subscriber could reach as such).
    pub fn listening_on(&self, addr: std::net::SocketAddr, public_url: Option<&str>) {
        let base = public_url.map_or_else(
            || match addr.ip() {
                ip if ip.is_unspecified() => format!("http://localhost:{}", addr.port()),
                _ => format!("http://{addr}"),
            },
            |url| url.trim_end_matches('/').to_owned(),
        );
        let _ = self.links.set(base);
    }

    /// What the links in SNS's messages start with.
    pub fn links(&self) -> &str {
        self.links
            .get()
            .map_or("http://localhost:9324", String::as_str)
    }

    /// The server's time now.
    pub fn now(&self) -> Millis {
        self.sqs.now()
    }
}
