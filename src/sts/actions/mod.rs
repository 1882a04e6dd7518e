//! The STS `Action` hub: one typed variant per operation sqslite serves, decoded once from the
//! form and dispatched by one `match`; each family file holds its operation's input (its wire
//! form and the request validator's checks), logic and XML output.
//!
//! Who may run each: GetCallerIdentity anyone signed (AWS needs no permission for it);
//! AssumeRole whoever the role's trust policy admits (the engine decides, [`crate::sts::engine`]);
//! GetSessionToken any caller with long-term keys, for itself. None acts on a resource
//! another account owns but the role, so no other check applies.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]

pub mod assume;
pub mod identity;
pub mod session;

use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::engine::Caller;
use super::error::StsResult;
use super::protocol::{unknown_action, Form, Xml};
use super::Service;
use crate::http::Context;

/// Decoding one operation's input: the shared Query deserializer reads its wire form (every
/// member optional), then the request validator's rules are checked and reported together.
pub trait Decode: Sized {
    /// The input as it travels.
    type Wire: DeserializeOwned;

    /// The input, or STS's ValidationError listing what is wrong.
    fn check(wire: Self::Wire) -> StsResult<Self>;
}

/// An input decoded from the request's form and checked.
fn decode<T: Decode>(form: &Form) -> StsResult<T> {
    T::check(form.decode()?)
}

/// Declares STS's `Action` enum, its decoding by name and its dispatch, from one list.
macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident;)*) => {
        /// Every STS operation sqslite serves, with its decoded input.
        #[derive(Debug)]
        pub enum Action {
            $(
                #[doc = concat!("`", stringify!($name), "`.")]
                $name($module::$name)
            ),*
        }

        impl Action {
            /// The operations' names, as the router counts and logs them.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The operation `name` with its input from `form`.
            pub fn decode(name: &str, form: &Form) -> StsResult<Action> {
                match name {
                    $(stringify!($name) => Ok(Action::$name(decode(form)?)),)*
                    _ => Err(unknown_action(name)),
                }
            }

            /// The operation's name.
            #[cfg(test)]
            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// Runs the operation for the caller; its result members as XML.
            pub fn apply(self, app: &Service, ctx: &Context) -> StsResult<Xml> {
                let caller = caller(app, ctx);
                match self {
                    $(Action::$name(input) => $module::$func(&input, app, &caller)),*
                }
            }
        }
    };
}

actions! {
    GetCallerIdentity => identity::get_caller_identity;
    AssumeRole => assume::assume_role;
    GetSessionToken => session::get_session_token;
}

/// Who calls, by the request's one reading of its caller: the verified principal (a declared
/// key's, or a temporary key's); else a signed key as an IAM user of its account
/// ([`crate::http::auth::principal::unverified`]); else, unsigned, the account's root.
pub fn caller(app: &Service, ctx: &Context) -> Caller {
    match (&ctx.principal, &ctx.unverified) {
        (Some(p), _) => Caller {
            account: p.account.clone(),
            arn: p.arn.clone(),
            user_id: p.sender_id.clone(),
            temporary: app.sts.sessions.issued(&p.access_key_id),
        },
        (None, Some(c)) => Caller {
            account: c.account.clone(),
            arn: c.arn.clone(),
            user_id: c.sender_id.clone(),
            temporary: false,
        },
        (None, None) => Caller {
            account: ctx.account.clone(),
            arn: ctx.caller_arn().into_owned(),
            user_id: Arc::from(ctx.account.as_str()),
            temporary: false,
        },
    }
}

/// A key's members as AWS's `Credentials` shape writes them.
fn credentials(xml: &mut Xml, key: &crate::http::auth::TemporaryKey) {
    xml.open("Credentials")
        .text("AccessKeyId", &key.principal.access_key_id)
        .text("SecretAccessKey", &key.secret_access_key)
        .text("SessionToken", &key.session_token)
        .text("Expiration", &iso8601(key.expires_at))
        .close("Credentials");
}

/// `2019-11-09T13:34:41Z`, as STS writes an Expiration.
fn iso8601(millis: crate::clock::Millis) -> String {
    let at = i64::try_from(millis / 1000)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

#[cfg(test)]
mod decode_tests;
