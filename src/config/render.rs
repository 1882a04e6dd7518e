//! The effective configuration written back as `sqslite.toml` text (`--print-config`).

use toml::{Table, Value};

use super::{ClockKind, Config, QueueDecl, UrlStyle};

pub fn to_toml(config: &Config) -> String {
    let mut root = Table::new();
    root.insert("server".into(), server(config).into());
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
    if config.outbound != super::OutboundConfig::default() {
        if let Ok(outbound) = Value::try_from(&config.outbound) {
            root.insert("outbound".into(), outbound);
        }
    }
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
    let credentials: Vec<Value> = config.credentials.iter().map(credential).collect();
    if !credentials.is_empty() {
        root.insert("credentials".into(), credentials.into());
    }
    super::triggers::render(&config.triggers, &mut root);
    toml::to_string(&root).unwrap_or_else(|e| format!("# cannot render: {e}\n"))
}

/// The `[server]` table: where it listens, its URLs, clock and limits.
fn server(config: &Config) -> Table {
    let mut server = Table::new();
    server.insert("host".into(), config.host.clone().into());
    server.insert("port".into(), i64::from(config.port).into());
    server.insert("region".into(), config.region.clone().into());
    server.insert("account_id".into(), config.account_id.clone().into());
    if let Some(url) = &config.public_url {
        server.insert("public_url".into(), url.clone().into());
    }
    let style = match config.url_style {
        UrlStyle::Host => "host",
        UrlStyle::Path => "path",
        UrlStyle::Region => "region",
    };
    server.insert("url_style".into(), style.into());
    let clock = match config.clock {
        ClockKind::System => "system",
        ClockKind::Manual => "manual",
    };
    server.insert("clock".into(), clock.into());
    server.insert("auto_create".into(), config.auto_create.into());
    server.insert("max_queues".into(), Value::from(config.max_queues as i64));
    let sns = &config.sns_limits;
    for (key, n) in [
        ("max_topics", sns.topics),
        ("max_fifo_topics", sns.fifo_topics),
        ("max_subscriptions_per_topic", sns.subscriptions_per_topic),
    ] {
        server.insert(key.into(), Value::from(n as i64));
    }
    server.insert("strict".into(), config.strict.into());
    // The admin token is a secret: never printed.
    let access = &config.access;
    server.insert("allow_hosts".into(), access.allow_hosts.clone().into());
    server.insert("allow_origins".into(), access.allow_origins.clone().into());
    server.insert(
        "admin_allow_origins".into(),
        access.admin_origins.clone().into(),
    );
    if access.require_admin_token {
        server.insert("admin_require_token".into(), true.into());
    }
    if let Some(on) = access.metrics {
        server.insert("metrics".into(), on.into());
    }
    let limits = &config.connections;
    let secs = |d: std::time::Duration| Value::from(d.as_secs_f64());
    server.insert("header_timeout_seconds".into(), secs(limits.header_timeout));
    server.insert("idle_timeout_seconds".into(), secs(limits.idle_timeout));
    let cap = limits
        .max_connections
        .unwrap_or_else(crate::http::server::default_max_connections);
    server.insert("max_connections".into(), Value::from(cap as i64));
    server.insert(
        "shutdown_timeout_seconds".into(),
        secs(limits.shutdown_timeout),
    );
    server
}

/// Written with its secret, so the output stays a working config file.
fn credential(c: &super::Credential) -> Value {
    let mut t = Table::new();
    t.insert("access_key_id".into(), c.access_key_id.clone().into());
    t.insert(
        "secret_access_key".into(),
        c.secret_access_key.clone().into(),
    );
    t.insert("account_id".into(), c.account_id.clone().into());
    if let Some(user) = &c.user {
        t.insert("user".into(), user.clone().into());
    }
    t.into()
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
