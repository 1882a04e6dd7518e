//! GetCallerIdentity: who the request's keys say the caller is.

use serde::Deserialize;

use super::Decode;
use crate::sts::engine::Caller;
use crate::sts::error::StsResult;
use crate::sts::protocol::Xml;
use crate::sts::Service;

/// GetCallerIdentity takes no members.
#[derive(Debug, Deserialize)]
pub struct GetCallerIdentity {}

impl Decode for GetCallerIdentity {
    type Wire = Self;

    fn check(wire: Self) -> StsResult<Self> {
        Ok(wire)
    }
}

/// `UserId`, `Account` and `Arn`, in the order AWS's example answer lists them.
// Never fails, yet answers as every action does, through the one dispatch.
#[allow(clippy::unnecessary_wraps)]
pub fn get_caller_identity(_: &GetCallerIdentity, _: &Service, caller: &Caller) -> StsResult<Xml> {
    let mut xml = Xml::default();
    xml.text("UserId", &caller.user_id)
        .text("Account", &caller.account)
        .text("Arn", &caller.arn);
    Ok(xml)
}
