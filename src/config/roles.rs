//! `[[roles]]`: the IAM roles STS's AssumeRole may assume, each with its account and trust
//! policy (the settings type is STS's, [`crate::sts::engine::Role`]).

use super::tree::{ConfigError, Node, Source, Table, Value};
use crate::sts::engine::Role;

pub(super) const KEYS: &[&str] = &["name", "account_id", "trust_policy", "max_session_duration"];

/// One `[[roles]]` table. The trust policy is a JSON document, written as a string or as a
/// TOML table of the same shape.
pub(super) fn parse(src: &Source, node: &Node, table: &Table) -> Result<Role, ConfigError> {
    let mut role = Role::new("", "");
    for e in &table.entries {
        match e.key.as_str() {
            "name" => role.name = src.string(e)?,
            "account_id" => role.account_id = src.string(e)?,
            "trust_policy" => {
                role.trust_policy = Some(match &e.node.value {
                    Value::Table(_) => e.node.value.to_json().to_string(),
                    _ => src.string(e)?,
                });
            }
            "max_session_duration" => role.max_session_duration = src.integer(e)?,
            _ => return Err(src.unknown_key(e, "[[roles]]", KEYS)),
        }
    }
    role.check()
        .map_err(|why| src.error(node.line, format!("[[roles]]: {why}")))?;
    Ok(role)
}

/// A role declared twice would leave which trust policy applies to chance.
pub(super) fn check_unique(src: &Source, roles: &[Role]) -> Result<(), ConfigError> {
    for (i, r) in roles.iter().enumerate() {
        if roles[..i].iter().any(|d| d.arn() == r.arn()) {
            return Err(src.error(
                1,
                format!("role `{}` is declared twice in [[roles]]", r.arn()),
            ));
        }
    }
    Ok(())
}
