//! Server settings: where to listen, what region and account to assume, how to mint URLs.

/// Which clock the server runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockKind {
    #[default]
    System,
    /// Time stands still until advanced through the admin API or the embedding test.
    Manual,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub host: String,
    pub port: u16,
    pub region: String,
    pub account_id: String,
    /// Base URL written into queue URLs; `None` derives it from the request's Host header.
    pub public_url: Option<String>,
    pub clock: ClockKind,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 9324,
            region: "us-east-1".into(),
            account_id: "000000000000".into(),
            public_url: None,
            clock: ClockKind::System,
        }
    }
}

impl Config {
    /// Listens on an ephemeral loopback port, as tests and embedders want.
    pub fn ephemeral() -> Self {
        Config {
            port: 0,
            ..Config::default()
        }
    }
}
