//! The `sqslite` command: flags, environment and an optional config file in, a running server
//! out; `sqslite health` is the probe a container HEALTHCHECK runs.

#![warn(clippy::too_many_lines)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use sqslite::{ClockKind, Config, Server, UrlStyle};

// glibc's malloc walks and consolidates free lists that grow with the number of live
// allocations: with a million messages queued it was a fifth of the server's CPU
// (BENCHMARKS.md). mimalloc's per-page free lists keep that cost flat.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit status for a configuration that cannot be used (file, flags or declared queues).
const BAD_CONFIG: u8 = 2;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ClockArg {
    System,
    Manual,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum UrlStyleArg {
    Host,
    Path,
    Region,
}

/// An Amazon SQS-compatible server: point any AWS SDK at it by changing the endpoint URL.
///
/// Flags and SQSLITE_* variables win over the config file, which wins over the defaults.
// Each bool is an independent on/off flag of the command line, not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Parser)]
#[command(name = "sqslite", version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Config file: a sqslite.toml, or an ElasticMQ elasticmq.conf (by .conf or content).
    #[arg(long, env = "SQSLITE_CONFIG")]
    config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1; use 0.0.0.0 inside a container].
    #[arg(long, env = "SQSLITE_HOST")]
    host: Option<String>,
    /// Port to listen on; 0 picks a free one and logs it [default: 9324].
    #[arg(long, env = "SQSLITE_PORT")]
    port: Option<u16>,
    /// Region assumed when a request's signature names none [default: us-east-1].
    #[arg(long, env = "SQSLITE_REGION")]
    region: Option<String>,
    /// Account id assumed when the access key id is not 12 digits [default: 000000000000].
    #[arg(long, env = "SQSLITE_ACCOUNT_ID")]
    account_id: Option<String>,
    /// Fixed base of queue URLs (e.g. http://sqs:9324); wins over --url-style.
    #[arg(long, env = "SQSLITE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Queue URLs from the request's Host header, path-only (/<account>/<name>), or regional
    /// (http://sqs.<region>.<Host>/<account>/<name>) [default: host].
    #[arg(long, env = "SQSLITE_URL_STYLE", value_enum)]
    url_style: Option<UrlStyleArg>,
    /// Create queues on first use by SendMessage, ReceiveMessage or GetQueueUrl.
    #[arg(long, env = "SQSLITE_AUTO_CREATE")]
    auto_create: bool,
    /// How many queues the server holds; CreateQueue past it is OverLimit [default: 100000].
    #[arg(long, env = "SQSLITE_MAX_QUEUES")]
    max_queues: Option<usize>,
    /// SQS's 60-second guards: QueueDeletedRecently and PurgeQueueInProgress (off by default).
    #[arg(long, env = "SQSLITE_STRICT")]
    strict: bool,
    /// Keep queues and messages in this directory across restarts (default: memory only).
    #[arg(long, env = "SQSLITE_DATA_DIR")]
    data_dir: Option<std::path::PathBuf>,
    /// When the data directory's log is synced: always, interval=<ms> or never
    /// [default: interval=200].
    #[arg(long, env = "SQSLITE_FSYNC", value_parser = clap::value_parser!(sqslite::config::FsyncPolicy))]
    fsync: Option<sqslite::config::FsyncPolicy>,
    /// Start even though a data file is damaged: read around the damage, keep the damaged
    /// file under another name and report what could not be recovered. Once, not always.
    #[arg(long, env = "SQSLITE_REPAIR")]
    repair: bool,
    /// `manual` freezes time until it is advanced through the admin API [default: system].
    #[arg(long, env = "SQSLITE_CLOCK", value_enum)]
    clock: Option<ClockArg>,
    /// Log line format.
    #[arg(long, env = "SQSLITE_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
    /// Print the effective configuration as sqslite.toml and exit.
    #[arg(long)]
    print_config: bool,
    /// Serve no admin API (`/_sqslite/...`, `/_aws/sqs/...`), nor `/metrics` unless --metrics on.
    #[arg(long, env = "SQSLITE_NO_ADMIN")]
    no_admin: bool,
    /// Serve `/metrics` [default: on unless --no-admin].
    #[arg(long, env = "SQSLITE_METRICS", value_enum)]
    metrics: Option<Switch>,
    /// Bearer token the admin API and /metrics require; needed beyond loopback.
    #[arg(long, env = "SQSLITE_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// More Host names the admin API answers to without a token (comma-separated).
    #[arg(long, env = "SQSLITE_ALLOW_HOST", value_delimiter = ',')]
    allow_host: Vec<String>,
    /// Browser origins allowed to call the SQS API, e.g. http://localhost:3000 or *
    /// (comma-separated); not the admin API.
    #[arg(long, env = "SQSLITE_ALLOW_ORIGIN", value_delimiter = ',')]
    allow_origin: Vec<String>,
    /// Browser origins allowed to call the admin API and /metrics (comma-separated) [default: none].
    #[arg(long, env = "SQSLITE_ADMIN_ALLOW_ORIGIN", value_delimiter = ',')]
    admin_allow_origin: Vec<String>,
    #[command(flatten)]
    outbound: OutboundArgs,
    /// Refuse to start without --admin-token, so the admin API always needs it (loopback too).
    #[arg(long, env = "SQSLITE_ADMIN_REQUIRE_TOKEN")]
    admin_require_token: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Switch {
    On,
    Off,
}

/// Connection limits; seconds may be fractional.
/// Where outbound requests may go and how https servers are verified (`[outbound]`).
#[derive(Debug, clap::Args)]
struct OutboundArgs {
    /// Destinations outbound requests may reach: hosts, addresses, CIDRs, each with an optional
    /// :port, or *:PORT (comma-separated); with any, only these, past the default refusals.
    #[arg(
        long = "outbound-allow",
        env = "SQSLITE_OUTBOUND_ALLOW",
        value_delimiter = ','
    )]
    allow: Vec<String>,
    /// Destinations outbound requests may not reach, besides the default refusals
    /// (comma-separated, as --outbound-allow).
    #[arg(
        long = "outbound-deny",
        env = "SQSLITE_OUTBOUND_DENY",
        value_delimiter = ','
    )]
    deny: Vec<String>,
    /// A PEM file of CA certificates https subscribers and functions are verified against,
    /// besides the system's roots (mkcert's, a compose service's own CA).
    #[arg(long = "outbound-ca-file", env = "SQSLITE_OUTBOUND_CA_FILE")]
    ca_file: Option<std::path::PathBuf>,
    /// Accept any https certificate on outbound requests (logged at start).
    #[arg(long = "outbound-insecure", env = "SQSLITE_OUTBOUND_INSECURE")]
    insecure: bool,
}

impl OutboundArgs {
    /// Laid over the file's `[outbound]`: lists extend it, a CA file replaces it.
    fn apply(self, outbound: &mut sqslite::config::OutboundConfig) {
        outbound.allow.extend(self.allow);
        outbound.deny.extend(self.deny);
        outbound.ca_file = self.ca_file.or(outbound.ca_file.take());
        outbound.insecure |= self.insecure;
    }
}

#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// A request's headers must arrive within this many seconds [default: 10].
    #[arg(long, env = "SQSLITE_HEADER_TIMEOUT", value_parser = seconds)]
    header_timeout: Option<Duration>,
    /// Idle keep-alive connections close after this many seconds [default: 75].
    #[arg(long, env = "SQSLITE_IDLE_TIMEOUT", value_parser = seconds)]
    idle_timeout: Option<Duration>,
    /// Connections served at once; more wait [default: from the open-file limit].
    #[arg(long, env = "SQSLITE_MAX_CONNECTIONS", value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: Option<u32>,
    /// On SIGTERM, requests in flight may finish for this many seconds [default: 10].
    #[arg(long, env = "SQSLITE_SHUTDOWN_TIMEOUT", value_parser = seconds)]
    shutdown_timeout: Option<Duration>,
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("`{text}` is not a number of seconds >= 0"))
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Game-day drills against a running server; with no name, lists them.
    Drill {
        #[command(subcommand)]
        drill: Option<DrillCommand>,
    },
    /// Check every queue of a running server against the dead-letter rules.
    Doctor(sqslite::doctor::DoctorOptions),
    /// Exit 0 if a server answers GET /health with 200 (for container health checks).
    Health {
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        #[arg(long, env = "SQSLITE_PORT", default_value_t = 9324)]
        port: u16,
    },
}

#[derive(Debug, Subcommand)]
enum DrillCommand {
    /// A malformed message ahead of a valid batch: drain, dead-letter, alarm.
    Poison(sqslite::drill::poison::PoisonOptions),
    /// ServiceUnavailable on ReceiveMessage for a window, then the backlog must drain.
    Outage(sqslite::drill::outage::OutageOptions),
    /// A sample consumer to drill against: deletes JSON bodies, fails on anything else.
    Consumer(sqslite::drill::consumer::ConsumerOptions),
    /// The poison scenario against a triggered handler, with and without
    /// ReportBatchItemFailures, in a server of its own.
    Trigger(sqslite::drill::triggered::TriggerOptions),
}

/// Runs a drill; exit 1 when a check fails, 2 when it could not run at all.
async fn drill(which: Option<DrillCommand>) -> ExitCode {
    let mut out = std::io::stdout();
    let report = match which {
        None => {
            print!("{}", sqslite::drill::listing());
            return ExitCode::SUCCESS;
        }
        Some(DrillCommand::Poison(opts)) => sqslite::drill::poison::run(&opts, &mut out).await,
        Some(DrillCommand::Outage(opts)) => sqslite::drill::outage::run(&opts, &mut out).await,
        Some(DrillCommand::Trigger(opts)) => sqslite::drill::triggered::run(&opts, &mut out).await,
        Some(DrillCommand::Consumer(opts)) => {
            tokio::select! {
                r = sqslite::drill::consumer::run(&opts) => if let Err(e) = r {
                    eprintln!("sqslite drill: {e}");
                    return ExitCode::from(BAD_CONFIG);
                },
                () = stop_signal() => {}
            }
            return ExitCode::SUCCESS;
        }
    };
    match report {
        Ok(r) if r.passed() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("sqslite drill: {e}");
            ExitCode::from(BAD_CONFIG)
        }
    }
}

/// Exit 1 when a finding reaches `--fail-on`, 2 when the server could not be asked.
async fn doctor(opts: &sqslite::doctor::DoctorOptions) -> ExitCode {
    match sqslite::doctor::run(opts, &mut std::io::stdout()).await {
        Ok(false) => ExitCode::SUCCESS,
        Ok(true) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("sqslite doctor: {e}");
            ExitCode::from(BAD_CONFIG)
        }
    }
}

fn init_logging(format: LogFormat) {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    // `target=level` directives (e.g. `warn,sqslite=debug`) without EnvFilter's regex engine,
    // which would add a megabyte of code to every start.
    let filter: tracing_subscriber::filter::Targets = std::env::var("SQSLITE_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| "info".parse().unwrap_or_default());
    // stderr, so `--print-config` output stays clean on stdout.
    let registry = tracing_subscriber::registry().with(filter);
    // Colours only for a person at a terminal: not in files, pipes or CI logs, nor with
    // NO_COLOR set (https://no-color.org).
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(ansi);
    match format {
        LogFormat::Text => registry.with(layer).init(),
        LogFormat::Json => registry.with(layer.json()).init(),
    }
}

async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = ctrl_c => {}
            () = async {
                match term.as_mut() {
                    Some(t) => { t.recv().await; }
                    None => std::future::pending::<()>().await,
                }
            } => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

/// The file's settings (or the defaults) with every given flag laid over them.
fn effective_config(args: Args) -> Result<Config, String> {
    let mut config = match &args.config {
        Some(path) => {
            let loaded = Config::from_file(path).map_err(|e| e.to_string())?;
            for warning in loaded.warnings {
                tracing::warn!("{warning}");
            }
            loaded.config
        }
        None => Config::default(),
    };
    let set = |slot: &mut String, value: Option<String>| {
        if let Some(v) = value {
            *slot = v;
        }
    };
    set(&mut config.host, args.host);
    set(&mut config.region, args.region);
    set(&mut config.account_id, args.account_id);
    config.port = args.port.unwrap_or(config.port);
    config.public_url = args.public_url.or(config.public_url);
    config.auto_create |= args.auto_create;
    config.strict |= args.strict;
    if let Some(max) = args.max_queues {
        config.max_queues = max;
    }
    config.data_dir = args.data_dir.or(config.data_dir);
    config.fsync = args.fsync.unwrap_or(config.fsync);
    config.repair |= args.repair;
    config.admin.enabled &= !args.no_admin;
    if let Some(m) = args.metrics {
        config.access.metrics = Some(matches!(m, Switch::On));
    }
    config.access.admin_token = args.admin_token.or(config.access.admin_token);
    config.access.allow_hosts.extend(args.allow_host);
    config.access.allow_origins.extend(args.allow_origin);
    config.access.admin_origins.extend(args.admin_allow_origin);
    config.access.require_admin_token |= args.admin_require_token;
    args.outbound.apply(&mut config.outbound);
    let (limits, given) = (&mut config.connections, args.limits);
    limits.header_timeout = given.header_timeout.unwrap_or(limits.header_timeout);
    limits.idle_timeout = given.idle_timeout.unwrap_or(limits.idle_timeout);
    limits.shutdown_timeout = given.shutdown_timeout.unwrap_or(limits.shutdown_timeout);
    if let Some(cap) = given.max_connections {
        limits.max_connections = Some(cap as usize);
    }
    if let Some(style) = args.url_style {
        config.url_style = match style {
            UrlStyleArg::Host => UrlStyle::Host,
            UrlStyleArg::Path => UrlStyle::Path,
            UrlStyleArg::Region => UrlStyle::Region,
        };
    }
    if let Some(clock) = args.clock {
        config.clock = match clock {
            ClockArg::System => ClockKind::System,
            ClockArg::Manual => ClockKind::Manual,
        };
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = Args::parse();
    match args.command.take() {
        Some(Command::Drill { drill: which }) => return drill(which).await,
        Some(Command::Doctor(opts)) => return doctor(&opts).await,
        Some(Command::Health { host, port }) => {
            return match sqslite::probe(&host, port, Duration::from_secs(3)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("sqslite health: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        None => {}
    }
    init_logging(args.log_format);
    let print = args.print_config;
    let config = match effective_config(args) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("sqslite: invalid configuration: {e}");
            return ExitCode::from(BAD_CONFIG);
        }
    };
    if print {
        print!("{}", config.to_toml());
        return ExitCode::SUCCESS;
    }
    let declared = config.queues.len();
    let server = match Server::start(config).await {
        Ok(server) => server,
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            eprintln!("sqslite: invalid configuration: {e}");
            return ExitCode::from(BAD_CONFIG);
        }
        Err(e) => {
            eprintln!("sqslite: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(
        "sqslite listening on {} ({declared} queues declared)",
        server.endpoint()
    );
    stop_signal().await;
    tracing::info!("shutting down");
    server.shutdown().await;
    ExitCode::SUCCESS
}
