//! Unit tests of settings.rs.

use super::{find, render, Secrets, Section, SETTINGS};
use crate::config::Config;

#[test]
fn every_flag_variable_and_key_is_written_once() {
    let mut seen = std::collections::HashSet::new();
    for s in SETTINGS {
        assert!(seen.insert((s.section.name(), s.key)), "{s:?}");
        for name in [s.flag, s.env].into_iter().flatten() {
            assert!(seen.insert(("cli", name)), "{s:?}: {name} twice");
        }
        assert!(s.env.is_none_or(|e| e.starts_with("SQSLITE_")), "{s:?}");
    }
}

/// The guide's configuration table is [`super::reference`]'s; `SQSLITE_BLESS=1` rewrites it.
#[test]
fn the_guide_lists_every_setting() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/configuration.md");
    let page = std::fs::read_to_string(path).unwrap();
    let (begin, end) = ("<!-- settings:begin -->\n", "<!-- settings:end -->");
    let start = page
        .find(begin)
        .expect("the configuration page has the settings markers")
        + begin.len();
    let stop = page
        .find(end)
        .expect("the configuration page has the settings end marker");
    let wanted = super::reference();
    if std::env::var_os("SQSLITE_BLESS").is_some() {
        let blessed = format!("{}{wanted}{}", &page[..start], &page[stop..]);
        std::fs::write(path, blessed).unwrap();
    } else {
        assert_eq!(
            page[start..stop],
            wanted,
            "run with SQSLITE_BLESS=1 to rewrite it"
        );
    }
}

/// What `--print-config` writes reads back as the same settings, for each table.
#[test]
fn printed_settings_read_back_the_same() {
    let mut config = Config {
        port: 1234,
        public_url: Some("http://sqs:9324".into()),
        ..Config::default()
    };
    config.access.allow_hosts = vec!["a".into(), "b".into()];
    config.access.metrics = Some(false);
    config.outbound.deny = vec!["10.0.0.0/8".into()];
    config.outbound.insecure = true;
    config.connections.header_timeout = std::time::Duration::from_millis(2500);
    config.delivery.mode = crate::config::DeliveryMode::AtLeastOnce;
    config.delivery.seed = 52;
    config.delivery.rates.duplicate = 0.25;
    for section in [Section::Server, Section::Outbound, Section::Delivery] {
        let table = render(section, &config, Secrets::Shown);
        let text = toml::to_string(&toml::Table::from_iter([(
            section.name().to_owned(),
            toml::Value::from(table.clone()),
        )]))
        .unwrap();
        let read = Config::from_text("p.toml", &text).unwrap().config;
        assert_eq!(render(section, &read, Secrets::Shown), table, "{text}");
    }
    assert!(find(Section::Server, "admin_token").is_some_and(|s| s.secret));
    let mappings = find(Section::Server, "max_event_source_mappings").unwrap();
    assert_eq!(
        mappings.default_shown(),
        Some(format!("`{}`", crate::triggers::DEFAULT_MAX_MAPPINGS))
    );
}
