//! The `sqslite` command: flags, environment and an optional config file in, a running server
//! out; `sqslite health` is the probe a container HEALTHCHECK runs.

#![warn(clippy::too_many_lines)]

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use sqslite::{Config, Server};

// glibc's malloc walks and consolidates free lists that grow with the number of live
// allocations: with a million messages queued it was a fifth of the server's CPU
// (BENCHMARKS.md). mimalloc's per-page free lists keep that cost flat.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit status for a configuration that cannot be used (file, flags or declared queues).
const BAD_CONFIG: u8 = 2;

/// An Amazon SQS-compatible server: point any AWS SDK at it by changing the endpoint URL.
///
/// Flags and SQSLITE_* variables win over the config file, which wins over the defaults.
#[derive(Debug, Parser)]
#[command(name = "sqslite", version)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
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
        /// The server's address.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The server's port.
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
    /// A drill written as a file: steady state, method, expectations, rollback.
    Run(sqslite::drill::file::RunOptions),
    /// Reads and checks a drill file without running it.
    Check {
        /// The drill file (a path: `./poison`, `poison.toml`), or a shipped drill's name.
        file: std::path::PathBuf,
    },
    /// Prints a shipped drill file, to start your own from (`> my-drill.toml`).
    Show {
        /// Its name; without one, the list.
        name: Option<String>,
    },
}

/// Runs a drill; exit 1 when a check fails, 2 when it could not run at all.
async fn drill(which: Option<DrillCommand>) -> ExitCode {
    let mut out = std::io::stdout();
    let report = match which {
        None => {
            let _ = std::io::stdout().write_all(sqslite::drill::listing().as_bytes());
            return ExitCode::SUCCESS;
        }
        Some(DrillCommand::Poison(opts)) => sqslite::drill::poison::run(&opts, &mut out).await,
        Some(DrillCommand::Outage(opts)) => sqslite::drill::outage::run(&opts, &mut out).await,
        Some(DrillCommand::Trigger(opts)) => sqslite::drill::triggered::run(&opts, &mut out).await,
        Some(
            cmd @ (DrillCommand::Run(_) | DrillCommand::Show { .. } | DrillCommand::Check { .. }),
        ) => {
            return drill_file(cmd).await;
        }
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

/// The drill-file commands: run one, check one, show the shipped ones.
async fn drill_file(cmd: DrillCommand) -> ExitCode {
    match cmd {
        DrillCommand::Run(opts) => {
            match sqslite::drill::file::run(&opts, &mut std::io::stdout()).await {
                Ok(v) if v.passed() => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("sqslite drill: {}", e.0);
                    ExitCode::from(BAD_CONFIG)
                }
            }
        }
        DrillCommand::Show { name } => {
            let files = sqslite::drill::file::builtin::DRILLS;
            match name.as_deref().map(sqslite::drill::file::builtin::named) {
                None => {
                    for (name, text) in files {
                        let about = sqslite::drill::file::builtin::about(text);
                        // A closed pipe (`| head`) ends the list, not the process.
                        if writeln!(std::io::stdout(), "{name:<16} {about}").is_err() {
                            break;
                        }
                    }
                    ExitCode::SUCCESS
                }
                Some(Some(text)) => {
                    let _ = std::io::stdout().write_all(text.as_bytes());
                    ExitCode::SUCCESS
                }
                Some(None) => {
                    eprintln!(
                        "sqslite drill: no shipped drill is called that; they are {}",
                        sqslite::drill::file::builtin::names()
                    );
                    ExitCode::from(BAD_CONFIG)
                }
            }
        }
        DrillCommand::Check { file } => match sqslite::drill::file::check_file(&file) {
            Ok(()) => {
                println!("{}: ok", file.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("sqslite drill: {}", e.0);
                ExitCode::from(BAD_CONFIG)
            }
        },
        _ => ExitCode::from(BAD_CONFIG),
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

/// Logs to stderr as text or, with `json`, one JSON object per line.
fn init_logging(json: bool) {
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
    if json {
        registry.with(layer.json()).init();
    } else {
        registry.with(layer).init();
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
fn effective_config(matches: &clap::ArgMatches) -> Result<Config, String> {
    let mut config = match matches.get_one::<String>("config") {
        Some(path) => {
            let loaded = Config::from_file(path).map_err(|e| e.to_string())?;
            for warning in loaded.warnings {
                tracing::warn!("{warning}");
            }
            loaded.config
        }
        None => Config::default(),
    };
    sqslite::config::settings::apply_args(matches, &mut config)?;
    Ok(config)
}

/// `--print-config`'s text: secrets hidden unless `--with-secrets`.
fn printed(config: &Config, matches: &clap::ArgMatches) -> String {
    if matches.get_flag("with-secrets") {
        config.to_toml_with_secrets()
    } else {
        config.to_toml()
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let matches = Args::command()
        .args(sqslite::config::settings::args())
        .get_matches();
    let mut args = match Args::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
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
    init_logging(
        matches
            .get_one::<String>("log-format")
            .is_some_and(|f| f == "json"),
    );
    let print = matches.get_flag("print-config");
    let config = match effective_config(&matches) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("sqslite: invalid configuration: {e}");
            return ExitCode::from(BAD_CONFIG);
        }
    };
    if print {
        print!("{}", printed(&config, &matches));
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

/// The guide's table of subcommands and their flags is made from clap's own definition of them,
/// as the settings table is from `settings::SETTINGS`, so neither can drift from the code.
#[cfg(test)]
mod reference_tests {
    use clap::CommandFactory as _;
    use std::fmt::Write as _;

    /// Every subcommand (nested ones as `drill run`), each flag and argument with its variable,
    /// default and help.
    fn commands() -> String {
        let mut out = String::from(
            "| command | flag | environment | default | meaning |\n|---|---|---|---|---|\n",
        );
        let mut stack: Vec<(String, clap::Command)> = super::Args::command()
            .get_subcommands()
            .map(|c| (c.get_name().to_owned(), c.clone()))
            .collect();
        stack.reverse();
        while let Some((path, cmd)) = stack.pop() {
            let about = cmd.get_about().map(ToString::to_string).unwrap_or_default();
            let _ = writeln!(out, "| `sqslite {path}` |  |  |  | {} |", cell(&about));
            for arg in cmd.get_arguments().filter(|a| !is_builtin(a)) {
                let name = match arg.get_long() {
                    Some(long) => format!("`--{long}`"),
                    None => format!("`{}`", arg.get_id().as_str().to_uppercase()),
                };
                let env = arg
                    .get_env()
                    .map(|e| format!("`{}`", e.to_string_lossy()))
                    .unwrap_or_default();
                let default = arg
                    .get_default_values()
                    .iter()
                    .map(|v| format!("`{}`", v.to_string_lossy()))
                    .collect::<Vec<_>>()
                    .join(", ");
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                let _ = writeln!(out, "|  | {name} | {env} | {default} | {} |", cell(&help));
            }
            let mut subs: Vec<_> = cmd
                .get_subcommands()
                .map(|c| (format!("{path} {}", c.get_name()), c.clone()))
                .collect();
            subs.reverse();
            stack.extend(subs);
        }
        out
    }

    /// `--help` and `--version` are clap's, the same on every command.
    fn is_builtin(arg: &clap::Arg) -> bool {
        matches!(arg.get_id().as_str(), "help" | "version")
    }

    /// Text safe inside a Markdown table cell.
    fn cell(text: &str) -> String {
        text.replace('\n', " ")
            .replace('|', "\\|")
            .replace('<', "&lt;")
    }

    /// The configuration page's command table is [`commands`]'s; `SQSLITE_BLESS=1` rewrites it.
    #[test]
    fn the_guide_lists_every_command_and_flag() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/configuration.md");
        let page = std::fs::read_to_string(path).unwrap();
        let (begin, end) = ("<!-- commands:begin -->\n", "<!-- commands:end -->");
        let start = page.find(begin).expect("the commands begin marker") + begin.len();
        let stop = page.find(end).expect("the commands end marker");
        let wanted = commands();
        if std::env::var_os("SQSLITE_BLESS").is_some() {
            std::fs::write(path, format!("{}{wanted}{}", &page[..start], &page[stop..])).unwrap();
        } else {
            assert_eq!(
                page[start..stop],
                wanted,
                "run with SQSLITE_BLESS=1 to rewrite it"
            );
        }
    }
}
