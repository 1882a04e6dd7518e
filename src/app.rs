//! The state every request shares: the queues, the clock and the settings.

use crate::clock::SharedClock;
use crate::config::Config;
use crate::engine::move_task::MoveTasks;
use crate::engine::Registry;

pub struct App {
    pub registry: Registry,
    pub clock: SharedClock,
    pub config: Config,
    pub tasks: MoveTasks,
    /// Wakes the ticker when its schedule changes.
    pub ticker: tokio::sync::Notify,
    pub faults: crate::faults::Faults,
    pub metrics: crate::metrics::Metrics,
    pub alarms: crate::alarms::Alarms,
}

impl App {
    pub fn new(config: Config, clock: SharedClock) -> Self {
        App {
            registry: Registry::with_strict(config.strict),
            clock,
            config,
            tasks: MoveTasks::default(),
            ticker: tokio::sync::Notify::new(),
            faults: crate::faults::Faults::default(),
            metrics: crate::metrics::Metrics::new(),
            alarms: crate::alarms::Alarms::default(),
        }
    }

    pub fn now(&self) -> crate::clock::Millis {
        self.clock.now()
    }
}
