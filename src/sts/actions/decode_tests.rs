//! Decoding STS's inputs: the action list by name, and the request validator's findings
//! reported together in AWS's words.

use super::Action;
use crate::sts::error::{StsError, StsErrorKind};
use crate::sts::protocol::Form;

/// The action decoded from a form body.
fn decode(body: &str) -> Result<Action, StsError> {
    let form = Form::parse(None, body.as_bytes()).unwrap();
    Action::decode(form.get("Action").unwrap_or_default(), &form)
}

/// The ValidationError message of a form body.
fn refusal(body: &str) -> String {
    let err = decode(body).unwrap_err();
    assert_eq!(err.kind, StsErrorKind::ValidationError, "{body}");
    err.message.into_owned()
}

/// A well-formed RoleArn parameter.
const ROLE: &str = "RoleArn=arn:aws:iam::111111111111:role/ci";

#[test]
fn every_listed_action_decodes_by_name() {
    let bodies = [
        "Action=GetCallerIdentity&Version=2011-06-15".to_owned(),
        format!("Action=AssumeRole&{ROLE}&RoleSessionName=run-1"),
        "Action=GetSessionToken&DurationSeconds=900".to_owned(),
    ];
    for (body, name) in bodies.iter().zip(Action::NAMES) {
        assert_eq!(decode(body).unwrap().name(), *name);
    }
    let Ok(Action::AssumeRole(input)) =
        decode(&format!("Action=AssumeRole&{ROLE}&RoleSessionName=x.y@z"))
    else {
        panic!("AssumeRole decodes");
    };
    assert_eq!((input.session.as_str(), input.seconds), ("x.y@z", 3600));
    let Ok(Action::GetSessionToken(input)) = decode("Action=GetSessionToken") else {
        panic!("GetSessionToken decodes");
    };
    assert_eq!(input.seconds, 43_200);
    let unknown = decode("Action=GetFederationToken").unwrap_err();
    assert_eq!(unknown.kind, StsErrorKind::InvalidAction);
    assert_eq!(
        unknown.message,
        "Could not find operation GetFederationToken for version 2011-06-15"
    );
}

#[test]
fn the_validator_reports_every_finding_at_once() {
    assert_eq!(
        refusal("Action=AssumeRole"),
        "2 validation errors detected: Value null at 'roleArn' failed to satisfy constraint: \
         Member must not be null; Value null at 'roleSessionName' failed to satisfy constraint: \
         Member must not be null"
    );
    assert_eq!(
        refusal("Action=AssumeRole&RoleArn=&RoleSessionName=ok"),
        "2 validation errors detected: Value '' at 'roleArn' failed to satisfy constraint: \
         Member must satisfy regular expression pattern: [\\u0009\\u000A\\u000D\\u0020-\\u007E\\u0085\\u00A0-\\uD7FF\\uE000-\\uFFFD\\u10000-\\u10FFFF]+; \
         Value '' at 'roleArn' failed to satisfy constraint: Member must have length greater than or equal to 20"
    );
    assert_eq!(
        refusal(&format!("Action=AssumeRole&{ROLE}&RoleSessionName=a%2Fb")),
        "1 validation error detected: Value 'a/b' at 'roleSessionName' failed to satisfy \
         constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*"
    );
    let long = "s".repeat(65);
    assert_eq!(
        refusal(&format!("Action=AssumeRole&{ROLE}&RoleSessionName={long}")),
        format!("1 validation error detected: Value '{long}' at 'roleSessionName' failed to satisfy constraint: Member must have length less than or equal to 64")
    );
    assert_eq!(
        refusal(&format!(
            "Action=AssumeRole&{ROLE}&RoleSessionName=ok&DurationSeconds=899"
        )),
        "1 validation error detected: Value '899' at 'durationSeconds' failed to satisfy \
         constraint: Member must have value greater than or equal to 900"
    );
    assert_eq!(
        refusal("Action=GetSessionToken&DurationSeconds=129601"),
        "1 validation error detected: Value '129601' at 'durationSeconds' failed to satisfy \
         constraint: Member must have value less than or equal to 129600"
    );
}
