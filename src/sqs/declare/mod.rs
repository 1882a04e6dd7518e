//! Creating queues from declarations through CreateQueue's own engine path: every declared
//! queue before the first request (dead-letter queues before their sources), and queues
//! created on first use (`--auto-create`, `[[templates]]`).

use std::collections::{BTreeMap, HashMap};

use serde_json::json;

mod decl;

use crate::clock::Millis;
use crate::sqs::actions::{Action, Sqs};
use crate::sqs::engine::arn::{self, QueueKey};
use crate::sqs::engine::attributes::QueueAttributes;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;
use crate::sqs::error::SqsResult;
use crate::sqs::protocol::Context;
pub use decl::{DeadLetter, Plan, QueueDecl, QueueTemplate};

/// Creates every declared queue; the message names the declaration that failed and why.
pub fn declare_all(registry: &Registry, config: &Plan<'_>, now: Millis) -> Result<(), String> {
    check_templates(config)?;
    let keys: Vec<QueueKey> = config.queues.iter().map(|q| key_of(config, q)).collect();
    for i in creation_order(config, &keys)? {
        let decl = &config.queues[i];
        create(registry, decl, &keys[i], now).map_err(|e| describe(decl, &e.to_string()))?;
    }
    Ok(())
}

/// Before a SendMessage(Batch), ReceiveMessage or GetQueueUrl, creates its missing queue when
/// `auto_create` is on or a template's prefix matches the name.
pub fn on_first_use(sqs: &Sqs, config: &Plan<'_>, ctx: &Context, action: &Action) {
    if !config.auto_create && config.templates.is_empty() {
        return;
    }
    let creates = matches!(
        action,
        Action::SendMessage(_)
            | Action::SendMessageBatch(_)
            | Action::ReceiveMessage(_)
            | Action::GetQueueUrl(_)
    );
    let key = creates
        .then(|| action.target().and_then(|t| t.key(ctx)))
        .flatten();
    // Only in the caller's own account: a key must not fill another account's namespace.
    let Some(key) = key.filter(|k| k.account == ctx.account && sqs.registry.get(k).is_err()) else {
        return;
    };
    let template = config
        .templates
        .iter()
        .filter(|t| key.name.starts_with(&t.prefix))
        .max_by_key(|t| t.prefix.len());
    if template.is_none() && !config.auto_create {
        return;
    }
    let mut decl = template.map(|t| t.queue.clone()).unwrap_or_default();
    decl.name.clone_from(&key.name);
    // SQS's FIFO suffix is lower case only, so the comparison is too.
    if key.name.strip_suffix(".fifo").is_some() {
        decl.attributes
            .entry("FifoQueue".into())
            .or_insert_with(|| "true".into());
    }
    match create(&sqs.registry, &decl, &key, sqs.now()) {
        Ok(()) => tracing::info!(queue = %key, "created queue on first use"),
        // The action itself then answers QueueDoesNotExist, as SQS would.
        Err(e) => tracing::warn!(queue = %key, error = %e, "cannot create queue on first use"),
    }
}

fn create(registry: &Registry, decl: &QueueDecl, key: &QueueKey, now: Millis) -> SqsResult<()> {
    crate::sqs::engine::tags::check(&decl.tags, &key.name)?;
    let attributes = attributes_of(decl, key);
    let queue = match registry.get(key) {
        Ok(existing) => {
            reconcile(registry, &existing, attributes, &decl.tags, now)?;
            existing
        }
        Err(_) => registry.create(key.clone(), &attributes, decl.tags.clone(), now)?,
    };
    if decl.delivery.is_some() {
        registry.set_queue_delivery(&queue, decl.delivery)?;
    }
    Ok(())
}

/// A declared queue already there (recovered from the data directory): what the
/// configuration declares wins, so an edited file takes effect at the next start; the
/// messages, and attributes and tags it does not name, stay as they are.
fn reconcile(
    registry: &Registry,
    queue: &Queue,
    mut attributes: BTreeMap<String, String>,
    tags: &BTreeMap<String, String>,
    now: Millis,
) -> SqsResult<()> {
    // A name ending in `.fifo` is FIFO, any other standard: the type cannot differ, and
    // SetQueueAttributes refuses FifoQueue itself.
    attributes.remove("FifoQueue");
    let unchanged = {
        let state = queue.lock_settled(now);
        tags.iter().all(|(k, v)| state.tags().get(k) == Some(v))
            && state.attributes().first_difference(&attributes).is_none()
    };
    if unchanged {
        return Ok(());
    }
    registry.set_attributes(queue, &attributes, now)?;
    if !tags.is_empty() {
        // Through TagQueue's own rules: stored and declared tags together keep the cap.
        queue.tag(tags.clone(), now)?;
    }
    tracing::info!(queue = %queue.key, "declared attributes and tags applied to the stored queue");
    Ok(())
}

fn key_of(config: &Plan<'_>, q: &QueueDecl) -> QueueKey {
    QueueKey::new(
        q.region.as_deref().unwrap_or(config.region),
        q.account_id.as_deref().unwrap_or(config.account_id),
        &q.name,
    )
}

/// The declared attributes plus the RedrivePolicy that `dead_letter` stands for.
fn attributes_of(decl: &QueueDecl, key: &QueueKey) -> BTreeMap<String, String> {
    let mut attributes = decl.attributes.clone();
    if let Some(dl) = &decl.dead_letter {
        let policy = json!({
            "deadLetterTargetArn": target_key(key, &dl.target).map_or_else(|| dl.target.clone(), |k| k.arn()),
            "maxReceiveCount": dl.max_receive_count,
        });
        attributes.insert("RedrivePolicy".into(), policy.to_string());
    }
    attributes
}

/// A dead-letter target by ARN, or by name in the source's own region and account.
fn target_key(source: &QueueKey, target: &str) -> Option<QueueKey> {
    if target.starts_with("arn:") {
        arn::parse(target)
    } else {
        Some(QueueKey::new(&source.region, &source.account, target))
    }
}

/// The queue a declaration's dead-letter wiring (by name, ARN or RedrivePolicy) points at.
fn dependency(decl: &QueueDecl, key: &QueueKey) -> Option<QueueKey> {
    if let Some(dl) = &decl.dead_letter {
        return target_key(key, &dl.target);
    }
    let policy: serde_json::Value =
        serde_json::from_str(decl.attributes.get("RedrivePolicy")?).ok()?;
    arn::parse(policy.get("deadLetterTargetArn")?.as_str()?)
}

/// Declaration indices with every dead-letter queue ahead of its sources.
fn creation_order(config: &Plan<'_>, keys: &[QueueKey]) -> Result<Vec<usize>, String> {
    let index: HashMap<&QueueKey, usize> = keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let mut deps = Vec::with_capacity(keys.len());
    for (decl, key) in config.queues.iter().zip(keys) {
        let dep = dependency(decl, key).and_then(|k| index.get(&k).copied());
        if let (Some(dl), None) = (&decl.dead_letter, dep) {
            if !dl.target.starts_with("arn:") {
                return Err(describe(
                    decl,
                    &format!(
                        "dead_letter_queue `{}` is not declared in this configuration",
                        dl.target
                    ),
                ));
            }
        }
        deps.push(dep);
    }
    // 0 = not placed, 1 = being placed (a second visit means a cycle), 2 = placed.
    let mut state = vec![0u8; keys.len()];
    let mut order = Vec::with_capacity(keys.len());
    for start in 0..keys.len() {
        let mut chain = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at.filter(|i| state[*i] != 2) {
            if state[i] == 1 {
                return Err(describe(
                    &config.queues[i],
                    "its dead-letter wiring forms a cycle",
                ));
            }
            state[i] = 1;
            chain.push(i);
            at = deps[i];
        }
        for i in chain.into_iter().rev() {
            state[i] = 2;
            order.push(i);
        }
    }
    Ok(order)
}

/// Template attributes are checked at startup, so a typo fails now rather than on first use.
fn check_templates(config: &Plan<'_>) -> Result<(), String> {
    for t in config.templates {
        let key = QueueKey::new(config.region, config.account_id, &t.prefix);
        let attributes = attributes_of(&t.queue, &key);
        let fifo = attributes.get("FifoQueue").is_some_and(|v| v == "true");
        QueueAttributes::new(fifo)
            .apply(&attributes, true)
            .and_then(|()| crate::sqs::engine::tags::check(&t.queue.tags, &t.prefix))
            .map_err(|e| describe(&t.queue, &e.to_string()))?;
    }
    Ok(())
}

fn describe(decl: &QueueDecl, problem: &str) -> String {
    match &decl.origin {
        Some(origin) => format!("{origin}: queue `{}`: {problem}", decl.name),
        None => format!("queue `{}`: {problem}", decl.name),
    }
}
