//! The state every request shares: the queues, the clock and the settings.

use std::sync::Arc;

use crate::actions::Sqs;
use crate::clock::SharedClock;
use crate::config::Config;
use crate::durable::mode::Durable;
use crate::engine::Registry;

pub struct App {
    /// The SQS service: its queues, clock, ticker wake-up and shutdown signal.
    pub sqs: Arc<Sqs>,
    /// The SNS service: topics and subscriptions, which deliver into `sqs`'s queues.
    pub sns: Arc<crate::sns::Service>,
    /// The triggers service: event source mappings, the functions they invoke, their pollers.
    pub triggers: Arc<crate::triggers::Service>,
    pub clock: SharedClock,
    pub config: Config,
    /// Wakes the ticker when its schedule changes.
    pub ticker: Arc<tokio::sync::Notify>,
    pub faults: crate::faults::Faults,
    pub metrics: crate::metrics::Metrics,
    pub alarms: crate::alarms::Alarms,
    /// The data directory (`--data-dir`); `None` keeps everything in memory only.
    pub durable: Option<crate::durable::mode::Durable>,
}

impl App {
    pub fn new(config: Config, clock: SharedClock) -> Self {
        let registry = Registry::with_strict(config.strict);
        App::with_registry(config, clock, registry, None)
    }

    /// An app over a registry recovered from a data directory, or a fresh one.
    pub fn with_registry(
        config: Config,
        clock: SharedClock,
        registry: Registry,
        durable: Option<crate::durable::mode::Durable>,
    ) -> Self {
        let ticker = Arc::new(tokio::sync::Notify::new());
        let alarms = crate::alarms::Alarms::new(config.admin.alarms.clone());
        let registry = registry.with_max_queues(config.max_queues);
        let sqs = Arc::new(Sqs::new(registry, clock.clone(), ticker.clone()));
        let sns = crate::sns::Service::new(sqs.clone(), config.strict, durable.is_some());
        let triggers = crate::triggers::Triggers::new(config.triggers.functions.clone());
        let triggers = crate::triggers::Service::new(
            triggers,
            sqs.clone(),
            &config.region,
            &config.account_id,
        );
        App {
            sqs,
            sns: Arc::new(sns),
            triggers: Arc::new(triggers),
            clock,
            config,
            ticker,
            faults: crate::faults::Faults::default(),
            metrics: crate::metrics::Metrics::new(),
            alarms,
            durable,
        }
    }

    pub fn now(&self) -> crate::clock::Millis {
        self.clock.now()
    }

    /// Creates everything the configuration declares (before the port opens, and again after
    /// a reset); the message names the declaration that failed and why.
    pub fn declare_all(&self) -> Result<(), String> {
        let (config, now) = (&self.config, self.now());
        crate::declare::declare_all(&self.sqs.registry, &config.plan(), now)?;
        // The declared event source mappings, once their queues exist.
        let triggers = &self.triggers.triggers;
        let scope = crate::triggers::declare::Scope {
            registry: &self.sqs.registry,
            functions: &triggers.functions,
            region: &config.region,
            account: &config.account_id,
            now,
        };
        for decl in &config.triggers.mappings {
            crate::triggers::declare::declare(decl, &scope, &triggers.mappings)?;
        }
        Ok(())
    }

    /// What a `/metrics` scrape reads.
    pub fn metric_sources(&self) -> crate::metrics::Sources<'_> {
        crate::metrics::Sources {
            queues: &self.sqs.registry,
            alarms: &self.alarms,
            sns: &self.sns.sns,
            triggers: &self.triggers.triggers,
            now: self.now(),
        }
    }

    /// What a request to a service is authenticated and answered with, from the settings.
    pub fn gate(&self) -> crate::protocol::context::Gate<'_> {
        crate::protocol::context::Gate {
            defaults: self.config.defaults(),
            credentials: &self.config.credentials,
        }
    }

    /// The ticker's jobs: move-task steps, the alarms' rounds, SNS's due HTTP/S deliveries.
    pub fn ticker_jobs(self: &Arc<Self>) -> Vec<crate::ticker::Job> {
        let (moves, alarms, sns) = (self.clone(), self.clone(), self.sns.clone());
        vec![
            Box::new(move |now| moves.sqs.registry.step_move_tasks(now)),
            Box::new(move |now| alarms.alarms.tick(&alarms.sqs.registry, now)),
            // SNS's HTTP/S deliveries that are due, retries included.
            Box::new(move |now| crate::sns::actions::http::step(&sns, now)),
        ]
    }

    /// Compacts the data directory on a blocking thread when its log has grown enough.
    pub fn maybe_compact(self: &Arc<Self>) {
        if !self.durable.as_ref().is_some_and(Durable::claim_compaction) {
            return;
        }
        let app = self.clone();
        tokio::task::spawn_blocking(move || {
            if let Some(d) = &app.durable {
                d.compact_claimed(&app.sqs.registry, app.now());
            }
        });
    }
}
