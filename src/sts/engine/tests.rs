//! The engine's rules at explicit instants: who may assume a role, for how long, and what
//! GetSessionToken issues.

use std::sync::Arc;

use super::*;
use crate::http::auth::TemporaryKeys;

const OWNER: &str = "111111111111";
const ROLE: &str = "arn:aws:iam::111111111111:role/ci";

fn caller(account: &str, arn: &str) -> Caller {
    Caller {
        account: account.into(),
        arn: arn.into(),
        user_id: Arc::from("AIDAEXAMPLE"),
        temporary: false,
    }
}

fn other() -> Caller {
    caller("222222222222", "arn:aws:iam::222222222222:user/dev")
}

fn ask(seconds: u32) -> Assume<'static> {
    Assume {
        role: RoleArn::parse(ROLE).unwrap(),
        session: "run-1",
        seconds,
    }
}

fn code(result: StsResult<Arc<TemporaryKey>>) -> &'static str {
    result.map_or_else(|e| e.code(), |_| "ok")
}

#[test]
fn the_owner_may_assume_another_account_only_as_trusted() {
    let plain = Sts::new(&[Role::new("ci", OWNER)], true);
    let owner = caller(OWNER, "arn:aws:iam::111111111111:root");
    let key = plain.assume_role(&owner, &ask(900), 0).unwrap();
    assert_eq!(
        key.principal.arn,
        "arn:aws:sts::111111111111:assumed-role/ci/run-1"
    );
    assert_eq!(key.principal.account, OWNER);
    assert!(key.principal.sender_id.starts_with("AROA"));
    assert!(key.principal.sender_id.ends_with(":run-1"));
    assert_eq!(key.expires_at, 900_000);
    let refused = plain.assume_role(&other(), &ask(900), 0).unwrap_err();
    assert_eq!(
        refused.message,
        "User: arn:aws:iam::222222222222:user/dev is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::111111111111:role/ci"
    );
    for principal in ["222222222222", "arn:aws:iam::222222222222:root"] {
        let trust = format!(
            r#"{{"Statement":{{"Effect":"Allow","Principal":{{"AWS":"{principal}"}},"Action":"sts:AssumeRole"}}}}"#
        );
        let trusting = Sts::new(&[Role::new("ci", OWNER).trusting(&trust)], true);
        assert_eq!(code(trusting.assume_role(&other(), &ask(900), 0)), "ok");
    }
    let deny = r#"{"Statement":{"Effect":"Deny","Principal":"*","Action":"sts:*"}}"#;
    let denying = Sts::new(&[Role::new("ci", OWNER).trusting(deny)], true);
    assert_eq!(
        code(denying.assume_role(&owner, &ask(900), 0)),
        "AccessDenied"
    );
}

#[test]
fn undeclared_roles_only_without_verification() {
    let verified = Sts::new(&[], true);
    let owner = caller(OWNER, "arn:aws:iam::111111111111:root");
    assert_eq!(
        code(verified.assume_role(&owner, &ask(900), 0)),
        "AccessDenied"
    );
    let open = Sts::new(&[], false);
    assert_eq!(code(open.assume_role(&other(), &ask(43_200), 0)), "ok");
}

#[test]
fn sessions_are_bounded_by_the_role_and_by_chaining() {
    let sts = Sts::new(&[Role::new("ci", OWNER)], true);
    let owner = caller(OWNER, "arn:aws:iam::111111111111:root");
    let err = sts.assume_role(&owner, &ask(3601), 0).unwrap_err();
    assert_eq!(
        err.message,
        "The requested DurationSeconds exceeds the MaxSessionDuration set for this role."
    );
    let mut long = Role::new("ci", OWNER);
    long.max_session_duration = 7200;
    let sts = Sts::new(&[long], true);
    assert_eq!(code(sts.assume_role(&owner, &ask(7200), 0)), "ok");
    let session = caller(OWNER, "arn:aws:sts::111111111111:assumed-role/ci/run-1");
    assert_eq!(
        code(sts.assume_role(&session, &ask(7200), 0)),
        "ValidationError"
    );
}

#[test]
fn session_tokens_act_as_their_caller() {
    let sts = Sts::new(&[], true);
    let user = caller(OWNER, "arn:aws:iam::111111111111:user/dev");
    let key = sts.session_token(&user, 43_200, 1000).unwrap();
    assert_eq!(key.principal.arn, user.arn);
    assert_eq!(key.expires_at, 1000 + 43_200_000);
    assert!(sts.sessions.find(&key.principal.access_key_id).is_some());
    let root = caller(OWNER, "arn:aws:iam::111111111111:root");
    assert_eq!(
        sts.session_token(&root, 7200, 0).unwrap().expires_at,
        3_600_000
    );
    let temporary = Caller {
        temporary: true,
        ..user
    };
    let refused = sts.session_token(&temporary, 900, 0).unwrap_err();
    assert_eq!(refused.kind, StsErrorKind::AccessDenied);
}
