//! `[[roles]]`: the IAM roles AssumeRole may assume, each with its account, its trust policy
//! (IAM's AssumeRolePolicyDocument, evaluated by the shared policy evaluator) and its
//! maximum session duration; and the reading of a role's ARN.

use crate::policy::{Policy, Quotas};

/// IAM's default MaxSessionDuration of a role: one hour.
pub const DEFAULT_MAX_SESSION_SECONDS: u32 = 3600;
/// The longest MaxSessionDuration IAM lets a role have, and AssumeRole's longest session.
pub const LONGEST_SESSION_SECONDS: u32 = 43_200;

/// A trust policy's limits: IAM's role trust policy quota is 2,048 characters, raisable to
/// 4,096; sqslite takes the larger. IAM counts no statements, actions, principals or
/// conditions separately, so those are generous \[unverified\].
const TRUST_QUOTAS: Quotas = Quotas {
    bytes: 4096,
    statements: 100,
    actions: 100,
    principals: 500,
    conditions: 100,
};

/// One declared role (`[[roles]]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    /// The role's name, the last part of its ARN (`arn:aws:iam::<account>:role/<name>`).
    pub name: String,
    /// The 12-digit account the role belongs to, whose queues its sessions act on.
    pub account_id: String,
    /// Who may assume it from another account (a JSON policy document, IAM's
    /// AssumeRolePolicyDocument); without one only the role's own account may.
    pub trust_policy: Option<String>,
    /// The longest session AssumeRole grants (3600 to 43200 seconds; IAM's default 3600).
    pub max_session_duration: u32,
}

impl Role {
    /// A role of `account_id` with no trust policy and IAM's default session limit.
    pub fn new(name: &str, account_id: &str) -> Self {
        Role {
            name: name.to_owned(),
            account_id: account_id.to_owned(),
            trust_policy: None,
            max_session_duration: DEFAULT_MAX_SESSION_SECONDS,
        }
    }

    /// The role with this trust policy document.
    #[must_use]
    pub fn trusting(mut self, policy: &str) -> Self {
        self.trust_policy = Some(policy.to_owned());
        self
    }

    /// `arn:aws:iam::<account>:role/<name>`.
    pub fn arn(&self) -> String {
        format!("arn:aws:iam::{}:role/{}", self.account_id, self.name)
    }

    /// Why IAM would not have this role, if it would not: its name (1 to 64 of
    /// `[\w+=,.@-]`), its account, its session limit, its trust policy.
    pub fn check(&self) -> Result<(), String> {
        let name_ok =
            (1..=64).contains(&self.name.chars().count()) && self.name.chars().all(name_char);
        if !name_ok {
            return Err(format!(
                "role `{}`: a name is 1 to 64 letters, digits and `+=,.@_-`",
                self.name
            ));
        }
        if self.account_id.len() != 12 || !self.account_id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("role `{}`: `account_id` is 12 digits", self.name));
        }
        let limits = DEFAULT_MAX_SESSION_SECONDS..=LONGEST_SESSION_SECONDS;
        if !limits.contains(&self.max_session_duration) {
            return Err(format!(
                "role `{}`: `max_session_duration` is 3600 to 43200 seconds",
                self.name
            ));
        }
        self.policy().map(|_| ())
    }

    /// The parsed trust policy, `None` without one.
    pub fn policy(&self) -> Result<Option<Policy>, String> {
        let Some(text) = &self.trust_policy else {
            return Ok(None);
        };
        Policy::parse_with(text, &TRUST_QUOTAS)
            .map(Some)
            .map_err(|_| {
                format!(
                    "role `{}`: `trust_policy` is not a policy document IAM would take",
                    self.name
                )
            })
    }
}

/// A character IAM allows in role and session names: `[\w+=,.@-]`.
pub fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_+=,.@-".contains(c)
}

/// A role's ARN, read: `arn:<partition>:iam::<account>:role/[<path>/]<name>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoleArn<'a> {
    /// The whole ARN as given.
    pub text: &'a str,
    /// `aws`, `aws-cn`…, which the session's ARN keeps.
    pub partition: &'a str,
    /// The role's account.
    pub account: &'a str,
    /// The role's name, without its path.
    pub name: &'a str,
}

impl<'a> RoleArn<'a> {
    /// The ARN's parts, if it names a role.
    pub fn parse(text: &'a str) -> Option<Self> {
        let rest = text.strip_prefix("arn:")?;
        let (partition, rest) = rest.split_once(':')?;
        let rest = rest.strip_prefix("iam::")?;
        let (account, path) = rest.split_once(":role/")?;
        let name = path.rsplit('/').next()?;
        let well_formed = !partition.is_empty()
            && account.len() == 12
            && account.bytes().all(|b| b.is_ascii_digit())
            && !name.is_empty()
            && name.chars().all(name_char);
        well_formed.then_some(RoleArn {
            text,
            partition,
            account,
            name,
        })
    }

    /// The ARN of this role's session `session`.
    pub fn session_arn(&self, session: &str) -> String {
        format!(
            "arn:{}:sts::{}:assumed-role/{}/{session}",
            self.partition, self.account, self.name
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_arns_are_read_with_their_path() {
        let arn = RoleArn::parse("arn:aws:iam::111111111111:role/team/ci").unwrap();
        assert_eq!((arn.account, arn.name), ("111111111111", "ci"));
        assert_eq!(
            arn.session_arn("run"),
            "arn:aws:sts::111111111111:assumed-role/ci/run"
        );
        for bad in [
            "arn:aws:iam::111111111111:user/ci",
            "arn:aws:iam::1111:role/ci",
            "arn:aws:sqs:us-east-1:111111111111:role/ci",
            "arn:aws:iam::111111111111:role/",
            "not an arn at all, long",
        ] {
            assert_eq!(RoleArn::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn declarations_are_checked() {
        assert!(Role::new("ci", "111111111111").check().is_ok());
        assert!(Role::new("c i", "111111111111").check().is_err());
        assert!(Role::new("ci", "1").check().is_err());
        let untrusting = Role::new("ci", "111111111111").trusting("{}");
        assert!(untrusting.check().is_err());
        let mut long = Role::new("ci", "111111111111");
        long.max_session_duration = 43_201;
        assert!(long.check().is_err());
    }
}
