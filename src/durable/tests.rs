//! The storage layer's own tests: round trip, torn tails, format version, lock,
//! compaction, group commit and a failing write (damage and repair: `repair_tests.rs`).

use std::fs::{self, OpenOptions};
use std::path::Path;

use super::frame::HEADER_LEN;
use super::*;

pub(super) fn open(dir: &Path, policy: FsyncPolicy) -> (DataDir, Recovery, Vec<Vec<u8>>) {
    let mut got = Vec::new();
    let (data, recovery) = DataDir::open(dir, policy, Mode::Strict, |r| {
        got.push(r.to_vec());
        Ok(())
    })
    .unwrap();
    (data, recovery, got)
}

pub(super) fn append_all(data: &DataDir, records: &[&[u8]]) {
    let appender = data.appender();
    let pending: Vec<_> = records
        .iter()
        .map(|r| appender.append(r.to_vec()))
        .collect();
    for p in pending {
        p.blocking_recv().unwrap().unwrap();
    }
}

pub(super) fn log_file(dir: &Path) -> std::path::PathBuf {
    let files = DirFiles::new(dir);
    files.log_path(*files.list().unwrap().logs.last().unwrap())
}

#[test]
fn records_survive_a_reopen_in_order() {
    let dir = test_dir("roundtrip");
    let (data, recovery, got) = open(&dir, FsyncPolicy::Always);
    assert_eq!((recovery, got.len()), (Recovery::default(), 0));
    append_all(&data, &[b"a", b"bb", b"ccc"]);
    drop(data);
    let (data, recovery, got) = open(&dir, FsyncPolicy::Never);
    assert_eq!(got, vec![b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()]);
    assert_eq!(recovery.log_records, 3);
    append_all(&data, &[b"d"]);
    drop(data);
    assert_eq!(open(&dir, FsyncPolicy::Never).2.len(), 4);
}

#[test]
fn a_torn_tail_is_cut_and_reported_and_later_records_follow_the_cut() {
    let dir = test_dir("torn");
    let (data, _, _) = open(&dir, FsyncPolicy::Always);
    append_all(&data, &[b"kept", b"also kept", b"torn by the crash"]);
    drop(data);
    let path = log_file(&dir);
    let full = fs::metadata(&path).unwrap().len();
    OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(full - 3)
        .unwrap();
    let (data, recovery, got) = open(&dir, FsyncPolicy::Always);
    assert_eq!(got, vec![b"kept".to_vec(), b"also kept".to_vec()]);
    let dropped = recovery.dropped.unwrap();
    assert_eq!(dropped.bytes, u64::from(12 + 17 - 3_u32));
    append_all(&data, &[b"after"]);
    drop(data);
    let (_, recovery, got) = open(&dir, FsyncPolicy::Always);
    assert_eq!(got.last().unwrap(), b"after");
    assert_eq!((got.len(), recovery.dropped), (3, None));
}

#[test]
fn another_format_version_is_refused_and_left_untouched() {
    let dir = test_dir("version");
    let (data, _, _) = open(&dir, FsyncPolicy::Always);
    append_all(&data, &[b"a record"]);
    drop(data);
    let path = log_file(&dir);
    let mut bytes = fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&9u32.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let err = DataDir::open(&dir, FsyncPolicy::Always, Mode::Strict, |_| Ok(())).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("format version 9"), "{text}");
    assert!(text.contains("reads versions 1 to 2"), "{text}");
    assert_eq!(
        fs::read(&path).unwrap(),
        bytes,
        "the file must not be reset"
    );
}

#[test]
fn a_second_open_names_the_holder() {
    let dir = test_dir("locked");
    let (data, _, _) = open(&dir, FsyncPolicy::Always);
    let err = DataDir::open(&dir, FsyncPolicy::Always, Mode::Strict, |_| Ok(())).unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("in use by process {}", std::process::id())),
        "{err}"
    );
    drop(data);
    assert!(DataDir::open(&dir, FsyncPolicy::Always, Mode::Strict, |_| Ok(())).is_ok());
}

#[test]
fn a_record_that_cannot_be_applied_stops_recovery() {
    let dir = test_dir("replay");
    let (data, _, _) = open(&dir, FsyncPolicy::Always);
    append_all(&data, &[b"fine", b"unknown"]);
    drop(data);
    let err = DataDir::open(&dir, FsyncPolicy::Always, Mode::Strict, |r| {
        if r == b"unknown" {
            Err("unknown mutation".into())
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert!(err.to_string().contains("unknown mutation"), "{err}");
}

#[test]
fn compaction_replaces_the_log_with_a_snapshot_plus_what_followed() {
    let dir = test_dir("compact");
    let (data, _, _) = open(&dir, FsyncPolicy::Never);
    for _ in 0..100 {
        append_all(&data, &[&[7u8; 100]]);
    }
    let before = data.appender().log_bytes();
    data.compact(|w| w.record(b"state")).unwrap();
    assert!(data.appender().log_bytes() < before);
    append_all(&data, &[b"after"]);
    drop(data);
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "LOCK, one snapshot, one log: {names:?}");
    let (_, recovery, got) = open(&dir, FsyncPolicy::Never);
    assert_eq!(got, vec![b"state".to_vec(), b"after".to_vec()]);
    assert_eq!((recovery.snapshot_records, recovery.log_records), (1, 1));
}

#[test]
fn concurrent_appends_share_syncs_and_all_land() {
    let dir = test_dir("group");
    let (data, _, _) = open(&dir, FsyncPolicy::Always);
    std::thread::scope(|s| {
        for t in 0..8u8 {
            let appender = data.appender();
            s.spawn(move || {
                for i in 0..50u8 {
                    appender
                        .append(vec![t, i])
                        .blocking_recv()
                        .unwrap()
                        .unwrap();
                }
            });
        }
    });
    drop(data);
    assert_eq!(open(&dir, FsyncPolicy::Always).2.len(), 400);
}

#[test]
fn a_failing_write_is_an_error_for_its_request_not_a_panic() {
    let dir = test_dir("readonly");
    let files = DirFiles::new(&dir);
    drop(files.create_log(1).unwrap());
    let read_only = fs::File::open(files.log_path(1)).unwrap();
    let (appender, mut thread) =
        writer::spawn(files, read_only, 1, HEADER_LEN as u64, FsyncPolicy::Always).unwrap();
    let err = appender
        .append(b"x".to_vec())
        .blocking_recv()
        .unwrap()
        .unwrap_err();
    assert_eq!(err.operation, "write");
    assert!(appender
        .append(b"y".to_vec())
        .blocking_recv()
        .unwrap()
        .is_err());
    thread.stop();
    let err = appender
        .append(b"z".to_vec())
        .blocking_recv()
        .unwrap()
        .unwrap_err();
    assert!(err.to_string().contains("stopped"), "{err}");
}

#[test]
fn policies_parse_and_print() {
    for (text, policy) in [
        ("always", FsyncPolicy::Always),
        ("never", FsyncPolicy::Never),
        (
            "interval=250",
            FsyncPolicy::Interval(Duration::from_millis(250)),
        ),
    ] {
        assert_eq!(text.parse::<FsyncPolicy>(), Ok(policy));
        assert_eq!(policy.to_string(), text);
    }
    for bad in ["sometimes", "interval=", "interval=0", "interval=x"] {
        assert!(bad.parse::<FsyncPolicy>().is_err(), "{bad}");
    }
}
