//! The state every request shares: the queues, the clock and the settings.

use crate::clock::SharedClock;
use crate::config::Config;
use crate::engine::Registry;

pub struct App {
    pub registry: Registry,
    pub clock: SharedClock,
    pub config: Config,
}

impl App {
    pub fn new(config: Config, clock: SharedClock) -> Self {
        App {
            registry: Registry::new(),
            clock,
            config,
        }
    }

    pub fn now(&self) -> crate::clock::Millis {
        self.clock.now()
    }
}
