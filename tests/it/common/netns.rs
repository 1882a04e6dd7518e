//! Tests that check that sqslite refuses (or cannot reach) another address run in a private
//! network namespace with loopback alone, so a bug cannot send a packet off the machine:
//! [`private_network`] runs the calling test again there.

use std::process::Command;

/// Set in the test process that runs inside the namespace.
const INSIDE: &str = "SQSLITE_TEST_NETNS";

/// `true` inside the private network namespace: run the test's body. `false` in the outer
/// process, once the same test (`module::name`) passed inside; it fails if it did not.
#[must_use]
pub fn private_network(test: &str) -> bool {
    if std::env::var_os(INSIDE).is_some() {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let status = Command::new("unshare")
        .args([
            "--net",
            "sh",
            "-c",
            "ip link set lo up && exec \"$0\" \"$@\"",
        ])
        .arg(exe)
        .args([test, "--exact", "--test-threads=1"])
        .env(INSIDE, "1")
        .status()
        .expect("unshare (util-linux) runs the test in a private network namespace");
    assert!(
        status.success(),
        "{test} failed in its private network namespace"
    );
    false
}
