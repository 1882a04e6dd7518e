//! GetSessionToken: temporary keys acting as the caller itself.

use serde::Deserialize;

use super::{credentials, Decode};
use crate::sts::engine::Caller;
use crate::sts::error::{StsResult, Violations};
use crate::sts::protocol::Xml;
use crate::sts::Service;

/// GetSessionToken's default session: 12 hours.
const DEFAULT_SECONDS: u32 = 43_200;

/// GetSessionToken as it travels; the MFA members (`SerialNumber`, `TokenCode`) are read by
/// no one, as sqslite has no MFA devices.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Wire {
    /// 900 to 129600 seconds.
    duration_seconds: Option<i64>,
}

/// GetSessionToken's input, checked.
#[derive(Debug)]
pub struct GetSessionToken {
    /// How long the keys work.
    pub seconds: u32,
}

impl Decode for GetSessionToken {
    type Wire = Wire;

    fn check(wire: Wire) -> StsResult<Self> {
        let mut found = Violations::default();
        if let Some(seconds) = wire.duration_seconds {
            found.range("durationSeconds", seconds, (900, 129_600));
        }
        found.finish()?;
        let seconds = wire.duration_seconds.and_then(|s| u32::try_from(s).ok());
        Ok(GetSessionToken {
            seconds: seconds.unwrap_or(DEFAULT_SECONDS),
        })
    }
}

/// `Credentials`.
pub fn get_session_token(
    input: &GetSessionToken,
    app: &Service,
    caller: &Caller,
) -> StsResult<Xml> {
    let key = app.sts.session_token(caller, input.seconds, app.now())?;
    let mut xml = Xml::default();
    credentials(&mut xml, &key);
    Ok(xml)
}
