//! The processes one `command` invocation left behind outside its process group: a descendant
//! that called `setsid` (as daemons and `nohup`-style launchers do) has a group and session
//! of its own, so killing the invocation's group misses it, and once its parent exits it is
//! nobody's child of ours either.
//!
//! What still ties it to the invocation is the environment it inherited: each invocation runs
//! with [`MARK`] set to a value of its own, and after the group is killed the sweep reads
//! `/proc/<pid>/environ` of every process this user may read and kills those that carry the
//! value. Neither of the other ways ties a process to one invocation as simply: a subreaper
//! (`PR_SET_CHILD_SUBREAPER`) makes the orphans ours but not which invocation's, while other
//! invocations and drill consumers run beside it, and it would make a test process that
//! embeds the server adopt (and never reap) its own children's orphans; a cgroup needs a
//! writable cgroup tree, which containers and CI runners seldom give.
//!
//! Not ended: a descendant that both leaves the session and runs without the variable (`env
//! -i`, or a program that writes its title over its environment area), and anything another
//! user runs (`sudo`). On systems without `/proc` only the group is killed.

/// The variable each invocation's processes inherit, naming the invocation.
pub(crate) const MARK: &str = "SQSLITE_INVOCATION_ID";

/// How many times the sweep looks again: a marked process may fork before it is killed, and
/// its child shows in the next look.
#[cfg(target_os = "linux")]
const LOOKS: usize = 8;

/// Kills every process carrying `MARK=value`. It reads a file per process, so it runs on a
/// blocking thread when the invocation ends normally.
#[cfg(target_os = "linux")]
pub(crate) fn sweep(value: &str) {
    let entry = format!("{MARK}={value}");
    let mut killed = std::collections::HashSet::new();
    for _ in 0..LOOKS {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return;
        };
        let found: Vec<i32> = dir
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
            .filter(|pid| !killed.contains(pid) && marked(*pid, &entry))
            .collect();
        if found.is_empty() {
            return;
        }
        for pid in found {
            kill(pid, &entry);
            killed.insert(pid);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn sweep(_value: &str) {}

/// Whether the process's environment, as it was when it started its program, has `entry`.
#[cfg(target_os = "linux")]
fn marked(pid: i32, entry: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == entry.as_bytes()))
}

/// Kills `pid` through a pidfd opened before its mark is read again, so a pid freed and
/// taken by another process in between is never signalled.
#[cfg(target_os = "linux")]
fn kill(pid: i32, entry: &str) {
    use rustix::process::{pidfd_open, pidfd_send_signal, Pid, PidfdFlags, Signal};
    let Some(id) = Pid::from_raw(pid) else { return };
    match pidfd_open(id, PidfdFlags::empty()) {
        Ok(fd) if marked(pid, entry) => {
            let _ = pidfd_send_signal(&fd, Signal::KILL);
        }
        // A kernel before 5.3: the pid as it is (the window is a read's length).
        Err(rustix::io::Errno::NOSYS) => {
            let _ = rustix::process::kill_process(id, Signal::KILL);
        }
        // Gone already, or no longer marked: its pid is another's now.
        Ok(_) | Err(_) => {}
    }
}
