//! `[[credentials]]`: the access keys a server with authentication accepts, and whose account
//! each one acts as.

use super::tree::{ConfigError, Node, Source, Table};
use crate::http::auth::Credential;

pub(super) const KEYS: &[&str] = &["access_key_id", "secret_access_key", "account_id", "user"];

/// One `[[credentials]]` table.
pub(super) fn parse(src: &Source, node: &Node, table: &Table) -> Result<Credential, ConfigError> {
    let mut c = Credential::new("", "", "");
    for e in &table.entries {
        match e.key.as_str() {
            "access_key_id" => c.access_key_id = src.string(e)?,
            "secret_access_key" => {
                c.secret_access_key = src.read(e, super::settings_values::secret(&e.node.value))?;
            }
            "account_id" => c.account_id = src.string(e)?,
            "user" => c.user = Some(src.string(e)?),
            _ => return Err(src.unknown_key(e, "[[credentials]]", KEYS)),
        }
    }
    for (key, value) in [
        ("access_key_id", &c.access_key_id),
        ("secret_access_key", &c.secret_access_key),
    ] {
        if value.is_empty() {
            return Err(src.error(node.line, format!("[[credentials]] needs a `{key}`")));
        }
    }
    if c.account_id.len() != 12 || !c.account_id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(src.error(
            node.line,
            "[[credentials]] needs an `account_id` of 12 digits",
        ));
    }
    Ok(c)
}

/// An access key listed twice would make the secret that signs for it ambiguous.
pub(super) fn check_unique(src: &Source, credentials: &[Credential]) -> Result<(), ConfigError> {
    for (i, c) in credentials.iter().enumerate() {
        if credentials[..i]
            .iter()
            .any(|d| d.access_key_id == c.access_key_id)
        {
            return Err(src.error(
                1,
                format!(
                    "access key `{}` is listed twice in [[credentials]]",
                    c.access_key_id
                ),
            ));
        }
    }
    Ok(())
}
