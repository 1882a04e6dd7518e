//! The effective configuration written back as `sqslite.toml` text (`--print-config`).

use toml::{Table, Value};

use super::settings::{self, Secrets, Section};
use super::{Config, QueueDecl};

pub fn to_toml(config: &Config, secrets: Secrets) -> String {
    let mut root = Table::new();
    root.insert(
        "server".into(),
        settings::render(Section::Server, config, secrets).into(),
    );
    let queues: Vec<Value> = config
        .queues
        .iter()
        .map(|q| queue(q, "name", &q.name))
        .collect();
    if !queues.is_empty() {
        root.insert("queues".into(), queues.into());
    }
    let templates: Vec<Value> = config
        .templates
        .iter()
        .map(|t| queue(&t.queue, "prefix", &t.prefix))
        .collect();
    if !templates.is_empty() {
        root.insert("templates".into(), templates.into());
    }
    let topics: Vec<Value> = config.topics.iter().map(topic).collect();
    if !topics.is_empty() {
        root.insert("topics".into(), topics.into());
    }
    // Only a given `[alarms]` is printed: its presence is what makes transitions log at
    // info, so printing the defaults would change a re-read configuration.
    if config.admin.alarms.configured {
        if let Ok(alarms) = Value::try_from(&config.admin.alarms) {
            root.insert("alarms".into(), alarms);
        }
    }
    settings_tables(config, secrets, &mut root);
    if let Ok(advisor) = Value::try_from(&config.advisor) {
        root.insert("advisor".into(), advisor);
    }
    let faults: Vec<Value> = config
        .admin
        .faults
        .iter()
        .filter_map(|f| Value::try_from(f).ok())
        .collect();
    if !faults.is_empty() {
        root.insert("faults".into(), faults.into());
    }
    let credentials: Vec<Value> = config
        .credentials
        .iter()
        .map(|c| credential(c, secrets))
        .collect();
    if !credentials.is_empty() {
        root.insert("credentials".into(), credentials.into());
    }
    let roles: Vec<Value> = config.roles.iter().map(role).collect();
    if !roles.is_empty() {
        root.insert("roles".into(), roles.into());
    }
    super::triggers::render(&config.triggers, &mut root);
    toml::to_string(&root).unwrap_or_else(|e| format!("# cannot render: {e}\n"))
}

fn credential(c: &super::Credential, secrets: Secrets) -> Value {
    let mut t = Table::new();
    t.insert("access_key_id".into(), c.access_key_id.clone().into());
    let secret = secrets.show(&c.secret_access_key);
    t.insert("secret_access_key".into(), secret.into());
    t.insert("account_id".into(), c.account_id.clone().into());
    if let Some(user) = &c.user {
        t.insert("user".into(), user.clone().into());
    }
    t.into()
}

/// The trust policy as the text it was given (a table read from TOML was made JSON text).
fn role(r: &super::Role) -> Value {
    let mut t = Table::new();
    t.insert("name".into(), r.name.clone().into());
    t.insert("account_id".into(), r.account_id.clone().into());
    if let Some(policy) = &r.trust_policy {
        t.insert("trust_policy".into(), policy.clone().into());
    }
    t.insert(
        "max_session_duration".into(),
        i64::from(r.max_session_duration).into(),
    );
    t.into()
}

/// `[outbound]` when it holds anything, and `[delivery]` when it is not the default (so a
/// printed exact configuration reads as it always did).
fn settings_tables(config: &Config, secrets: Secrets, root: &mut Table) {
    let outbound = settings::render(Section::Outbound, config, secrets);
    if !outbound.is_empty() {
        root.insert("outbound".into(), outbound.into());
    }
    if config.delivery != super::DeliverySettings::default() {
        let delivery = settings::render(Section::Delivery, config, secrets);
        root.insert("delivery".into(), delivery.into());
    }
}

fn queue(q: &QueueDecl, name_key: &str, name: &str) -> Value {
    let mut t = Table::new();
    t.insert(name_key.into(), name.into());
    if let Some(region) = &q.region {
        t.insert("region".into(), region.clone().into());
    }
    if let Some(account) = &q.account_id {
        t.insert("account_id".into(), account.clone().into());
    }
    for (k, v) in &q.attributes {
        t.insert(k.clone(), typed(v));
    }
    if let Some(dl) = &q.dead_letter {
        t.insert("dead_letter_queue".into(), dl.target.clone().into());
        t.insert(
            "max_receive_count".into(),
            i64::from(dl.max_receive_count).into(),
        );
    }
    if !q.tags.is_empty() {
        t.insert("tags".into(), string_table(&q.tags));
    }
    if let Some(mode) = q.delivery {
        t.insert("delivery".into(), mode.as_str().into());
    }
    t.into()
}

fn topic(d: &crate::sns::declare::TopicDecl) -> Value {
    let mut t = Table::new();
    t.insert("name".into(), d.name.clone().into());
    for (key, value) in [("region", &d.region), ("account_id", &d.account_id)] {
        if let Some(v) = value {
            t.insert(key.into(), v.clone().into());
        }
    }
    for (k, v) in &d.attributes {
        t.insert(k.clone(), typed(v));
    }
    if !d.tags.is_empty() {
        t.insert("tags".into(), string_table(&d.tags));
    }
    let subs: Vec<Value> = d
        .subscriptions
        .iter()
        .map(|s| {
            let mut t = Table::new();
            t.insert("protocol".into(), s.protocol.clone().into());
            t.insert("endpoint".into(), s.endpoint.clone().into());
            if let Some(dlq) = &s.dead_letter_queue {
                t.insert("dead_letter_queue".into(), dlq.clone().into());
            }
            for (k, v) in &s.attributes {
                t.insert(k.clone(), typed(v));
            }
            Value::from(t)
        })
        .collect();
    if !subs.is_empty() {
        t.insert("subscriptions".into(), subs.into());
    }
    t.into()
}

fn string_table(map: &std::collections::BTreeMap<String, String>) -> Value {
    map.iter()
        .map(|(k, v)| (k.clone(), Value::from(v.clone())))
        .collect::<Table>()
        .into()
}

/// Numbers and booleans are shown typed, as a user would write them.
fn typed(v: &str) -> Value {
    match v {
        "true" => true.into(),
        "false" => false.into(),
        _ => v.parse::<i64>().map_or_else(|_| v.into(), Value::from),
    }
}
