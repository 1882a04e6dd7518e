//! The state every request shares: the queues, the clock and the settings.

use tokio::sync::watch;

use crate::clock::SharedClock;
use crate::config::Config;
use crate::engine::Registry;

pub struct App {
    pub registry: Registry,
    /// SNS topics and subscriptions, which deliver into `registry`'s queues.
    pub sns: crate::sns::engine::Sns,
    /// Event source mappings and the declared functions they invoke.
    pub triggers: crate::triggers::Triggers,
    pub clock: SharedClock,
    pub config: Config,
    /// Wakes the ticker when its schedule changes.
    pub ticker: tokio::sync::Notify,
    pub faults: crate::faults::Faults,
    pub metrics: crate::metrics::Metrics,
    pub alarms: crate::alarms::Alarms,
    /// The chart's time series and marks.
    pub series: crate::series::Recorder,
    /// The shutdown signal that answers parked long polls.
    pub waiters: Waiters,
    /// The data directory (`--data-dir`); `None` keeps everything in memory only.
    pub durable: Option<crate::durable::mode::Durable>,
}

impl App {
    pub fn new(config: Config, clock: SharedClock) -> Self {
        let registry = Registry::with_strict(config.strict);
        let sns = crate::sns::engine::Sns::new();
        let mappings = crate::triggers::Mappings::new();
        App::with_registry(config, clock, (registry, sns, mappings), None)
    }

    /// An app over the queues, topics and event source mappings recovered from a data
    /// directory, or fresh ones.
    pub fn with_registry(
        config: Config,
        clock: SharedClock,
        (registry, sns, mappings): (Registry, crate::sns::engine::Sns, crate::triggers::Mappings),
        durable: Option<crate::durable::mode::Durable>,
    ) -> Self {
        let functions = config.triggers.functions.clone();
        App {
            registry: registry.with_max_queues(config.max_queues),
            sns,
            triggers: crate::triggers::Triggers::with_mappings(functions, mappings),
            clock,
            config,
            ticker: tokio::sync::Notify::new(),
            faults: crate::faults::Faults::default(),
            metrics: crate::metrics::Metrics::new(),
            alarms: crate::alarms::Alarms::default(),
            series: crate::series::Recorder::default(),
            waiters: Waiters::default(),
            durable,
        }
    }

    pub fn now(&self) -> crate::clock::Millis {
        self.clock.now()
    }

    /// What a snapshot of the data directory holds.
    pub fn stores(&self) -> crate::durable::mode::Stores<'_> {
        (&self.registry, &self.sns, &self.triggers.mappings)
    }
}

/// The shutdown signal parked long polls listen for, so they answer (empty) instead of
/// being cut when the server stops.
#[derive(Debug, Default)]
pub struct Waiters {
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
        // An error means the sender is gone with the App: nothing left to wait for.
        let _ = rx.wait_for(|closing| *closing).await;
    }
}
