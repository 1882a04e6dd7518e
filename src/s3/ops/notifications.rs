//! Put/GetBucketNotificationConfiguration, and the events the writes and deletes send
//! ([`crate::s3::notify`]).

use s3s::dto::{
    Event, FilterRule, FilterRuleName, GetBucketNotificationConfigurationInput,
    GetBucketNotificationConfigurationOutput, LambdaFunctionConfiguration,
    NotificationConfiguration, NotificationConfigurationFilter,
    PutBucketNotificationConfigurationInput, PutBucketNotificationConfigurationOutput,
    QueueConfiguration, S3KeyFilter, TopicConfiguration,
};
use s3s::{S3ErrorCode, S3Request, S3Response, S3Result};

use super::{call, Ops};
use crate::s3::call::Call;
use crate::s3::engine::notifications::{Destination, Rule};
use crate::s3::engine::Bucket;
use crate::s3::error::{error, refused};
use crate::s3::notify::record;

/// A rule's prefix and suffix from its filter: at most one of each.
fn filter_of(
    filter: Option<NotificationConfigurationFilter>,
) -> S3Result<(Option<String>, Option<String>)> {
    let rules = filter
        .and_then(|f| f.key)
        .and_then(|k| k.filter_rules)
        .unwrap_or_default();
    let (mut prefix, mut suffix) = (None, None);
    for rule in rules {
        let name = rule
            .name
            .as_ref()
            .map(FilterRuleName::as_str)
            .unwrap_or_default();
        let slot = match name.to_ascii_lowercase().as_str() {
            "prefix" => &mut prefix,
            "suffix" => &mut suffix,
            _ => {
                return Err(error(
                    S3ErrorCode::InvalidArgument,
                    "filter rule name must be either prefix or suffix",
                ))
            }
        };
        if slot.replace(rule.value.unwrap_or_default()).is_some() {
            return Err(error(
                S3ErrorCode::InvalidArgument,
                "Cannot specify more than one prefix rule in a filter.",
            ));
        }
    }
    Ok((prefix, suffix))
}

/// One rule from a configuration's entry.
fn rule(
    id: Option<String>,
    destination: Destination,
    events: Vec<Event>,
    filter: Option<NotificationConfigurationFilter>,
) -> S3Result<Rule> {
    let (prefix, suffix) = filter_of(filter)?;
    Ok(Rule {
        id: id.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
        destination,
        events: events.into_iter().map(String::from).collect(),
        prefix,
        suffix,
    })
}

/// The rules of a configuration, queues, topics and functions alike.
fn rules_of(config: NotificationConfiguration) -> S3Result<Vec<Rule>> {
    let mut rules = Vec::new();
    for q in config.queue_configurations.unwrap_or_default() {
        rules.push(rule(
            q.id,
            Destination::Queue(q.queue_arn),
            q.events,
            q.filter,
        )?);
    }
    for t in config.topic_configurations.unwrap_or_default() {
        rules.push(rule(
            t.id,
            Destination::Topic(t.topic_arn),
            t.events,
            t.filter,
        )?);
    }
    for f in config.lambda_function_configurations.unwrap_or_default() {
        let destination = Destination::Function(f.lambda_function_arn);
        rules.push(rule(f.id, destination, f.events, f.filter)?);
    }
    Ok(rules)
}

/// A rule's filter as S3 returns it.
fn filter(rule: &Rule) -> Option<NotificationConfigurationFilter> {
    let named = |name: &'static str, value: &Option<String>| {
        value.as_ref().map(|v| FilterRule {
            name: Some(FilterRuleName::from_static(name)),
            value: Some(v.clone()),
        })
    };
    let rules: Vec<FilterRule> = [named("prefix", &rule.prefix), named("suffix", &rule.suffix)]
        .into_iter()
        .flatten()
        .collect();
    (!rules.is_empty()).then_some(NotificationConfigurationFilter {
        key: Some(S3KeyFilter {
            filter_rules: Some(rules),
        }),
    })
}

impl Ops {
    pub(super) async fn put_bucket_notification_configuration(
        &self,
        req: S3Request<PutBucketNotificationConfigurationInput>,
    ) -> S3Result<S3Response<PutBucketNotificationConfigurationOutput>> {
        let request_id = call(&req)?.request_id.clone();
        let input = req.input;
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let rules = rules_of(input.notification_configuration)?;
        crate::s3::engine::notifications::check(&rules).map_err(refused)?;
        let now = self.clock.now();
        if !input.skip_destination_validation.unwrap_or(false) {
            self.notifier.check(&bucket, &rules, now)?;
        }
        bucket.set_notifications(rules.clone()).map_err(refused)?;
        self.notifier.test(&bucket, &rules, &request_id, now);
        Ok(S3Response::new(
            PutBucketNotificationConfigurationOutput::default(),
        ))
    }

    pub(super) async fn get_bucket_notification_configuration(
        &self,
        req: S3Request<GetBucketNotificationConfigurationInput>,
    ) -> S3Result<S3Response<GetBucketNotificationConfigurationOutput>> {
        let bucket = self.store.bucket(&req.input.bucket).map_err(refused)?;
        let mut output = GetBucketNotificationConfigurationOutput::default();
        let (mut queues, mut topics, mut functions) = (Vec::new(), Vec::new(), Vec::new());
        for rule in bucket.notifications().map_err(refused)?.iter() {
            let (id, events) = (
                Some(rule.id.clone()),
                rule.events.iter().cloned().map(Event::from).collect(),
            );
            match &rule.destination {
                Destination::Queue(arn) => queues.push(QueueConfiguration {
                    events,
                    filter: filter(rule),
                    id,
                    queue_arn: arn.clone(),
                }),
                Destination::Topic(arn) => topics.push(TopicConfiguration {
                    events,
                    filter: filter(rule),
                    id,
                    topic_arn: arn.clone(),
                }),
                Destination::Function(arn) => functions.push(LambdaFunctionConfiguration {
                    events,
                    filter: filter(rule),
                    id,
                    lambda_function_arn: arn.clone(),
                }),
            }
        }
        output.queue_configurations = (!queues.is_empty()).then_some(queues);
        output.topic_configurations = (!topics.is_empty()).then_some(topics);
        output.lambda_function_configurations = (!functions.is_empty()).then_some(functions);
        Ok(S3Response::new(output))
    }

    /// Sends the event `name` on `key` (a created object's size and ETag with it) to the
    /// destinations `bucket`'s rules name.
    pub(super) fn notify(
        &self,
        bucket: &Bucket,
        call: &Call,
        (name, key): (&'static str, &str),
        created: Option<(u64, &str)>,
    ) {
        let event = record::Event {
            name,
            key,
            created,
            principal: &call.principal,
            source_ip: call.peer,
            request_id: &call.request_id,
            region: &call.region,
            time: self.clock.now(),
        };
        self.notifier.emit(bucket, &event);
    }
}
