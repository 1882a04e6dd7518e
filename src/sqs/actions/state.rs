//! What the SQS operations act on, and nothing more: the engine's queues, the clock, the
//! ticker's wake-up and the shutdown signal parked long polls listen for. The composition
//! root ([`crate::Server`]) builds one and lends it to the router, SNS deliveries and the
//! admin API; no action sees the server's settings, alarms or fault rules.

use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::futures::Notified;
use tokio::sync::{watch, Notify};

use crate::clock::{Millis, SharedClock};
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;

/// The SQS service's state.
pub struct Sqs {
    /// Every queue and its messages.
    pub registry: Registry,
    /// The server's clock: every `now` an action passes the engine comes from it.
    pub clock: SharedClock,
    /// Wakes the ticker when its schedule changes (a move task started or cancelled).
    pub ticker: Arc<Notify>,
    /// The shutdown signal that answers parked long polls.
    pub waiters: Waiters,
}

impl Sqs {
    /// The SQS state over `registry`, telling time by `clock` and waking `ticker`.
    pub fn new(registry: Registry, clock: SharedClock, ticker: Arc<Notify>) -> Self {
        Sqs {
            registry,
            clock,
            ticker,
            waiters: Waiters::default(),
        }
    }

    /// The server's time now.
    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    /// Parks a receiver on `queue` (counted as parked meanwhile) until `notified` fires (a
    /// send or another change; it must be enabled before the receiver looked, so a change
    /// between the look and the wait still wakes it), the server's clock reaches `wake_at`,
    /// or the server starts closing, which it answers `false`. ReceiveMessage's long poll and
    /// the trigger pollers wait here alike.
    pub async fn park_on(
        &self,
        queue: &Queue,
        notified: Pin<&mut Notified<'_>>,
        wake_at: Option<Millis>,
    ) -> bool {
        let _parked = queue.park();
        let sleep = async {
            match wake_at {
                Some(at) => self.clock.sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = notified => true,
            () = sleep => true,
            () = self.waiters.closed() => false,
        }
    }
}

/// The shutdown signal parked long polls listen for, so they answer (empty) instead of
/// being cut when the server stops.
#[derive(Debug, Default)]
pub struct Waiters {
    /// Becomes true once, at shutdown; parked polls watch it.
    closing: watch::Sender<bool>,
}

impl Waiters {
    /// Tells every parked long poll, and any that parks later, to answer now.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves once the server is shutting down.
    pub async fn closed(&self) {
        let mut rx = self.closing.subscribe();
        // An error means the sender is gone with the state: nothing left to wait for.
        let _ = rx.wait_for(|closing| *closing).await;
    }
}
