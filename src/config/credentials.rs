//! `[[credentials]]`: the access keys a server with authentication accepts, and whose account
//! each one acts as.

use super::tree::{ConfigError, Node, Source, Table};

const KEYS: &[&str] = &["access_key_id", "secret_access_key", "account_id", "user"];

/// One access key. With any configured, every SQS request must carry a valid Signature V4
/// made with one of them, and acts as that key's account.
#[derive(Clone, PartialEq, Eq)]
pub struct Credential {
    pub access_key_id: String,
    pub secret_access_key: String,
    /// The 12-digit account the key acts as: its queues, its URLs, its policy principal.
    pub account_id: String,
    /// An IAM user name, so queue policies can name `arn:aws:iam::<account>:user/<user>`;
    /// without one the key is the account's root principal.
    pub user: Option<String>,
}

impl Credential {
    pub fn new(access_key_id: &str, secret_access_key: &str, account_id: &str) -> Self {
        Credential {
            access_key_id: access_key_id.into(),
            secret_access_key: secret_access_key.into(),
            account_id: account_id.into(),
            user: None,
        }
    }

    /// The principal ARN a queue policy matches this key by.
    pub fn principal_arn(&self) -> String {
        match &self.user {
            Some(user) => format!("arn:aws:iam::{}:user/{user}", self.account_id),
            None => format!("arn:aws:iam::{}:root", self.account_id),
        }
    }
}

/// Never prints the secret (configs get logged and printed in errors).
impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credential")
            .field("access_key_id", &self.access_key_id)
            .field("account_id", &self.account_id)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// One `[[credentials]]` table.
pub(super) fn parse(src: &Source, node: &Node, table: &Table) -> Result<Credential, ConfigError> {
    let mut c = Credential::new("", "", "");
    for e in &table.entries {
        match e.key.as_str() {
            "access_key_id" => c.access_key_id = src.string(e)?,
            "secret_access_key" => c.secret_access_key = src.string(e)?,
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
