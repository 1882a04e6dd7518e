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

/// What `sqslite drill run NAME` (and `drill check NAME`) reads: `Some` shipped drill when
/// NAME is a bare name (one path component, not ending `.toml`) one is called, `None` for a
/// file. A bare name that is also a file `here` is refused: which one was meant cannot be
/// guessed, and a guess runs the wrong drill against a real server.
pub fn resolve(
    name: &std::path::Path,
    here: impl Fn(&std::path::Path) -> bool,
) -> Result<Option<&'static str>, String> {
    use std::path::Component;
    let bare = matches!(
        name.components().collect::<Vec<_>>()[..],
        [Component::Normal(_)]
    ) && name.extension().is_none_or(|e| e != "toml");
    let Some(text) = name.to_str().and_then(named).filter(|_| bare) else {
        return Ok(None);
    };
    if here(name) {
        let n = name.display();
        return Err(format!(
            "`{n}` is both a shipped drill and a file here; write `./{n}` for the file, or for \
             the shipped drill run it where no file `{n}` is (or save it first: \
             `sqslite drill show {n} > shipped-{n}.toml`)"
        ));
    }
    Ok(Some(text))
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
    use std::path::Path;

    /// A bare shipped name is the shipped drill, a path is a file, and both at once is refused.
    #[test]
    fn a_name_is_a_shipped_drill_a_path_is_a_file() {
        let shipped = super::named("poison");
        let nothing_here = |_: &Path| false;
        let all_here = |_: &Path| true;
        assert_eq!(
            super::resolve(Path::new("poison"), nothing_here),
            Ok(shipped)
        );
        for file in [
            "./poison",
            "poison.toml",
            "drills/poison",
            "/tmp/poison",
            "mine",
        ] {
            assert_eq!(
                super::resolve(Path::new(file), all_here),
                Ok(None),
                "{file}"
            );
        }
        let both = super::resolve(Path::new("poison"), all_here).unwrap_err();
        assert!(
            both.contains(
                "`poison` is both a shipped drill and a file here; write `./poison` for the file"
            ),
            "{both}"
        );
        assert!(
            both.contains("sqslite drill show poison > shipped-poison.toml"),
            "{both}"
        );
    }

    /// Every shipped drill reads and checks.
    #[test]
    fn every_shipped_drill_checks() {
        for (name, text) in super::DRILLS {
            super::super::check::read(&format!("{name}.toml"), text)
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
