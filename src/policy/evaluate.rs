//! One call against a queue's parsed Policy, as IAM evaluates a resource policy.

use super::conditions::{holds, Truth};
use super::parse::{Effect, Policy, Statement};
use super::{iam_action, wildcard, Decision, Request};

/// Evaluates `req` on the queue `queue_arn` owned by `owner`: an explicit Deny wins; the
/// owner's account is otherwise allowed (sqslite has no identity policies, so its keys may do
/// anything in their own account); another account needs an Allow statement naming it. A
/// condition sqslite cannot evaluate fails closed: its Allow does not apply, its Deny does.
pub fn evaluate(
    policy: Option<&Policy>,
    queue_arn: &str,
    owner: &str,
    req: &Request<'_>,
) -> Decision {
    let action = iam_action(req.operation);
    let statements = policy.map_or(&[][..], |p| &p.statements[..]);
    let applies = |s: &Statement, effect: Effect| {
        s.effect == effect
            && principal_matches(s, req)
            && listed(s.action.negated, &s.action.items, |p| {
                action_matches(p, req.service, action)
            })
            && s.resource
                .as_ref()
                .is_none_or(|r| listed(r.negated, &r.items, |p| wildcard(p, queue_arn, false)))
            && match holds(&s.conditions, req) {
                Truth::True => true,
                Truth::False => false,
                Truth::Unknown => effect == Effect::Deny,
            }
    };
    if statements.iter().any(|s| applies(s, Effect::Deny)) {
        return Decision::ExplicitDeny;
    }
    if req.service_principal.is_none() && req.caller.account == owner {
        return Decision::Allow;
    }
    if statements.iter().any(|s| applies(s, Effect::Allow)) {
        Decision::Allow
    } else {
        Decision::NotAllowed
    }
}

/// One pattern matches, or for the `Not…` form none does.
fn listed(negated: bool, items: &[String], matches: impl Fn(&str) -> bool) -> bool {
    items.iter().any(|p| matches(p)) != negated
}

/// Whether the statement's Principal (or NotPrincipal) names the caller.
fn principal_matches(s: &Statement, req: &Request<'_>) -> bool {
    let caller = req.caller;
    let p = &s.principal.items;
    let named = p.anyone
        || if let Some(service) = req.service_principal {
            p.services.iter().any(|n| n == service)
        } else {
            let root = format!("arn:aws:iam::{}:root", caller.account);
            p.aws.iter().any(|n| {
                n == caller.account || n == caller.arn || *n == root || names_role(n, caller.arn)
            })
        };
    named != s.principal.negated
}

/// Whether `name` is the role (`arn:aws:iam::<account>:role/[path/]<role>`) of the
/// assumed-role session `caller` (`arn:aws:sts::<account>:assumed-role/<role>/<session>`):
/// IAM matches a session by its role's ARN. Role names are unique in an account whatever
/// their path, so the path a session's ARN leaves out is not needed.
fn names_role(name: &str, caller: &str) -> bool {
    let Some((account, rest)) = caller
        .strip_prefix("arn:aws:sts::")
        .and_then(|r| r.split_once(":assumed-role/"))
    else {
        return false;
    };
    let role = rest.split_once('/').map_or(rest, |(role, _)| role);
    name.strip_prefix("arn:aws:iam::")
        .and_then(|r| r.strip_prefix(account))
        .and_then(|r| r.strip_prefix(":role/"))
        .is_some_and(|path| path.rsplit('/').next() == Some(role))
}

/// `sqs:Send*`, `SNS:Publish`, `*`: the service prefix and the name are case-insensitive.
fn action_matches(pattern: &str, service: &str, action: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    match pattern.split_once(':') {
        Some((prefix, name)) if prefix.eq_ignore_ascii_case(service) => {
            wildcard(name, action, true)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::Caller;
    use super::*;

    const ARN: &str = "arn:aws:sqs:us-east-1:111111111111:q";
    const OWNER: &str = "111111111111";
    const OTHER: Caller = Caller {
        account: "222222222222",
        arn: "arn:aws:iam::222222222222:user/ci",
    };
    const OWNER_ROOT: Caller = Caller {
        account: OWNER,
        arn: "arn:aws:iam::111111111111:root",
    };

    fn doc(statements: &str) -> Policy {
        Policy::parse(&format!(
            r#"{{"Version":"2012-10-17","Statement":{statements}}}"#
        ))
        .unwrap()
    }

    fn eval(p: Option<&Policy>, caller: Caller<'_>, op: &str) -> Decision {
        evaluate(p, ARN, OWNER, &Request::direct(caller, op, 0))
    }

    #[test]
    fn another_account_needs_an_allow() {
        assert_eq!(eval(None, OTHER, "SendMessage"), Decision::NotAllowed);
        for principal in [
            r#""*""#,
            r#"{"AWS":"222222222222"}"#,
            r#"{"AWS":["*","arn:aws:iam::222222222222:root"]}"#,
            r#"{"AWS":"arn:aws:iam::222222222222:user/ci"}"#,
        ] {
            let p = doc(&format!(
                r#"[{{"Effect":"Allow","Principal":{principal},"Action":"sqs:Send*","Resource":"{ARN}"}}]"#
            ));
            assert_eq!(eval(Some(&p), OTHER, "SendMessageBatch"), Decision::Allow);
            assert_eq!(
                eval(Some(&p), OTHER, "ReceiveMessage"),
                Decision::NotAllowed
            );
            assert_eq!(
                eval(Some(&p), OTHER, "SetQueueAttributes"),
                Decision::NotAllowed
            );
        }
        let user = doc(
            r#"{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::222222222222:user/other"},"Action":"*","Resource":"*"}"#,
        );
        assert_eq!(
            eval(Some(&user), OTHER, "SendMessage"),
            Decision::NotAllowed
        );
        let wrong_queue = doc(
            r#"[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"arn:aws:sqs:*:*:other"}]"#,
        );
        assert_eq!(
            eval(Some(&wrong_queue), OTHER, "SendMessage"),
            Decision::NotAllowed
        );
        let service = doc(
            r#"{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage"}"#,
        );
        assert_eq!(
            eval(Some(&service), OTHER, "SendMessage"),
            Decision::NotAllowed
        );
    }

    #[test]
    fn a_role_names_its_sessions() {
        let session = Caller {
            account: "222222222222",
            arn: "arn:aws:sts::222222222222:assumed-role/ci/run-7",
        };
        for (role, expected) in [
            ("arn:aws:iam::222222222222:role/ci", Decision::Allow),
            ("arn:aws:iam::222222222222:role/team/ci", Decision::Allow),
            ("arn:aws:iam::222222222222:role/cid", Decision::NotAllowed),
            ("arn:aws:iam::333333333333:role/ci", Decision::NotAllowed),
        ] {
            let p = doc(&format!(
                r#"{{"Effect":"Allow","Principal":{{"AWS":"{role}"}},"Action":"sqs:*"}}"#
            ));
            assert_eq!(eval(Some(&p), session, "SendMessage"), expected, "{role}");
        }
    }

    #[test]
    fn deny_wins_and_binds_the_owner() {
        let p = doc(
            r#"[{"Effect":"Allow","Principal":"*","Action":"sqs:*","Resource":"*"},
                {"Effect":"Deny","Principal":{"AWS":"*"},"Action":["sqs:PurgeQueue","sqs:Delete*"],"Resource":"arn:aws:sqs:*:111111111111:*"}]"#,
        );
        for caller in [OTHER, OWNER_ROOT] {
            assert_eq!(eval(Some(&p), caller, "PurgeQueue"), Decision::ExplicitDeny);
            assert_eq!(
                eval(Some(&p), caller, "DeleteMessageBatch"),
                Decision::ExplicitDeny
            );
            assert_eq!(eval(Some(&p), caller, "ReceiveMessage"), Decision::Allow);
        }
        let not_action = doc(
            r#"{"Effect":"Deny","NotPrincipal":{"AWS":"111111111111"},"NotAction":"sqs:Receive*","Resource":"*"}"#,
        );
        assert_eq!(
            eval(Some(&not_action), OTHER, "SendMessage"),
            Decision::ExplicitDeny
        );
        assert_eq!(
            eval(Some(&not_action), OTHER, "ReceiveMessage"),
            Decision::NotAllowed
        );
        assert_eq!(
            eval(Some(&not_action), OWNER_ROOT, "SendMessage"),
            Decision::Allow
        );
    }

    #[test]
    fn conditions_fail_closed() {
        let deny_http = doc(
            r#"{"Effect":"Deny","Principal":"*","Action":"*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}"#,
        );
        assert_eq!(
            eval(Some(&deny_http), OWNER_ROOT, "SendMessage"),
            Decision::ExplicitDeny
        );
        let mut over_tls = Request::direct(OWNER_ROOT, "SendMessage", 0);
        over_tls.secure = true;
        assert_eq!(
            evaluate(Some(&deny_http), ARN, OWNER, &over_tls),
            Decision::Allow
        );
        let unknown = r#"{"StringEquals":{"sqs:MessageGroupId":"x"}}"#;
        for (effect, expected) in [
            ("Allow", Decision::NotAllowed),
            ("Deny", Decision::ExplicitDeny),
        ] {
            let p = doc(&format!(
                r#"{{"Effect":"{effect}","Principal":"*","Action":"*","Condition":{unknown}}}"#
            ));
            assert_eq!(eval(Some(&p), OTHER, "SendMessage"), expected, "{effect}");
        }
        // A known condition that is false keeps even a Deny with an unknown one from applying.
        let mixed = doc(
            r#"{"Effect":"Deny","Principal":"*","Action":"*","Condition":{"StringEquals":{"sqs:MessageGroupId":"x","aws:PrincipalAccount":"999999999999"}}}"#,
        );
        assert_eq!(
            eval(Some(&mixed), OWNER_ROOT, "SendMessage"),
            Decision::Allow
        );
        let negated = doc(
            r#"{"Effect":"Allow","Principal":"*","Action":"*","Condition":{"StringNotEquals":{"aws:SourceAccount":["1","2"]}}}"#,
        );
        assert_eq!(eval(Some(&negated), OTHER, "SendMessage"), Decision::Allow);
        // ForAnyValue: on a missing key is false even negated; ForAllValues: is true.
        for (set, expected) in [
            ("ForAnyValue", Decision::NotAllowed),
            ("ForAllValues", Decision::Allow),
        ] {
            let p = doc(&format!(
                r#"{{"Effect":"Allow","Principal":"*","Action":"*","Condition":{{"{set}:StringNotEquals":{{"aws:SourceArn":"x"}}}}}}"#
            ));
            assert_eq!(eval(Some(&p), OTHER, "SendMessage"), expected, "{set}");
        }
        let mut from_one = Request::direct(OTHER, "SendMessage", 0);
        from_one.source_account = Some("2");
        assert_eq!(
            evaluate(Some(&negated), ARN, OWNER, &from_one),
            Decision::NotAllowed
        );
    }

    #[test]
    fn a_service_principal_must_be_named_even_in_the_owners_account() {
        let sns = |p: Option<&Policy>| {
            let req = Request::direct(OWNER_ROOT, "SendMessage", 0)
                .by_service("sns.amazonaws.com")
                .on_behalf_of("arn:aws:sns:us-east-1:111111111111:t", OWNER);
            evaluate(p, ARN, OWNER, &req)
        };
        assert_eq!(sns(None), Decision::NotAllowed);
        let named = doc(&format!(
            r#"[{{"Effect":"Allow","Principal":{{"Service":"sns.amazonaws.com"}},"Action":"sqs:SendMessage","Resource":"{ARN}","Condition":{{"ArnEquals":{{"aws:SourceArn":"arn:aws:sns:us-east-1:111111111111:t"}}}}}}]"#
        ));
        assert_eq!(sns(Some(&named)), Decision::Allow);
        let accounts_only = doc(&format!(
            r#"[{{"Effect":"Allow","Principal":{{"AWS":"111111111111"}},"Action":"sqs:*","Resource":"{ARN}"}}]"#
        ));
        assert_eq!(sns(Some(&accounts_only)), Decision::NotAllowed);
    }

    #[test]
    fn sns_actions_are_read_for_sns_calls_only() {
        let p = doc(r#"[{"Effect":"Allow","Principal":"*","Action":"SNS:Publish"}]"#);
        let topic = "arn:aws:sns:us-east-1:111111111111:t";
        let call = |op| {
            let req = Request::direct(OTHER, op, 0).for_service("sns");
            evaluate(Some(&p), topic, OWNER, &req)
        };
        assert_eq!(call("Publish"), Decision::Allow);
        assert_eq!(call("Subscribe"), Decision::NotAllowed);
        assert_eq!(eval(Some(&p), OTHER, "SendMessage"), Decision::NotAllowed);
    }
}
