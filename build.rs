//! The user guide (docs/src) is compiled into the binary for the dashboard's links
//! (`admin::ui::guide`). include_dir reads the folder when the crate builds; these lines make
//! cargo build it again when a page is added, removed or edited.
fn main() {
    println!("cargo:rerun-if-changed=docs/src");
    println!("cargo:rerun-if-changed=compat/SCENARIOS.md");
}
