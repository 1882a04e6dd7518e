//! The SNS `Action` hub: one typed variant per SNS operation, decoded once from the form
//! and dispatched by one `match`; each family file holds its operations' input (its wire
//! form and the checks after decoding), logic and XML output.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]

pub mod access;
pub mod by_service;
pub mod confirm;
pub mod data_protection;
pub mod deliver;
pub mod http;
pub mod message;
pub mod permissions;
pub mod publish;
pub mod subscriptions;
pub mod topics;
pub mod wire;

use serde::de::DeserializeOwned;

use crate::http::Context;
use crate::sns::engine::Owner;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::protocol::Form;
use crate::sns::Service;

/// Decoding one operation's input: the shared Query deserializer reads its wire form, then
/// the rules serde cannot express are checked ([`wire`]), in the order SNS checks them. SNS
/// refuses a missing or malformed ARN before any other member, so the members after an ARN
/// travel as `Option`s and are required by the check, not by serde.
pub trait Decode: Sized {
    /// The input as it travels.
    type Wire: DeserializeOwned;

    /// The input, or SNS's error for a missing or bad member.
    fn check(wire: Self::Wire) -> SnsResult<Self>;
}

/// Inputs that decode as they travel, with nothing left to check.
macro_rules! as_sent {
    ($($input:ty),*) => {$(
        impl $crate::sns::actions::Decode for $input {
            type Wire = Self;

            fn check(wire: Self) -> $crate::sns::error::SnsResult<Self> {
                Ok(wire)
            }
        }
    )*};
}
use as_sent;

/// An input decoded from the request's form and checked.
fn decode<T: Decode>(form: &Form) -> SnsResult<T> {
    T::check(form.decode()?)
}

/// Declares SNS's `Action` enum, its decoding by name, who may run each operation
/// ([`access`]: the rule, and the IAM action when it is not the operation's own name) and
/// the dispatching `match` that checks it first, from one list.
macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident, $rule:ident $(as $iam:ident)?;)*) => {
        /// Every SNS operation sqslite serves, with its decoded input.
        #[derive(Debug)]
        pub enum Action {
            $($name($module::$name)),*
        }

        impl Action {
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// Each operation with its access rule and its IAM action.
            pub const ACCESS: &'static [(&'static str, &'static str, &'static str)] =
                &[$((stringify!($name), stringify!($rule), iam!($name $($iam)?))),*];

            pub fn decode(name: &str, form: &Form) -> SnsResult<Action> {
                match name {
                    $(stringify!($name) => Ok(Action::$name(decode(form)?)),)*
                    _ => Err(unknown_action(name)),
                }
            }

            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// The operation's access rule, its IAM action and the ARN its input names.
            pub fn access(&self) -> (access::Access, &'static str, Option<&str>) {
                match self {
                    $(Action::$name(input) => (
                        access::Access::$rule,
                        iam!($name $($iam)?),
                        access::Resource::resource(input),
                    )),*
                }
            }

            /// Checks that the caller may run the action, then runs it; its result members as
            /// XML.
            pub async fn apply(self, app: &Service, ctx: &Context) -> SnsResult<Xml> {
                let (rule, iam, resource) = self.access();
                access::check(app, ctx, (rule, iam), resource)?;
                match self {
                    $(Action::$name(input) => $module::$func(input, app, ctx).await),*
                }
            }
        }
    };
}

/// An operation's IAM action: its own name unless the list names another.
macro_rules! iam {
    ($name:ident) => {
        stringify!($name)
    };
    ($name:ident $iam:ident) => {
        stringify!($iam)
    };
}

actions! {
    CreateTopic => topics::create_topic, Own;
    GetTopicAttributes => topics::get_topic_attributes, Topic;
    SetTopicAttributes => topics::set_topic_attributes, Topic;
    ListTopics => topics::list_topics, Own;
    DeleteTopic => topics::delete_topic, Topic;
    TagResource => topics::tag_resource, Topic;
    UntagResource => topics::untag_resource, Topic;
    ListTagsForResource => topics::list_tags_for_resource, Topic;
    AddPermission => permissions::add_permission, Topic;
    RemovePermission => permissions::remove_permission, Topic;
    Subscribe => subscriptions::subscribe, Topic;
    ConfirmSubscription => confirm::confirm_subscription, Token;
    Unsubscribe => subscriptions::unsubscribe, Unsubscribe;
    ListSubscriptions => subscriptions::list_subscriptions, Own;
    ListSubscriptionsByTopic => subscriptions::list_subscriptions_by_topic, Topic;
    GetSubscriptionAttributes => subscriptions::get_subscription_attributes, Subscription;
    SetSubscriptionAttributes => subscriptions::set_subscription_attributes, Subscription;
    Publish => publish::publish, Topic;
    PublishBatch => publish::publish_batch, Topic as Publish;
    PutDataProtectionPolicy => data_protection::put_data_protection_policy, Topic;
    GetDataProtectionPolicy => data_protection::get_data_protection_policy, Topic;
}

/// An action SNS has that sqslite does not serve yet, or none at all: AWS Query's
/// generic refusal, naming the action.
pub fn unknown_action(name: &str) -> SnsError {
    SnsError::new(
        SnsErrorKind::InvalidAction,
        format!("The action {name} is not valid for this web service."),
    )
}

/// The caller's region and account, which own the topics it creates and lists.
pub fn owner(ctx: &Context) -> Owner<'_> {
    Owner {
        region: &ctx.region,
        account: &ctx.account,
    }
}

/// A topic of another region than the caller's is refused before it is looked up (recorded
/// for Publish, PublishBatch, Get/SetTopicAttributes, Subscribe, ListSubscriptionsByTopic and
/// DeleteTopic: "Invalid parameter: TopicArn").
pub fn in_region(ctx: &Context, topic_arn: &str) -> SnsResult<()> {
    match crate::sns::engine::parse_topic_arn(topic_arn, "TopicArn") {
        Ok((region, _, _)) if region != ctx.region => Err(SnsError::invalid("TopicArn")),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod decode_tests;
