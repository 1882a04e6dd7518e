//! Resource policies: the Policy document validated and parsed once when it is set
//! (`parse`), AddPermission and RemovePermission as edits of it (`permissions`), and the
//! evaluation of one call against it ([`evaluate`], `conditions`). Queue policies (`sqs:`
//! actions) and SNS topic policies (`sns:` actions, [`Request::for_service`]) share them, as
//! do calls an AWS service makes (`sns.amazonaws.com` sending into a queue,
//! [`Request::by_service`]).

mod conditions;
mod evaluate;
mod parse;

use std::net::IpAddr;

use crate::clock::Millis;
pub use evaluate::evaluate;
pub use parse::{Invalid, Policy, Quotas, MAX_ACTIONS, MAX_PRINCIPALS, MAX_STATEMENTS};

/// Who asks, as a queue policy sees them.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    /// The caller's 12-digit account.
    pub account: &'a str,
    /// `arn:aws:iam::<account>:root` or `…:user/<name>`.
    pub arn: &'a str,
}

/// One call as policy evaluation sees it: who, what, and the request context that the
/// condition keys read.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Who calls.
    pub caller: Caller<'a>,
    /// The operation (`SendMessage`…); a batch is authorized as its single form.
    pub operation: &'a str,
    /// aws:CurrentTime and aws:EpochTime, from the server's clock.
    pub now: Millis,
    /// aws:SourceIp: the client's address; absent where SQS itself acts.
    pub source_ip: Option<IpAddr>,
    /// aws:SecureTransport: false over sqslite's plain HTTP.
    pub secure: bool,
    /// aws:SourceArn and aws:SourceAccount: the resource an AWS service acts for (a dead-letter
    /// queue whose move task sends), absent on a client's own call.
    pub source_arn: Option<&'a str>,
    /// aws:SourceAccount: the account of the resource that acts (an SNS topic's).
    pub source_account: Option<&'a str>,
    /// The service whose actions the policy is read for: `sqs` or `sns` (the action prefix).
    pub service: &'a str,
    /// A service principal (`sns.amazonaws.com`) making the call instead of an account.
    pub service_principal: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A client's own call over plain HTTP, its address unknown.
    pub fn direct(caller: Caller<'a>, operation: &'a str, now: Millis) -> Self {
        Request {
            caller,
            operation,
            now,
            source_ip: None,
            secure: false,
            source_arn: None,
            source_account: None,
            service: "sqs",
            service_principal: None,
        }
    }

    /// The call is one of `service`'s operations (`sns`: Publish, Subscribe…).
    #[must_use]
    pub fn for_service(mut self, service: &'a str) -> Self {
        self.service = service;
        self
    }

    /// The caller is an AWS service principal (`sns.amazonaws.com`), which a statement must
    /// name (`"Principal": {"Service": …}` or `*`) even in the resource owner's account.
    #[must_use]
    pub fn by_service(mut self, principal: &'a str) -> Self {
        self.service_principal = Some(principal);
        self
    }

    /// SQS acting for the queue `source_arn` of `source_account` (a move task's sends): over
    /// AWS's own network, so secure and from no client address.
    #[must_use]
    pub fn on_behalf_of(mut self, source_arn: &'a str, source_account: &'a str) -> Self {
        self.source_arn = Some(source_arn);
        self.source_account = Some(source_account);
        self.source_ip = None;
        self.secure = true;
        self
    }
}

/// What a queue's policy says to one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The queue's own account, or a statement allows it.
    Allow,
    /// Another account, and no statement allows it (or the action is never cross-account).
    NotAllowed,
    /// A Deny statement matches: it binds everyone, the queue's own account included.
    ExplicitDeny,
}

/// The IAM action an operation is authorized as: batches count as their single form.
pub fn iam_action(operation: &str) -> &str {
    operation.strip_suffix("Batch").unwrap_or(operation)
}

/// IAM's `*` (any run) and `?` (any one character) matching.
fn wildcard(pattern: &str, text: &str, ignore_case: bool) -> bool {
    let eq = |a: u8, b: u8| {
        if ignore_case {
            a.eq_ignore_ascii_case(&b)
        } else {
            a == b
        }
    };
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || (p[pi] != b'*' && eq(p[pi], t[ti]))) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard("a*c?e", "abbbcde", false));
        assert!(wildcard("*", "", false));
        assert!(!wildcard("a*c", "abd", false));
    }

    #[test]
    fn documents_are_validated_once() {
        let ok = r#"{"Statement":{"Effect":"Allow","Principal":{"AWS":["*"],"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Condition":{"ArnEquals":{"aws:SourceArn":["a","b"]},"NumericLessThan":{"aws:EpochTime":5}}}}"#;
        assert_eq!(Policy::parse(ok).unwrap().statements.len(), 1);
        for bad in [
            r#"{"Statement":[{"Effect":"Allow","Principal":"*","Action":"SendMessage"}]}"#,
            r#"{"Statement":[{"Effect":"Allow","Principal":{"AWS":"bob"},"Action":"*"}]}"#,
            r#"{"Statement":[{"Effect":"Allow","Principal":"*","NotPrincipal":"*","Action":"*"}]}"#,
            r#"{"Version":"2020-01-01","Statement":[]}"#,
            r#"{"Statement":[{"Effect":"Allow","Principal":"*","Action":"*","Condition":{"Bool":{"aws:SecureTransport":{"x":1}}}}]}"#,
        ] {
            assert!(Policy::parse(bad).is_err(), "{bad}");
        }
    }
}
