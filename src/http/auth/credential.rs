//! An access key the server accepts, and the account (and IAM user) it acts as.

/// One access key. With any configured, every SQS request must carry a valid Signature V4
/// made with one of them, and acts as that key's account.
#[derive(Clone, PartialEq, Eq)]
pub struct Credential {
    /// The key's id, as a client sends it in the SigV4 `Credential=` scope.
    pub access_key_id: String,
    /// The secret the signature is checked with; never logged, printed only by
    /// `--print-config --with-secrets`.
    pub secret_access_key: String,
    /// The 12-digit account the key acts as: its queues, its URLs, its policy principal.
    pub account_id: String,
    /// An IAM user name, so queue policies can name `arn:aws:iam::<account>:user/<user>`;
    /// without one the key is the account's root principal.
    pub user: Option<String>,
}

impl Credential {
    /// A key acting as `account_id`'s root principal (no IAM user).
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
