//! Temporary credentials: the keys a token service (STS) issues, which every service accepts
//! beside the declared `[[credentials]]`. The auth floor defines what it needs of them and
//! looks them up through [`TemporaryKeys`]; the service that issues them implements it and
//! the composition root hands it in, so this floor never imports a service.

use std::sync::Arc;

use super::{Credential, Principal};
use crate::clock::Millis;

/// One issued key: what a request signed with it must carry and whom it acts as.
#[derive(Clone, PartialEq, Eq)]
pub struct TemporaryKey {
    /// The secret the request's signature is checked with.
    pub secret_access_key: String,
    /// What `X-Amz-Security-Token` must say: a forged or another key's token is refused.
    pub session_token: String,
    /// Whom requests signed with it act as (an assumed role's session, or the caller of
    /// GetSessionToken), its `access_key_id` the temporary key's.
    pub principal: Principal,
    /// When it stops working, on the server's clock.
    pub expires_at: Millis,
}

/// Never prints the secret or the token (they would end up in logs).
impl std::fmt::Debug for TemporaryKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TemporaryKey")
            .field("principal", &self.principal)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

/// Where the auth floor finds a temporary key by its access key id.
pub trait TemporaryKeys: Send + Sync {
    /// The key issued under `access_key_id`, expired or not (an expired one is refused as
    /// `ExpiredToken`, an unknown one as `InvalidClientTokenId`).
    fn find(&self, access_key_id: &str) -> Option<Arc<TemporaryKey>>;
}

/// Every key a request may be signed with: the declared ones and the issued ones.
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    /// `[[credentials]]`; none declared means nothing is verified.
    pub declared: &'a [Credential],
    /// The token service's issued keys.
    pub temporary: &'a dyn TemporaryKeys,
}
