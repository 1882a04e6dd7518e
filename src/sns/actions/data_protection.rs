//! PutDataProtectionPolicy and GetDataProtectionPolicy: a topic's data protection policy,
//! stored and returned as given (the topic attribute of the same name). sqslite does not
//! enforce it: no audit, deny or de-identify operation runs on published messages (the
//! guide's SNS page, docs/src/sns.md, says so).

use serde::Deserialize;

use super::access::Resource;
use super::wire::{required, topic_arn};
use super::{in_region, Decode};
use crate::http::Context;
use crate::sns::engine::topics::DATA_PROTECTION_POLICY as ATTRIBUTE;
use crate::sns::error::SnsResult;
use crate::sns::protocol::xml::Xml;
use crate::sns::Service;

/// PutDataProtectionPolicy's input.
#[derive(Debug)]
pub struct PutDataProtectionPolicy {
    /// ResourceArn: the topic.
    arn: String,
    /// DataProtectionPolicy: the JSON policy document; empty removes it.
    policy: String,
}

/// PutDataProtectionPolicy as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct PutDataProtectionPolicyWire {
    /// ResourceArn: the topic.
    resource_arn: Option<String>,
    /// DataProtectionPolicy: required, after the ARN.
    data_protection_policy: Option<String>,
}

impl Decode for PutDataProtectionPolicy {
    type Wire = PutDataProtectionPolicyWire;

    fn check(wire: PutDataProtectionPolicyWire) -> SnsResult<Self> {
        Ok(PutDataProtectionPolicy {
            arn: topic_arn(wire.resource_arn, "ResourceArn")?,
            policy: required(wire.data_protection_policy, "DataProtectionPolicy")?,
        })
    }
}

impl Resource for PutDataProtectionPolicy {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// PutDataProtectionPolicy: replaces the topic's policy (checked to be JSON); no output.
pub async fn put_data_protection_policy(
    input: PutDataProtectionPolicy,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    in_region(ctx, &input.arn)?;
    app.topics
        .set_topic_attribute(&input.arn, ATTRIBUTE, &input.policy)?;
    Ok(Xml::default())
}

/// GetDataProtectionPolicy's input.
#[derive(Debug)]
pub struct GetDataProtectionPolicy {
    /// ResourceArn: the topic.
    arn: String,
}

/// GetDataProtectionPolicy as it travels.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetDataProtectionPolicyWire {
    /// ResourceArn: the topic.
    resource_arn: Option<String>,
}

impl Decode for GetDataProtectionPolicy {
    type Wire = GetDataProtectionPolicyWire;

    fn check(wire: GetDataProtectionPolicyWire) -> SnsResult<Self> {
        Ok(GetDataProtectionPolicy {
            arn: topic_arn(wire.resource_arn, "ResourceArn")?,
        })
    }
}

impl Resource for GetDataProtectionPolicy {
    fn resource(&self) -> Option<&str> {
        Some(&self.arn)
    }
}

/// GetDataProtectionPolicy: the policy as put, or an empty string when there is none
/// \[unverified: AWS's answer for a topic without one is not recorded\].
pub async fn get_data_protection_policy(
    input: GetDataProtectionPolicy,
    app: &Service,
    ctx: &Context,
) -> SnsResult<Xml> {
    in_region(ctx, &input.arn)?;
    let policy = app.topics.data_protection_policy(&input.arn)?;
    let mut xml = Xml::empty_result();
    xml.text(ATTRIBUTE, policy.as_deref().unwrap_or(""));
    Ok(xml)
}
