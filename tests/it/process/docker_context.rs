//! The Dockerfile's build stage must hold every file the build reads: the drills the binary
//! ships (`include_str!` from examples/) and the guide build.rs renders (docs/src) live outside
//! `src/`, and an image that copied only `src/` stopped compiling without anyone noticing, since
//! no Docker engine runs here. This reads the Dockerfile's `COPY` lines and `.dockerignore` as
//! Docker does (for the simple patterns they use) and checks each input is in the context.

use std::path::{Component, Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file the crate's build reads from outside `src/`, relative to the root.
fn inputs_outside_src() -> Vec<String> {
    let mut inputs = vec!["build.rs".to_owned()];
    let build = std::fs::read_to_string(root().join("build.rs")).unwrap();
    for line in build.lines() {
        if let Some(rest) = line.split("cargo:rerun-if-changed=").nth(1) {
            inputs.push(rest.trim_end_matches(['"', ')', ';']).to_owned());
        }
    }
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let pieces = text.split("include_str!(\"").skip(1);
        for piece in pieces.chain(text.split("include_bytes!(\"").skip(1)) {
            let Some(relative) = piece.split('"').next() else {
                continue;
            };
            let path = normalize(&file.parent().unwrap().join(relative));
            let path = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if !path.starts_with("src/") {
                inputs.push(path);
            }
        }
    }
    inputs.sort();
    inputs.dedup();
    inputs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The sources of the first stage's `COPY` lines that reach the tree its last `cargo build`
/// compiles (the `WORKDIR`), `.` for the whole context. Lines continued with `\` are one.
fn build_stage_copies() -> Vec<String> {
    let dockerfile = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let joined = dockerfile.replace("\\\n", " ");
    let stage: Vec<&str> = joined
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("FROM "))
        .skip(1)
        .take_while(|l| !l.starts_with("FROM "))
        .collect();
    let last_build = stage
        .iter()
        .rposition(|l| l.starts_with("RUN ") && l.contains("cargo build"))
        .expect("the build stage runs cargo build");
    let mut workdir = "/";
    let mut sources = Vec::new();
    for line in &stage[..last_build] {
        if let Some(dir) = line.strip_prefix("WORKDIR ") {
            workdir = dir.trim();
        }
        let Some(rest) = line.strip_prefix("COPY ") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        if words.iter().any(|w| w.starts_with("--from")) {
            continue;
        }
        let args: Vec<&str> = words.into_iter().filter(|w| !w.starts_with("--")).collect();
        let (to, from) = args.split_last().expect("COPY has a destination");
        if to.starts_with('/') && to.trim_end_matches('/') != workdir.trim_end_matches('/') {
            continue; // beside the build's tree, as a baked config is
        }
        sources.extend(from.iter().map(|s| s.trim_end_matches('/').to_owned()));
    }
    sources
}

/// Whether one `.dockerignore` component pattern (`*` for any run of characters) matches.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|i| glob(tail, &name[head.len() + i..]))
        }
    }
}

/// Whether `pattern` (with `**` for any number of folders) matches `path` or a folder above it.
fn ignores(pattern: &[&str], path: &[&str]) -> bool {
    match (pattern.split_first(), path.split_first()) {
        (None, _) => true,
        (Some((&"**", rest)), _) => (0..=path.len()).any(|i| ignores(rest, &path[i..])),
        (Some((first, rest)), Some((name, tail))) => glob(first, name) && ignores(rest, tail),
        (Some(_), None) => false,
    }
}

#[test]
fn the_docker_build_stage_holds_every_file_the_build_reads() {
    let ignore = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    let patterns: Vec<Vec<&str>> = ignore
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.trim_matches('/').split('/').collect())
        .collect();
    let copies = build_stage_copies();
    let inputs = inputs_outside_src();
    assert!(
        inputs.iter().any(|i| i.starts_with("docs/"))
            && inputs.iter().any(|i| i.starts_with("examples/")),
        "the scan found the guide and the drills: {inputs:?}"
    );
    for input in &inputs {
        let in_context = copies
            .iter()
            .any(|c| c == "." || input == c || input.starts_with(&format!("{c}/")));
        assert!(
            in_context,
            "the Dockerfile's build stage copies no source of {input}: {copies:?}"
        );
        let parts: Vec<&str> = input.split('/').collect();
        let hit = patterns.iter().find(|p| ignores(p, &parts));
        assert!(hit.is_none(), ".dockerignore leaves {input} out ({hit:?})");
    }
}

#[test]
fn the_dockerignore_reading_matches_dockers_for_its_patterns() {
    let split = |s: &'static str| s.split('/').collect::<Vec<_>>();
    assert!(ignores(
        &split("**/node_modules"),
        &split("ui-test/node_modules/x/y.js")
    ));
    assert!(ignores(
        &split("compat/.venv*"),
        &split("compat/.venv-boto3/bin/python")
    ));
    assert!(ignores(&split("target"), &split("target/release/sqslite")));
    assert!(!ignores(&split("docs/book"), &split("docs/src/sqs.md")));
    assert!(!ignores(&split("compat/.venv*"), &split("compat/run.sh")));
}
