//! The layers of the crate docs, checked: every `crate::<module>` path in `src/` (tests aside)
//! points to a lower layer, so there is no import circle among the top-level modules and the
//! ladder the Layout section describes is the one the imports follow. (The developers'
//! `module-circles` tool counts circles; this keeps the order too, in `cargo test`.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module's rank, lowest first; a module may import only lower ranks.
const LADDER: &[(&str, u8)] = &[
    // Floors.
    ("clock", 0),
    ("quota", 0),
    ("owner_only", 0),
    ("http", 1),
    ("health", 2),
    ("endpoint", 2),
    ("faults", 2),
    ("patterns", 2),
    ("policy", 2),
    ("ticker", 2),
    // Services: SNS, STS and the triggers reach SQS through its operations; S3's bucket
    // notifications reach SQS, SNS and the triggers through theirs.
    ("sqs", 3),
    ("sns", 4),
    ("sts", 4),
    ("triggers", 4),
    ("s3", 5),
    // Observers and the durable log read the services.
    ("durable", 6),
    ("observe", 6),
    // Settings: each module owns its settings type; config gathers them.
    ("config", 7),
    // The root: the composition root, then what serves it.
    ("app", 8),
    ("admin", 9),
    ("support", 9),
    ("service", 10),
    ("server", 11),
    ("drill", 10),
];

/// The top-level modules each module's sources name, tests left out.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src");
            let name = rel.to_string_lossy();
            let test_file = name.ends_with("_tests.rs")
                || name.ends_with("/tests.rs")
                || name.contains("/tests/");
            if !name.ends_with(".rs") || test_file {
                continue;
            }
            let top = rel.iter().next().expect("a first part").to_string_lossy();
            let top = top.trim_end_matches(".rs").to_owned();
            if matches!(top.as_str(), "lib" | "main" | "bin") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
            for (i, _) in code.match_indices("crate::") {
                let rest = &code[i + "crate::".len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()))
                    .unwrap_or(rest.len());
                let target = &rest[..end];
                if !target.is_empty() && target != top {
                    edges
                        .entry(top.clone())
                        .or_default()
                        .insert(target.to_owned());
                }
            }
        }
    }
    edges
}

#[test]
fn imports_point_down_the_ladder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rank: BTreeMap<&str, u8> = LADDER.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, targets) in imports(&src) {
        let Some(&here) = rank.get(from.as_str()) else {
            wrong.push(format!("{from}: not on the ladder (src/layers_tests.rs)"));
            continue;
        };
        for to in targets {
            match rank.get(to.as_str()) {
                Some(&there) if there < here => {}
                Some(_) => wrong.push(format!("{from} imports {to}, which is not below it")),
                // A crate-level item (a re-export of lib.rs) is no module.
                None => {}
            }
        }
    }
    assert!(wrong.is_empty(), "layer rule broken:\n{}", wrong.join("\n"));
}
