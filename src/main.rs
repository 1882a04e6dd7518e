//! The `sqslite` command: flags and environment in, a running server out.

use clap::{Parser, ValueEnum};
use sqslite::{ClockKind, Config, Server};

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

/// An Amazon SQS-compatible server: point any AWS SDK at it by changing the endpoint URL.
#[derive(Debug, Parser)]
#[command(name = "sqslite", version)]
struct Args {
    /// Address to listen on (use 0.0.0.0 inside a container).
    #[arg(long, env = "SQSLITE_HOST", default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on; 0 picks a free one and logs it.
    #[arg(long, env = "SQSLITE_PORT", default_value_t = 9324)]
    port: u16,
    /// Region assumed when a request's signature names none.
    #[arg(long, env = "SQSLITE_REGION", default_value = "us-east-1")]
    region: String,
    /// Account id assumed when the access key id is not a 12-digit account id.
    #[arg(long, env = "SQSLITE_ACCOUNT_ID", default_value = "000000000000")]
    account_id: String,
    /// Base URL written into queue URLs (e.g. http://sqs:9324); default: from the Host header.
    #[arg(long, env = "SQSLITE_PUBLIC_URL")]
    public_url: Option<String>,
    /// Log line format.
    #[arg(long, env = "SQSLITE_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
    /// `manual` freezes time until it is advanced through the admin API.
    #[arg(long, env = "SQSLITE_CLOCK", value_enum, default_value = "system")]
    clock: ClockArg,
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SQSLITE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().init(),
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

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    init_logging(args.log_format);
    let config = Config {
        host: args.host,
        port: args.port,
        region: args.region,
        account_id: args.account_id,
        public_url: args.public_url,
        clock: match args.clock {
            ClockArg::System => ClockKind::System,
            ClockArg::Manual => ClockKind::Manual,
        },
    };
    let server = match Server::start(config).await {
        Ok(server) => server,
        Err(e) => {
            eprintln!("sqslite: cannot listen: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    tracing::info!("sqslite listening on {}", server.endpoint());
    stop_signal().await;
    tracing::info!("shutting down");
    server.shutdown().await;
    std::process::ExitCode::SUCCESS
}
