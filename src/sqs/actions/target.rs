//! Which queue a decoded action names: read from its typed input, once, so fault rules and
//! queues created on first use never parse a request again.

use super::Action;
use crate::sqs::engine::arn::{self, QueueKey};
use crate::sqs::protocol::Context;
use crate::sqs::protocol::QueueUrls;

/// How an action names its queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// A QueueUrl, in any URL style sqslite accepts.
    Url(&'a str),
    /// CreateQueue's and GetQueueUrl's QueueName, in the caller's region and in `owner`'s
    /// account (GetQueueUrl's QueueOwnerAWSAccountId) or else the caller's.
    Name {
        /// The QueueName.
        name: &'a str,
        /// The QueueOwnerAWSAccountId, when given and not empty.
        owner: Option<&'a str>,
    },
    /// A move task's SourceArn.
    Arn(&'a str),
}

impl Target<'_> {
    /// The queue named, `None` when the name cannot be one (a malformed URL or ARN).
    pub fn key(self, ctx: &Context) -> Option<QueueKey> {
        match self {
            Target::Url(url) => ctx.parse_queue_url(url),
            Target::Name { name, owner } => {
                let mut key = ctx.key(name);
                if let Some(owner) = owner {
                    owner.clone_into(&mut key.account);
                }
                Some(key)
            }
            Target::Arn(text) => arn::parse(text),
        }
    }
}

impl Action {
    /// The queue this action acts on; `None` for ListQueues and CancelMessageMoveTask (whose
    /// task handle names its source only inside an opaque token).
    pub fn target(&self) -> Option<Target<'_>> {
        use Target::{Arn, Name, Url};
        Some(match self {
            Action::CreateQueue(i) => Name {
                name: &i.queue_name,
                owner: None,
            },
            Action::GetQueueUrl(i) => Name {
                name: &i.queue_name,
                owner: i
                    .queue_owner_aws_account_id
                    .as_deref()
                    .filter(|o| !o.is_empty()),
            },
            Action::ListQueues(_) | Action::CancelMessageMoveTask(_) => return None,
            Action::DeleteQueue(i) => Url(&i.queue_url),
            Action::PurgeQueue(i) => Url(&i.queue_url),
            Action::GetQueueAttributes(i) => Url(&i.queue_url),
            Action::SetQueueAttributes(i) => Url(&i.queue_url),
            Action::TagQueue(i) => Url(&i.queue_url),
            Action::UntagQueue(i) => Url(&i.queue_url),
            Action::ListQueueTags(i) => Url(&i.queue_url),
            Action::AddPermission(i) => Url(&i.queue_url),
            Action::RemovePermission(i) => Url(&i.queue_url),
            Action::SendMessage(i) => Url(&i.queue_url),
            Action::SendMessageBatch(i) => Url(&i.queue_url),
            Action::ReceiveMessage(i) => Url(&i.queue_url),
            Action::DeleteMessage(i) => Url(&i.queue_url),
            Action::DeleteMessageBatch(i) => Url(&i.queue_url),
            Action::ChangeMessageVisibility(i) => Url(&i.queue_url),
            Action::ChangeMessageVisibilityBatch(i) => Url(&i.queue_url),
            Action::ListDeadLetterSourceQueues(i) => Url(&i.queue_url),
            Action::StartMessageMoveTask(i) => Arn(&i.source_arn),
            Action::ListMessageMoveTasks(i) => Arn(&i.source_arn),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sqs::protocol::Input;

    fn target_of(name: &str, json: &str) -> Option<Target<'static>> {
        let action = Action::decode(name, Input::Json(json.as_bytes())).unwrap();
        // Leaked so the borrowed target outlives the test's temporary action.
        Box::leak(Box::new(action)).target()
    }

    #[test]
    fn each_action_names_its_queue_as_its_input_does() {
        let url = r#"{"QueueUrl":"http://h/1/orders","MessageBody":"x"}"#;
        assert_eq!(
            target_of("SendMessage", url),
            Some(Target::Url("http://h/1/orders"))
        );
        let name = r#"{"QueueName":"jobs"}"#;
        let jobs = Target::Name {
            name: "jobs",
            owner: None,
        };
        assert_eq!(target_of("CreateQueue", name), Some(jobs));
        let owned = r#"{"QueueName":"jobs","QueueOwnerAWSAccountId":"000000000002"}"#;
        let theirs = Target::Name {
            name: "jobs",
            owner: Some("000000000002"),
        };
        assert_eq!(target_of("GetQueueUrl", owned), Some(theirs));
        let arn = r#"{"SourceArn":"arn:aws:sqs:r:1:dlq"}"#;
        assert_eq!(
            target_of("StartMessageMoveTask", arn),
            Some(Target::Arn("arn:aws:sqs:r:1:dlq"))
        );
        assert_eq!(target_of("ListQueues", "{}"), None);
    }

    #[test]
    fn a_target_is_read_as_the_queue_it_names() {
        let headers = hyper::HeaderMap::new();
        let config = crate::config::Config::default();
        let ctx = Context::new(&config.defaults(), &headers, "/", None, "rid".into());
        let name = |t: Target<'_>| t.key(&ctx).map(|k| k.name);
        assert_eq!(
            name(Target::Url("http://h/000000000000/orders")).as_deref(),
            Some("orders")
        );
        let jobs = Target::Name {
            name: "jobs",
            owner: Some("000000000002"),
        };
        let key = jobs.key(&ctx).unwrap();
        assert_eq!(
            (key.name.as_str(), key.account.as_str()),
            ("jobs", "000000000002")
        );
        assert_eq!(
            name(Target::Arn("arn:aws:sqs:r:000000000001:dlq")).as_deref(),
            Some("dlq")
        );
        assert_eq!(name(Target::Arn("not-an-arn")), None);
    }
}
