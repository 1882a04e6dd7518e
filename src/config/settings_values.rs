//! How each kind of setting is read from a file or flag and written back: the small parsers
//! and printers the rows of [`super::settings::SETTINGS`] are made of.

use std::time::Duration;

use super::tree::Value;
use super::{ClockKind, UrlStyle};

/// Stores a read value.
pub(super) fn set<T>(slot: &mut T, value: Result<T, String>) -> Result<(), String> {
    *slot = value?;
    Ok(())
}

/// Adds a list (or one text standing for a list of one) to what is there: the file's list
/// first, then the flag's.
pub(super) fn extend(list: &mut Vec<String>, value: &Value) -> Result<(), String> {
    list.extend(value.strings()?);
    Ok(())
}

/// The value as text.
pub(super) fn text<T: From<String>>(value: &Value) -> Result<T, String> {
    value.text().map(Into::into)
}

/// A secret's text; the placeholder `--print-config` writes is refused, not taken as the
/// secret.
pub(super) fn secret(value: &Value) -> Result<String, String> {
    let text = value.text()?;
    if text == super::settings::HIDDEN {
        return Err(HIDDEN_READ_BACK.to_owned());
    }
    Ok(text)
}

/// Why a printed placeholder is refused where a secret belongs.
pub(super) const HIDDEN_READ_BACK: &str = "is the placeholder --print-config writes in place of \
    a secret: put the secret here, or print with --print-config --with-secrets";

/// The value as `true` or `false`.
pub(super) fn boolean(value: &Value) -> Result<bool, String> {
    value.boolean()
}

/// The value as a whole number that fits `T`.
pub(super) fn integer<T: TryFrom<i64>>(value: &Value) -> Result<T, String> {
    value.integer()
}

/// The value as seconds.
pub(super) fn seconds(value: &Value) -> Result<Duration, String> {
    value.seconds()
}

/// A whole number of at least 1.
pub(super) fn positive(value: &Value) -> Result<usize, String> {
    integer(value).and_then(|n: usize| {
        if n == 0 {
            Err("must be at least 1".to_owned())
        } else {
            Ok(n)
        }
    })
}

/// A probability from 0 to 1, whole (`0`, `1`) or not.
pub(super) fn probability(value: &Value) -> Result<f64, String> {
    let p = match value {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        other => {
            return Err(format!(
                "must be a probability from 0 to 1, not {}",
                other.kind()
            ))
        }
    };
    crate::sqs::engine::at_least_once::rate(p)
}

/// `url_style`'s word.
pub(super) fn url_style(value: &Value) -> Result<UrlStyle, String> {
    match text::<String>(value)?.as_str() {
        "host" => Ok(UrlStyle::Host),
        "path" => Ok(UrlStyle::Path),
        "region" => Ok(UrlStyle::Region),
        _ => Err("must be \"host\", \"path\" or \"region\"".to_owned()),
    }
}

/// The word of a URL style.
pub(super) fn url_style_name(style: UrlStyle) -> &'static str {
    match style {
        UrlStyle::Host => "host",
        UrlStyle::Path => "path",
        UrlStyle::Region => "region",
    }
}

/// `clock`'s word.
pub(super) fn clock(value: &Value) -> Result<ClockKind, String> {
    match text::<String>(value)?.as_str() {
        "system" => Ok(ClockKind::System),
        "manual" => Ok(ClockKind::Manual),
        _ => Err("must be \"system\" or \"manual\"".to_owned()),
    }
}

/// The word of a clock.
pub(super) fn clock_name(clock: ClockKind) -> &'static str {
    match clock {
        ClockKind::System => "system",
        ClockKind::Manual => "manual",
    }
}

/// A count as TOML's integer.
pub(super) fn count(n: usize) -> toml::Value {
    i64::try_from(n).unwrap_or(i64::MAX).into()
}

/// A duration as TOML's seconds.
pub(super) fn secs(d: Duration) -> toml::Value {
    d.as_secs_f64().into()
}

/// A list, printed only when it has entries.
pub(super) fn listed(list: &[String]) -> Option<toml::Value> {
    (!list.is_empty()).then(|| list.to_vec().into())
}
