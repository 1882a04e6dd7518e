//! The Rust a newcomer needs, stated in Cargo.toml, README.md and the install page, is the
//! newest `rust-version` among the locked dependencies: the crates moved past the 1.85 the
//! README once named, and a reader with 1.85 got a build error instead of the server. This
//! reads the lock through `cargo metadata` and fails when a dependency update raises the bar.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde_json::Value;

/// The newest `rust-version` among the packages `kinds` of dependency edges reach from the root
/// (`normal` and `build` for the server; with `dev`, for the tests).
fn newest_required(metadata: &Value, kinds: &[&str]) -> (Vec<u32>, String) {
    let packages: HashMap<&str, &Value> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let root = metadata["resolve"]["root"].as_str().unwrap();
    let (mut seen, mut todo) = (BTreeSet::new(), vec![root]);
    while let Some(id) = todo.pop() {
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let edge_kinds: Vec<&str> = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k["kind"].as_str().unwrap_or("normal"))
                .collect();
            // Below the root, only what gets compiled for a dependency counts.
            let wanted: &[&str] = if id == root {
                kinds
            } else {
                &["normal", "build"]
            };
            let pkg = dep["pkg"].as_str().unwrap();
            if edge_kinds.iter().any(|k| wanted.contains(k)) && seen.insert(pkg) {
                todo.push(pkg);
            }
        }
    }
    seen.iter()
        .filter_map(|id| {
            let p = packages[id];
            let version = p["rust_version"].as_str()?;
            let parts = version.split('.').map(|n| n.parse().unwrap()).collect();
            Some((
                parts,
                format!("{} {}", p["name"].as_str()?, p["version"].as_str()?),
            ))
        })
        .max()
        .unwrap()
}

fn minor(version: &[u32]) -> String {
    format!("{}.{}", version[0], version.get(1).copied().unwrap_or(0))
}

#[test]
fn the_rust_the_docs_name_builds_the_locked_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = crate::common::cargo::locked_metadata("Cargo.toml");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (server, server_by) = newest_required(&metadata, &["normal", "build"]);
    let (tests, tests_by) = newest_required(&metadata, &["normal", "build", "dev"]);
    let (server, tests) = (minor(&server), minor(&tests));

    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!("rust-version = \"{server}\"")),
        "Cargo.toml's rust-version should be {server} ({server_by} needs it)"
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let install = std::fs::read_to_string(root.join("docs/src/getting-started/index.md")).unwrap();
    for (page, text, wanted) in [
        ("README.md", &readme, format!("Rust {server}+")),
        ("README.md", &readme, format!("Rust {tests}+")),
        (
            "the install page",
            &install,
            format!("Rust {server} or newer"),
        ),
        (
            "the install page",
            &install,
            format!("Rust {tests} or newer"),
        ),
    ] {
        assert!(
            text.contains(&wanted),
            "{page} should say `{wanted}` (the server needs {server} for {server_by}, the \
             tests {tests} for {tests_by})"
        );
    }
}
