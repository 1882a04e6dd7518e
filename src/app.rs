//! The state every request shares: the queues, the clock and the settings.

use std::sync::Arc;

use crate::clock::SharedClock;
use crate::config::Config;
use crate::durable::mode::Durable;
use crate::sqs::actions::Sqs;
use crate::sqs::engine::Registry;

/// The engines an app is built over: the queues, the SNS topics, the event source mappings
/// and, recovered from a data directory, the S3 store (`None`: a new one in memory).
pub type Engines = (
    Registry,
    crate::sns::engine::Sns,
    crate::triggers::Mappings,
    Option<Arc<crate::s3::engine::Store>>,
);

pub struct App {
    /// The SQS service: its queues, clock, ticker wake-up and shutdown signal.
    pub sqs: Arc<Sqs>,
    /// SQS at the front door: the queues with the fault rules and first-use settings.
    pub sqs_service: Arc<crate::sqs::service::Service>,
    /// The SNS service: topics and subscriptions, which deliver into `sqs`'s queues.
    pub sns: Arc<crate::sns::Service>,
    /// The triggers service: event source mappings, the functions they invoke, their pollers.
    pub triggers: Arc<crate::triggers::Service>,
    /// The STS service: the declared roles and the temporary keys it issues.
    pub sts: Arc<crate::sts::Service>,
    /// The S3 service: buckets and objects (in memory, or files with a data directory).
    pub s3: Arc<crate::s3::Service>,
    /// STS's issued keys, which the auth floor accepts for every service.
    pub temporary_keys: Arc<dyn crate::http::auth::TemporaryKeys>,
    pub clock: SharedClock,
    pub config: Config,
    /// Wakes the ticker when its schedule changes.
    pub ticker: Arc<tokio::sync::Notify>,
    /// The fault rules (the admin API edits them).
    pub faults: Arc<crate::faults::Faults>,
    pub metrics: crate::observe::metrics::Metrics,
    pub alarms: crate::observe::alarms::Alarms,
    /// The chart's time series and marks.
    pub series: Arc<crate::observe::series::Recorder>,
    /// The data directory (`--data-dir`); `None` keeps everything in memory only.
    pub durable: Option<crate::durable::mode::Durable>,
    /// Where requests on a caller's behalf may go (SNS subscribers, functions).
    pub outbound: Arc<crate::http::outbound::Outbound>,
}

/// The Lambda API and the pollers over the declared functions and these mappings.
fn triggers_service(
    config: &Config,
    mappings: crate::triggers::Mappings,
    sqs: &Arc<Sqs>,
    (faults, series): (
        &Arc<crate::faults::Faults>,
        &Arc<crate::observe::series::Recorder>,
    ),
) -> crate::triggers::Service {
    let mut state =
        crate::triggers::Triggers::with_mappings(config.triggers.functions.clone(), mappings);
    state.max_mappings = config.quota(
        config
            .triggers
            .max_mappings
            .unwrap_or(crate::triggers::DEFAULT_MAX_MAPPINGS),
    );
    crate::triggers::Service::new(
        state,
        sqs.clone(),
        (&config.region, &config.account_id),
        faults.clone(),
        series.clone(),
    )
}

/// S3 over the settings, on the server's clock, accepting STS's keys, its buckets' events
/// into SQS's queues, SNS's topics and the declared functions.
fn s3_service(
    config: &Config,
    clock: &SharedClock,
    temporary: Arc<dyn crate::http::auth::TemporaryKeys>,
    (sqs, sns, triggers): (
        &Arc<Sqs>,
        &Arc<crate::sns::Service>,
        &Arc<crate::triggers::Service>,
    ),
    store: Option<Arc<crate::s3::engine::Store>>,
) -> Arc<crate::s3::Service> {
    let settings = crate::s3::Settings {
        store,
        max_bytes: config.s3.max_bytes,
        public_url: config.public_url.as_deref(),
        credentials: &config.credentials,
        idle: config.connections.idle_timeout,
    };
    let destinations = crate::s3::notify::destinations::Destinations {
        sqs: sqs.clone(),
        sns: sns.clone(),
        triggers: triggers.clone(),
        strict: config.strict,
    };
    Arc::new(crate::s3::Service::new(
        &settings,
        clock.clone(),
        temporary,
        destinations,
    ))
}

impl App {
    pub fn new(config: Config, clock: SharedClock) -> Self {
        let registry = Registry::with_strict(config.strict);
        let sns = crate::sns::engine::Sns::new();
        let mappings = crate::triggers::Mappings::new();
        App::with_registry(config, clock, (registry, sns, mappings, None), None)
    }

    /// An app over the queues, topics and event source mappings recovered from a data
    /// directory, or fresh ones.
    pub fn with_registry(
        config: Config,
        clock: SharedClock,
        (registry, mut sns, mappings, buckets): Engines,
        durable: Option<crate::durable::mode::Durable>,
    ) -> Self {
        sns.limits = config.sns_limits;
        sns.limits.http = sns.limits.http.shared_by(config.sharing_accounts());
        sns.accounts = config.sharing_accounts();
        // Declared keys: callers are verified, and the instance is shared among accounts.
        let verified = !config.credentials.is_empty();
        let ticker = Arc::new(tokio::sync::Notify::new());
        let series = Arc::new(crate::observe::series::Recorder::default());
        let faults = Arc::new(crate::faults::Faults::new(crate::config::FAULT_TARGETS));
        let metrics = crate::observe::metrics::Metrics::new();
        let injector = Arc::new(crate::faults::inject::Injector {
            faults: faults.clone(),
            counter: metrics.fault_counter(),
            marks: series.clone(),
            clock: clock.clone(),
        });
        let mut alarms =
            crate::observe::alarms::Alarms::new(config.admin.alarms.clone(), series.clone());
        let registry = registry.with_max_queues(config.quota(config.max_queues));
        let sqs = Arc::new(Sqs::new(registry, clock.clone(), ticker.clone()));
        let outbound = Arc::new(crate::http::outbound::Outbound::new(
            &config.outbound,
            verified,
        ));
        alarms.outbound = outbound.clone();
        let mut sns = crate::sns::Service::new(sns, sqs.clone(), injector.clone(), config.strict);
        sns.outbound = outbound.clone();
        let mut triggers = triggers_service(&config, mappings, &sqs, (&faults, &series));
        triggers.outbound = outbound.clone();
        triggers.authenticated = verified;
        let sqs_service =
            crate::sqs::service::Service::new(sqs.clone(), injector.clone(), &config.plan());
        let sts = crate::sts::Service::new(&config.roles, verified, clock.clone());
        let sts = Arc::new(sts);
        let (sns, triggers) = (Arc::new(sns), Arc::new(triggers));
        let s3 = s3_service(
            &config,
            &clock,
            sts.temporary_keys(),
            (&sqs, &sns, &triggers),
            buckets,
        );
        App {
            s3,
            temporary_keys: sts.temporary_keys(),
            sts,
            outbound,
            sqs_service: Arc::new(sqs_service),
            sqs,
            sns,
            triggers,
            clock,
            config,
            ticker,
            faults,
            metrics,
            alarms,
            series,
            durable,
        }
    }

    pub fn now(&self) -> crate::clock::Millis {
        self.clock.now()
    }

    /// Every key a request may be signed with: the declared ones and STS's issued ones.
    pub fn keys(&self) -> crate::http::auth::Keys<'_> {
        crate::http::auth::Keys {
            declared: &self.config.credentials,
            temporary: &*self.temporary_keys,
        }
    }

    /// What a snapshot of the data directory holds.
    pub fn stores(&self) -> crate::durable::mode::Stores<'_> {
        (
            &self.sqs.registry,
            &self.sns.topics,
            &self.triggers.model.mappings,
            self.s3.store(),
        )
    }

    /// Creates everything the configuration declares (before the port opens, and again after
    /// a reset); the message names the declaration that failed and why.
    pub fn declare_all(&self) -> Result<(), String> {
        let (config, now) = (&self.config, self.now());
        // The configured delivery mode first, so declared queues' own modes are laid over it.
        self.sqs.registry.set_delivery(config.delivery);
        crate::sqs::declare::declare_all(&self.sqs.registry, &config.plan(), now)?;
        // Topics after queues: a subscription's queue is then there for its first publish.
        let scope = (config.region.as_str(), config.account_id.as_str());
        crate::sns::declare::declare_all(&self.sns.topics, &config.topics, scope, now)?;
        // The declared event source mappings, once their queues exist.
        let triggers = &self.triggers.model;
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
    pub fn metric_sources(&self) -> crate::observe::metrics::Sources<'_> {
        crate::observe::metrics::Sources {
            queues: &self.sqs.registry,
            alarms: &self.alarms,
            sns: &self.sns.topics,
            triggers: &self.triggers.model,
            s3: self.s3.deliveries(),
            now: self.now(),
        }
    }

    /// The ticker's jobs: move-task steps, the alarms' rounds, SNS's due HTTP/S deliveries,
    /// the chart's samples.
    pub fn ticker_jobs(self: &Arc<Self>) -> Vec<crate::ticker::Job> {
        let (moves, alarms, sns) = (self.sqs.clone(), self.clone(), self.sns.clone());
        let (series, sampled) = (self.series.clone(), self.sqs.clone());
        vec![
            Box::new(move |now| moves.registry.step_move_tasks(now)),
            Box::new(move |now| alarms.alarms.tick(&alarms.sqs.registry, now)),
            // SNS's HTTP/S deliveries that are due, retries included.
            Box::new(move |now| crate::sns::actions::http::step(&sns, now)),
            // Samples only while someone watches the dashboard.
            Box::new(move |now| series.tick(&sampled.registry, now)),
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
                d.compact_claimed(app.stores(), app.now());
            }
        });
    }
}
