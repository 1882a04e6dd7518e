//! The SNS `Action` hub: one typed variant per SNS operation, decoded once from the form
//! and dispatched by one `match`; each family file holds its operations' input decoding,
//! logic and XML output.
// Request and response types are read field by field against AWS's API reference.
#![warn(clippy::missing_docs_in_private_items)]

pub mod confirm;
pub mod data_protection;
pub mod deliver;
pub mod http;
pub mod permissions;
pub mod publish;
pub mod subscriptions;
pub mod topics;

use crate::protocol::Context;
use crate::sns::engine::Owner;
use crate::sns::error::{SnsError, SnsErrorKind, SnsResult};
use crate::sns::protocol::xml::Xml;
use crate::sns::protocol::Form;
use crate::sns::Service;

/// Decoding one operation's input from its form parameters.
pub trait Decode: Sized {
    /// The input, or SNS's error for a missing or bad parameter.
    fn decode(form: &Form) -> SnsResult<Self>;
}

/// Declares SNS's `Action` enum, its decoding by name and its dispatching `match`, from one list.
macro_rules! actions {
    ($($name:ident => $module:ident :: $func:ident),* $(,)?) => {
        /// Every SNS operation sqslite serves, with its decoded input.
        #[derive(Debug)]
        pub enum Action {
            $($name($module::$name)),*
        }

        impl Action {
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            pub fn decode(name: &str, form: &Form) -> SnsResult<Action> {
                match name {
                    $(stringify!($name) => Ok(Action::$name(Decode::decode(form)?)),)*
                    _ => Err(unknown_action(name)),
                }
            }

            pub fn name(&self) -> &'static str {
                match self {
                    $(Action::$name(_) => stringify!($name)),*
                }
            }

            /// Runs the action; its result members as XML.
            pub async fn apply(self, app: &Service, ctx: &Context) -> SnsResult<Xml> {
                match self {
                    $(Action::$name(input) => $module::$func(input, app, ctx).await),*
                }
            }
        }
    };
}

actions! {
    CreateTopic => topics::create_topic,
    GetTopicAttributes => topics::get_topic_attributes,
    SetTopicAttributes => topics::set_topic_attributes,
    ListTopics => topics::list_topics,
    DeleteTopic => topics::delete_topic,
    TagResource => topics::tag_resource,
    UntagResource => topics::untag_resource,
    ListTagsForResource => topics::list_tags_for_resource,
    AddPermission => permissions::add_permission,
    RemovePermission => permissions::remove_permission,
    Subscribe => subscriptions::subscribe,
    ConfirmSubscription => confirm::confirm_subscription,
    Unsubscribe => subscriptions::unsubscribe,
    ListSubscriptions => subscriptions::list_subscriptions,
    ListSubscriptionsByTopic => subscriptions::list_subscriptions_by_topic,
    GetSubscriptionAttributes => subscriptions::get_subscription_attributes,
    SetSubscriptionAttributes => subscriptions::set_subscription_attributes,
    Publish => publish::publish,
    PublishBatch => publish::publish_batch,
    PutDataProtectionPolicy => data_protection::put_data_protection_policy,
    GetDataProtectionPolicy => data_protection::get_data_protection_policy,
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

/// A topic ARN member, checked for shape (SNS: `Invalid parameter: TopicArn`).
pub fn topic_arn(form: &Form, member: &str) -> SnsResult<String> {
    let arn = form.required_arn(member)?;
    crate::sns::engine::parse_topic_arn(&arn, member)?;
    Ok(arn)
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

/// With credentials configured, a signed caller may Publish or Subscribe to another
/// account's topic only when that topic's Policy allows it (its own account always may).
pub fn authorize(app: &Service, ctx: &Context, topic_arn: &str, operation: &str) -> SnsResult<()> {
    let Some(principal) = &ctx.principal else {
        return Ok(());
    };
    app.sns.authorize(
        topic_arn,
        &crate::sns::engine::access::Access {
            account: &principal.account,
            arn: &principal.arn,
            operation,
            now: app.now(),
        },
    )
}
