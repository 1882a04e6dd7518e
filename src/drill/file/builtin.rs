//! The example drills shipped in the binary, so a team starts from one:
//! `sqslite drill show poison > my-drill.toml`, or runs it as it is with
//! `sqslite drill run poison --serve`. They are the files in `examples/game-days/`, which
//! `.ci/run` runs with their sabotaged variants, so a shipped drill cannot rot.

/// Each shipped drill: its name and its file.
pub const DRILLS: &[(&str, &str)] = &[
    (
        "poison",
        include_str!("../../../examples/game-days/poison.toml"),
    ),
    (
        "stall",
        include_str!("../../../examples/game-days/stall.toml"),
    ),
    (
        "outage",
        include_str!("../../../examples/game-days/outage-with-backoff.toml"),
    ),
    (
        "fix-and-redrive",
        include_str!("../../../examples/game-days/fix-and-redrive.toml"),
    ),
    (
        "fifo-group",
        include_str!("../../../examples/game-days/fifo-group.toml"),
    ),
    (
        "trigger",
        include_str!("../../../examples/game-days/trigger.toml"),
    ),
];

/// The shipped drill called `name`.
pub fn named(name: &str) -> Option<&'static str> {
    DRILLS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// A drill's `[drill] name` and `description`, for the list.
pub fn about(text: &str) -> String {
    let table: toml::Table = toml::from_str(text).unwrap_or_default();
    let drill = &table.get("drill").and_then(toml::Value::as_table);
    let field = |k: &str| {
        drill
            .and_then(|d| d.get(k))
            .and_then(toml::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    match field("description") {
        d if d.is_empty() => field("name"),
        d => format!("{}: {d}", field("name")),
    }
}

/// The names, for messages.
pub fn names() -> String {
    DRILLS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    /// Every shipped drill reads and checks.
    #[test]
    fn every_shipped_drill_checks() {
        for (name, text) in super::DRILLS {
            super::super::check::read(&format!("{name}.toml"), text)
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
