//! The command line and the configuration reference, read from the one table of settings
//! ([`super::settings::SETTINGS`]): each setting's flag and variable, and the guide's table.

use super::settings::{Kind, Section, Setting, SETTINGS};
use super::tree::Value;
use super::Config;

/// The configuration reference as a Markdown table: every setting's key, flag, variable,
/// value, default and meaning.
pub fn reference() -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "| key | flag | environment | value | default | meaning |\n|---|---|---|---|---|---|\n",
    );
    let code = |t: Option<String>| t.map(|t| format!("`{t}`")).unwrap_or_default();
    for s in SETTINGS {
        let key = match s.section {
            Section::Command => None,
            section => Some(format!("[{}] {}", section.name(), s.key)),
        };
        let help = match (s.kind, s.env) {
            (Kind::List, Some(_)) => format!(
                "{} A flag or variable takes a comma-separated list and adds to the file's.",
                s.help
            ),
            _ => s.help.to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            code(key),
            code(s.flag.map(|f| format!("--{f}"))),
            code(s.env.map(str::to_owned)),
            s.kind.describe(),
            s.default_shown().unwrap_or_default(),
            // `<name>` would be read as an HTML tag in a Markdown table.
            help.replace('|', "\\|").replace('<', "&lt;"),
        );
    }
    out
}

/// A flag's text as the value a file would hold, by the setting's kind.
pub fn from_flag(kind: Kind, text: &str) -> Result<Value, String> {
    Ok(match kind {
        Kind::Text | Kind::Path | Kind::Choice(_) => Value::Str(text.to_owned()),
        Kind::Integer => Value::Int(
            text.parse()
                .map_err(|_| format!("`{text}` is not an integer"))?,
        ),
        Kind::Seconds => Value::Float(
            text.parse()
                .map_err(|_| format!("`{text}` is not a number of seconds >= 0"))?,
        ),
        Kind::Rate => Value::Float(
            text.parse()
                .map_err(|_| format!("`{text}` is not a probability from 0 to 1"))?,
        ),
        Kind::Flag => Value::Bool(
            text.parse()
                .map_err(|_| format!("`{text}` is not true or false"))?,
        ),
        Kind::Switch => Value::Bool(text == "on"),
        Kind::List => Value::List(
            text.split(',')
                .map(|s| super::tree::Node {
                    line: 0,
                    value: Value::Str(s.to_owned()),
                })
                .collect(),
        ),
    })
}

/// The command-line arguments of every setting that has a flag, for the `sqslite` command.
pub fn args() -> Vec<clap::Arg> {
    SETTINGS
        .iter()
        .filter_map(|s| {
            let flag = s.flag?;
            let mut arg = clap::Arg::new(flag).long(flag).help(help_line(s));
            if let Some(env) = s.env {
                arg = arg.env(env).hide_env_values(s.secret);
            }
            Some(match s.kind {
                Kind::Flag => arg.action(clap::ArgAction::SetTrue),
                Kind::Switch => arg.value_parser(["on", "off"]),
                Kind::Choice(words) => {
                    arg.value_parser(clap::builder::PossibleValuesParser::new(words))
                }
                Kind::List => arg.value_delimiter(',').action(clap::ArgAction::Append),
                Kind::Integer => arg.value_name("N"),
                Kind::Seconds => arg.value_name("SECONDS"),
                Kind::Rate => arg.value_name("P"),
                Kind::Path => arg.value_name("PATH"),
                Kind::Text => arg.value_name("TEXT"),
            })
        })
        .collect()
}

/// `--help`'s line: the help and the default.
fn help_line(s: &Setting) -> String {
    match s.default_shown() {
        Some(default) => format!("{} [default: {}]", s.help, default.replace('`', "")),
        None => s.help.to_owned(),
    }
}

/// Lays every flag or variable given over `config` (the file's settings or the defaults).
pub fn apply_args(matches: &clap::ArgMatches, config: &mut Config) -> Result<(), String> {
    for s in SETTINGS {
        let Some(flag) = s.flag else { continue };
        match matches.value_source(flag) {
            None | Some(clap::parser::ValueSource::DefaultValue) => continue,
            Some(_) => {}
        }
        let value = match s.kind {
            Kind::Flag => Value::Bool(matches.get_flag(flag)),
            Kind::List => Value::List(
                matches
                    .get_many::<String>(flag)
                    .into_iter()
                    .flatten()
                    .map(|t| super::tree::Node {
                        line: 0,
                        value: Value::Str(t.clone()),
                    })
                    .collect(),
            ),
            kind => {
                let text = matches.get_one::<String>(flag).map_or("", String::as_str);
                from_flag(kind, text).map_err(|e| format!("--{flag}: {e}"))?
            }
        };
        (s.apply)(config, &value).map_err(|e| format!("--{flag}: `{}` {e}", s.key))?;
    }
    Ok(())
}
