//! STS's rules, with no HTTP: who may assume which role ([`roles`], trust policies through
//! the shared policy evaluator), for how long, and the temporary keys issued ([`sessions`]).
//! Every function receives `now`.

pub mod roles;
pub mod sessions;

use std::sync::Arc;

use crate::clock::Millis;
use crate::http::auth::principal::role_id;
use crate::http::auth::{Principal, TemporaryKey};
use crate::policy::{self, Decision, Policy};
use crate::sts::error::{StsError, StsErrorKind, StsResult};
pub use roles::{Role, RoleArn};
pub use sessions::Sessions;

/// Role chaining's session limit: a session's keys assume another role for an hour at most.
const CHAINED_SESSION_SECONDS: u32 = 3600;
/// The longest GetSessionToken session of an account's root: an hour (IAM User Guide,
/// "Requesting temporary security credentials": longer requests get an hour).
const ROOT_SESSION_SECONDS: u32 = 3600;

/// Who calls STS, as its identity reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The caller's account.
    pub account: String,
    /// `arn:aws:iam::<account>:root`, `…:user/<name>` or an assumed role's session ARN.
    pub arn: String,
    /// GetCallerIdentity's UserId: the account for a root, `AIDA…` for a user,
    /// `AROA…:<session>` for a role's session.
    pub user_id: Arc<str>,
    /// Whether it signs with temporary keys (GetSessionToken refuses those).
    pub temporary: bool,
}

impl Caller {
    /// Whether the caller is a role's session: another AssumeRole is role chaining.
    fn is_role_session(&self) -> bool {
        self.arn.split_once(":assumed-role/").is_some() && self.arn.contains(":sts::")
    }
}

/// A declared role with its trust policy parsed once.
#[derive(Debug)]
struct Trusted {
    /// The declaration.
    role: Role,
    /// Its ARN.
    arn: String,
    /// The parsed trust policy; `Err` when it would not parse, and then no one may assume
    /// the role (a Config built in code skips the file reader's check).
    policy: Result<Option<Policy>, ()>,
}

/// The STS engine: the declared roles and the issued keys.
#[derive(Debug)]
pub struct Sts {
    /// `[[roles]]`.
    roles: Vec<Trusted>,
    /// The issued keys, which the auth floor reads too.
    pub sessions: Arc<Sessions>,
    /// Whether callers are verified (`[[credentials]]` declared): then only a declared role
    /// may be assumed, as its trust policy says. Unverified, any well-formed role ARN may.
    verified: bool,
}

/// What AssumeRole asks, checked as the request validator checks it.
#[derive(Debug, Clone, Copy)]
pub struct Assume<'a> {
    /// The role.
    pub role: RoleArn<'a>,
    /// Its session's name.
    pub session: &'a str,
    /// How long the keys work, in seconds.
    pub seconds: u32,
}

impl Sts {
    /// The engine over the declared roles; `verified` as [`Sts::verified`] says.
    pub fn new(roles: &[Role], verified: bool) -> Self {
        let roles = roles.iter().map(|role| {
            let policy = role.policy().map_err(|why| {
                tracing::warn!("{why}: no one may assume it");
            });
            Trusted {
                arn: role.arn(),
                role: role.clone(),
                policy,
            }
        });
        Sts {
            roles: roles.collect(),
            sessions: Arc::new(Sessions::default()),
            verified,
        }
    }

    /// AssumeRole: the caller's right to the role, the session's length against the role's
    /// limit, then the session's keys.
    pub fn assume_role(
        &self,
        caller: &Caller,
        ask: &Assume<'_>,
        now: Millis,
    ) -> StsResult<Arc<TemporaryKey>> {
        let longest = self.admit(caller, &ask.role, now)?;
        if caller.is_role_session() && ask.seconds > CHAINED_SESSION_SECONDS {
            // [unverified] wording: AWS documents the limit, the refusal is not recorded.
            return Err(StsError::validation(
                "The requested DurationSeconds exceeds the 1 hour session limit for roles assumed by role chaining.",
            ));
        }
        if ask.seconds > longest {
            // [aws-recorded, kreuzwerker/awsu#27]
            return Err(StsError::validation(
                "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.",
            ));
        }
        let id = role_id(&format!(
            "arn:{}:iam::{}:role/{}",
            ask.role.partition, ask.role.account, ask.role.name
        ));
        let principal = Principal {
            access_key_id: String::new(),
            account: ask.role.account.to_owned(),
            arn: ask.role.session_arn(ask.session),
            sender_id: Arc::from(format!("{id}:{}", ask.session)),
        };
        let expires = now + u64::from(ask.seconds) * 1000;
        self.sessions.issue(principal, expires, now)
    }

    /// The longest session the caller may have of the role, if it may assume it: a declared
    /// role's trust policy decides for a verified caller (its own account unless a Deny
    /// says otherwise, another account only as a statement allows); an undeclared role is
    /// refused to a verified caller, as AWS refuses a role the caller may not know exists.
    fn admit(&self, caller: &Caller, role: &RoleArn<'_>, now: Millis) -> StsResult<u32> {
        let declared = self.roles.iter().find(|t| t.arn == role.text);
        if !self.verified {
            return Ok(declared.map_or(LONGEST, |t| t.role.max_session_duration));
        }
        let refused = || refused(caller, role.text);
        let trusted = declared.ok_or_else(refused)?;
        let policy = trusted.policy.as_ref().map_err(|()| refused())?;
        let who = policy::Caller {
            account: &caller.account,
            arn: &caller.arn,
        };
        let request = policy::Request::direct(who, "AssumeRole", now).for_service("sts");
        match policy::evaluate(policy.as_ref(), &trusted.arn, role.account, &request) {
            Decision::Allow => Ok(trusted.role.max_session_duration),
            Decision::NotAllowed | Decision::ExplicitDeny => Err(refused()),
        }
    }

    /// GetSessionToken: keys acting as the caller itself, refused to temporary keys; an
    /// account's root gets an hour at most, as on AWS.
    pub fn session_token(
        &self,
        caller: &Caller,
        seconds: u32,
        now: Millis,
    ) -> StsResult<Arc<TemporaryKey>> {
        if caller.temporary {
            // [aws-recorded: aws/aws-sdk-php#1876]
            return Err(StsError::new(
                StsErrorKind::AccessDenied,
                "Cannot call GetSessionToken with session credentials",
            ));
        }
        let root = caller.arn.ends_with(":root");
        let seconds = if root {
            seconds.min(ROOT_SESSION_SECONDS)
        } else {
            seconds
        };
        let principal = Principal {
            access_key_id: String::new(),
            account: caller.account.clone(),
            arn: caller.arn.clone(),
            sender_id: caller.user_id.clone(),
        };
        self.sessions
            .issue(principal, now + u64::from(seconds) * 1000, now)
    }
}

/// AssumeRole's refusal of `caller` for `role`
/// [aws-recorded, Netflix/security_monkey#77: 403, this text].
pub fn refused(caller: &Caller, role: &str) -> StsError {
    StsError::new(
        StsErrorKind::AccessDenied,
        format!(
            "User: {} is not authorized to perform: sts:AssumeRole on resource: {role}",
            caller.arn
        ),
    )
}

/// AssumeRole's longest session, for a role not declared.
const LONGEST: u32 = roles::LONGEST_SESSION_SECONDS;

#[cfg(test)]
mod tests;
