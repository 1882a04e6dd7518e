//! Each protocol's endpoint, checked as Subscribe checks it, and how sqslite reaches it:
//! into a queue (`sqs`), by HTTP POST (`http`, `https`), or recorded only (the rest, which
//! need AWS's mail, SMS, push, Lambda or Firehose). Refusals are SNS's wording (as reported
//! from Subscribe calls; the SMS one lacks the "Invalid parameter:" lead on SNS too; the
//! Firehose role refusal's wording is sqslite's \[unverified\]).

use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};

/// How a subscription's deliveries leave sqslite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Sent into an sqslite queue through the SQS engine's own send.
    Queue,
    /// POSTed to the endpoint URL, retried per the delivery policy.
    Http,
    /// Kept in the delivery records (`GET /_sqslite/sns/deliveries`): sqslite cannot send it.
    Recorded,
}

/// The reach of a protocol SNS knows (`None` for one it does not).
pub fn reach(protocol: &str) -> Option<Reach> {
    match protocol {
        "sqs" => Some(Reach::Queue),
        "http" | "https" => Some(Reach::Http),
        "email" | "email-json" | "sms" | "application" | "lambda" | "firehose" => {
            Some(Reach::Recorded)
        }
        _ => None,
    }
}

/// Whether a new subscription of this protocol waits for its endpoint to confirm it.
pub fn needs_confirmation(protocol: &str) -> bool {
    matches!(protocol, "http" | "https" | "email" | "email-json")
}

/// The longest endpoint, in bytes: an ARN's 2,048 (IAM's limit on ARNs), which is also a URL's
/// practical one; SNS records none \[unverified\]. Past it the protocol's own refusal.
const MAX_ENDPOINT_BYTES: usize = 2048;

/// The longest email address (RFC 5321: 254 characters).
const MAX_EMAIL_BYTES: usize = 254;

/// The endpoint against the protocol's form (`sqs` is checked with its topic, elsewhere).
pub fn check(protocol: &str, endpoint: &str, role_arn: Option<&str>) -> SnsResult<()> {
    if endpoint.len() > MAX_ENDPOINT_BYTES && matches!(protocol, "http" | "https") {
        return Err(SnsError::invalid("Endpoint"));
    }
    let endpoint = if endpoint.len() > MAX_ENDPOINT_BYTES {
        // Refused below by the protocol's own check, without quoting megabytes back.
        ""
    } else {
        endpoint
    };
    let ok = match protocol {
        "http" | "https" => return check_url(protocol, endpoint),
        "email" | "email-json" => email(endpoint),
        "sms" => {
            return phone(endpoint).then_some(()).ok_or_else(|| {
                SnsError::new(
                    SnsErrorKind::InvalidParameter,
                    format!("Invalid SMS endpoint: {endpoint}"),
                )
            })
        }
        "application" => arn_of(endpoint, "sns").is_some_and(|r| r.starts_with("endpoint/")),
        "lambda" => arn_of(endpoint, "lambda").is_some_and(|r| r.starts_with("function:")),
        "firehose" => {
            if !arn_of(endpoint, "firehose").is_some_and(|r| r.starts_with("deliverystream/")) {
                return Err(SnsError::invalid("Firehose endpoint ARN"));
            }
            return match role_arn {
                Some(role) if arn_of(role, "iam").is_some() => Ok(()),
                _ => Err(SnsError::invalid(
                    "SubscriptionRoleArn Reason: a firehose subscription needs an IAM role ARN",
                )),
            };
        }
        _ => true,
    };
    if ok {
        return Ok(());
    }
    Err(SnsError::invalid(match protocol {
        "email" | "email-json" => "Email address",
        "application" => "Application endpoint arn invalid",
        _ => "Lambda endpoint ARN",
    }))
}

/// `http://host…` for `http`, `https://host…` for `https`.
fn check_url(protocol: &str, endpoint: &str) -> SnsResult<()> {
    let scheme_ok = endpoint
        .get(..protocol.len() + 3)
        .is_some_and(|lead| lead.eq_ignore_ascii_case(&format!("{protocol}://")));
    if !scheme_ok {
        return Err(SnsError::invalid(
            "Endpoint must match the specified protocol",
        ));
    }
    let host = endpoint
        .parse::<hyper::Uri>()
        .ok()
        .and_then(|u| u.host().map(str::to_owned));
    if host.is_none_or(|h| h.is_empty()) {
        return Err(SnsError::invalid("Endpoint"));
    }
    Ok(())
}

/// One `@` between a local part and a domain, no spaces [SNS's exact rule is unpublished].
fn email(endpoint: &str) -> bool {
    if endpoint.len() > MAX_EMAIL_BYTES {
        return false;
    }
    match endpoint.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && !endpoint.chars().any(char::is_whitespace)
        }
        None => false,
    }
}

/// An E.164 number (`+` optional, at most 15 digits, not starting 0); SNS also takes
/// single `-`, `.` or `/` separators between digits.
pub fn phone(endpoint: &str) -> bool {
    let digits = endpoint.strip_prefix('+').unwrap_or(endpoint);
    let bytes = digits.as_bytes();
    let separator = |b: u8| matches!(b, b'-' | b'.' | b'/');
    let well_placed = bytes.first().is_some_and(u8::is_ascii_digit)
        && bytes.last().is_some_and(u8::is_ascii_digit)
        && !bytes.windows(2).any(|w| separator(w[0]) && separator(w[1]));
    let plain: Vec<u8> = bytes.iter().copied().filter(|b| !separator(*b)).collect();
    well_placed
        && (2..=15).contains(&plain.len())
        && plain.iter().all(u8::is_ascii_digit)
        && plain[0] != b'0'
}

/// The resource part of `arn:<partition>:<service>:<region>:<account>:<resource>`.
fn arn_of<'a>(arn: &'a str, service: &str) -> Option<&'a str> {
    let mut parts = arn.splitn(6, ':');
    let fields: [Option<&str>; 6] = std::array::from_fn(|_| parts.next());
    match fields {
        [Some("arn"), Some(partition), Some(s), Some(_), Some(_), Some(resource)]
            if !partition.is_empty() && s == service && !resource.is_empty() =>
        {
            Some(resource)
        }
        _ => None,
    }
}

/// A platform application endpoint ARN, as Publish's TargetArn names one.
pub fn is_platform_endpoint(arn: &str) -> bool {
    arn_of(arn, "sns").is_some_and(|r| r.starts_with("endpoint/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_checked_per_protocol() {
        assert!(check("http", "http://localhost:8080/hook", None).is_ok());
        let mismatch = check("https", "http://x", None).unwrap_err();
        assert_eq!(
            mismatch.message,
            "Invalid parameter: Endpoint must match the specified protocol"
        );
        assert!(check("email", "dev@example.com", None).is_ok());
        assert!(check("email-json", "not an email", None).is_err());
        assert!(check("sms", "+1-555-0100", None).is_ok());
        assert_eq!(
            check("sms", "+15--5", None).unwrap_err().message,
            "Invalid SMS endpoint: +15--5"
        );
        let app = "arn:aws:sns:us-east-1:000000000000:endpoint/GCM/app/1";
        assert!(check("application", app, None).is_ok());
        let fn_arn = "arn:aws:lambda:us-east-1:000000000000:function:f";
        assert!(check("lambda", fn_arn, None).is_ok());
        let stream = "arn:aws:firehose:us-east-1:000000000000:deliverystream/s";
        assert!(check("firehose", stream, None).is_err());
        assert!(check("firehose", stream, Some("arn:aws:iam::000000000000:role/r")).is_ok());
    }
}
