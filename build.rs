//! Renders the user guide (docs/src, the mdBook's sources) into HTML pages that the binary
//! serves at `/_sqslite/guide/` for the dashboard's links (`admin::ui::guide`). Rendering here
//! keeps the Markdown parser out of the server: it holds only the finished pages, which stay on
//! disk until one is asked for.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// The crate's tests use what the build does not (the check for mdBook's syntax).
#[allow(dead_code)]
#[path = "src/admin/ui/guide/render.rs"]
mod render;

fn main() {
    hot_code_first();
    println!("cargo:rerun-if-changed=docs/src");
    println!("cargo:rerun-if-changed=src/admin/ui/guide/render.rs");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("guide");
    let summary = std::fs::read_to_string(root.join("docs/src/SUMMARY.md"))
        .expect("docs/src/SUMMARY.md, the guide's contents");
    let mut files = Vec::new();
    walk(&root.join("docs/src"), Path::new(""), &mut files);
    files.sort();
    let mut index = String::from(
        "/// The guide's files, made by build.rs from docs/src: (path, content type, bytes), by path.\n\
         static FILES: &[(&str, &str, &[u8])] = &[\n",
    );
    let mut texts = String::from(
        "/// The guide's pages as the search reads them: (path, title, words), by path.\n\
         static TEXTS: &[(&str, &str, &str)] = &[\n",
    );
    for name in &files {
        let source = root.join("docs/src").join(name);
        let target = out.join(name);
        std::fs::create_dir_all(target.parent().expect("a file has a folder"))
            .expect("create the guide's output folder");
        let kind = if Path::new(name).extension().is_some_and(|e| e == "md") {
            let markdown = std::fs::read_to_string(&source).expect("a page is UTF-8");
            std::fs::write(&target, render::page(name, &markdown, &summary)).expect("write a page");
            let (title, words) = (render::title(&markdown), render::text(&markdown));
            let _ = writeln!(texts, "    ({name:?}, {title:?}, {words:?}),");
            "text/html; charset=utf-8"
        } else {
            std::fs::copy(&source, &target).expect("copy an image");
            "image/png"
        };
        let _ = writeln!(
            index,
            "    ({name:?}, {kind:?}, include_bytes!({:?})),",
            target.display().to_string()
        );
    }
    index.push_str("];\n");
    texts.push_str("];\n");
    index.push_str(&texts);
    // The search's answer is a page like the others; the server puts its results in.
    let search = render::page("search", "# Search\n\nSEARCH-RESULTS\n", &summary);
    let _ = writeln!(
        index,
        "/// The search page around its results (`<p>SEARCH-RESULTS</p>`).\n\
         static SEARCH_PAGE: &str = {search:?};"
    );
    std::fs::write(out.join("files.rs"), index).expect("write the guide's index");
}

/// Every page (`.md`) and image (`.png`) under `dir`, as paths relative to docs/src.
fn walk(dir: &Path, prefix: &Path, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("read docs/src") {
        let path = entry.expect("a folder entry").path();
        let name = prefix.join(path.file_name().expect("an entry has a name"));
        if path.is_dir() {
            walk(&path, &name, files);
        } else if path.extension().is_some_and(|e| e == "md" || e == "png") {
            files.push(name.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The release build for x86-64 Linux (scripts/build-release) names the functions a start and
/// the SQS path run (scripts/hot-symbols.txt), and the linker (rust-lld) places them first in
/// `.text`, so the few pages an idle server maps hold them together. Only there: the names are
/// that build's own, and another linker may not take the option. A name the build no longer
/// has is skipped without a word.
fn hot_code_first() {
    println!("cargo:rerun-if-env-changed=SQSLITE_SYMBOL_ORDER");
    let order = std::env::var_os("SQSLITE_SYMBOL_ORDER").filter(|o| !o.is_empty());
    if let Some(order) = order {
        println!("cargo:rerun-if-changed={}", order.to_string_lossy());
        let order = order.to_string_lossy();
        println!("cargo:rustc-link-arg-bins=-Wl,--symbol-ordering-file={order}");
        println!("cargo:rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    }
}
