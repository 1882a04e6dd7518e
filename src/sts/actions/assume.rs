//! AssumeRole: temporary keys acting as a role's session, in the role's account.

use serde::Deserialize;

use super::{credentials, Decode};
use crate::sts::engine::roles::name_char;
use crate::sts::engine::{Assume, Caller, RoleArn};
use crate::sts::error::{StsError, StsResult, Violations};
use crate::sts::protocol::Xml;
use crate::sts::Service;

/// AssumeRole's default session: an hour.
const DEFAULT_SECONDS: u32 = 3600;
/// The model's pattern for a text member, as the validator quotes it.
const TEXT_PATTERN: &str =
    r"[\u0009\u000A\u000D\u0020-\u007E\u0085\u00A0-\uD7FF\uE000-\uFFFD\u10000-\u10FFFF]+";

/// AssumeRole as it travels. Session policies (`Policy`, `PolicyArns`), tags, `ExternalId`,
/// `SourceIdentity` and the MFA members are accepted and read by no one (see the guide's STS
/// page).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Wire {
    /// The role's ARN, 20 to 2048 characters.
    role_arn: Option<String>,
    /// The session's name, 2 to 64 of `[\w+=,.@-]`.
    role_session_name: Option<String>,
    /// 900 to 43200 seconds, and at most the role's MaxSessionDuration.
    duration_seconds: Option<i64>,
}

/// AssumeRole's input, checked.
#[derive(Debug)]
pub struct AssumeRole {
    /// The role's ARN.
    pub role_arn: String,
    /// The session's name.
    pub session: String,
    /// How long the keys work.
    pub seconds: u32,
}

impl Decode for AssumeRole {
    type Wire = Wire;

    fn check(wire: Wire) -> StsResult<Self> {
        let mut found = Violations::default();
        match &wire.role_arn {
            None => found.null("roleArn"),
            Some(arn) => {
                if arn.is_empty() || !arn.chars().all(text_char) {
                    found.broken(
                        "roleArn",
                        arn,
                        &format!("Member must satisfy regular expression pattern: {TEXT_PATTERN}"),
                    );
                }
                found.length("roleArn", arn, (20, 2048));
            }
        }
        match &wire.role_session_name {
            None => found.null("roleSessionName"),
            Some(name) => {
                if !name.chars().all(name_char) {
                    let rule = r"Member must satisfy regular expression pattern: [\w+=,.@-]*";
                    found.broken("roleSessionName", name, rule);
                }
                found.length("roleSessionName", name, (2, 64));
            }
        }
        if let Some(seconds) = wire.duration_seconds {
            found.range("durationSeconds", seconds, (900, 43_200));
        }
        found.finish()?;
        let seconds = wire.duration_seconds.and_then(|s| u32::try_from(s).ok());
        Ok(AssumeRole {
            role_arn: wire.role_arn.unwrap_or_default(),
            session: wire.role_session_name.unwrap_or_default(),
            seconds: seconds.unwrap_or(DEFAULT_SECONDS),
        })
    }
}

/// The refusal of a RoleArn that names no role: another ARN (a user's) is AccessDenied as
/// for a role the caller may not assume [aws-recorded, amzn/selling-partner-api-models#2523];
/// text that is no ARN at all "Request ARN is invalid" [aws-recorded for
/// AssumeRoleWithSAML, physera/onelogin-aws-cli#12; unverified for AssumeRole].
fn not_a_role(arn: &str, caller: &Caller) -> StsError {
    if arn.starts_with("arn:") && arn.split(':').count() >= 6 {
        return crate::sts::engine::refused(caller, arn);
    }
    StsError::validation("Request ARN is invalid")
}

/// A character of the model's text pattern.
fn text_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// `AssumedRoleUser` and `Credentials`, in the order AWS's example answer lists them.
/// `PackedPolicySize` is left out: sqslite packs no session policy.
pub fn assume_role(input: &AssumeRole, app: &Service, caller: &Caller) -> StsResult<Xml> {
    let Some(role) = RoleArn::parse(&input.role_arn) else {
        return Err(not_a_role(&input.role_arn, caller));
    };
    let ask = Assume {
        role,
        session: &input.session,
        seconds: input.seconds,
    };
    let key = app.sts.assume_role(caller, &ask, app.now())?;
    let mut xml = Xml::default();
    xml.open("AssumedRoleUser")
        .text("AssumedRoleId", &key.principal.sender_id)
        .text("Arn", &key.principal.arn)
        .close("AssumedRoleUser");
    credentials(&mut xml, &key);
    Ok(xml)
}
