//! Damage and repair at the storage layer: one flipped bit in the length, the length's
//! checksum, the contents' checksum or the payload, at the start, middle and end of a log
//! and of a snapshot, stops a plain start and loses one record to a repair; a version 1
//! directory is read and goes on in version 2.

use std::fs;
use std::path::{Path, PathBuf};

use super::frame::{self, FileKind, HEADER_LEN};
use super::tests::{append_all, log_file, open};
use super::*;

const RECORDS: usize = 9;

fn payloads() -> Vec<Vec<u8>> {
    (0..RECORDS)
        .map(|i| format!("record number {i}").into_bytes())
        .collect()
}

/// Where record `i` starts in a file of [`payloads`].
fn start_of(i: usize) -> usize {
    HEADER_LEN + payloads()[..i].iter().map(|p| 12 + p.len()).sum::<usize>()
}

/// A directory holding [`payloads`] in its log, or in its snapshot; returns that file.
fn written(name: &str, in_snapshot: bool) -> (PathBuf, PathBuf) {
    let dir = test_dir(name);
    let (data, _, _) = open(&dir, FsyncPolicy::Never);
    let all = payloads();
    if in_snapshot {
        let (g, _) = data
            .compact(|w| all.iter().try_for_each(|p| w.record(p)))
            .unwrap();
        drop(data);
        let path = DirFiles::new(&dir).snapshot_path(g);
        return (dir, path);
    }
    let refs: Vec<&[u8]> = all.iter().map(Vec::as_slice).collect();
    append_all(&data, &refs);
    drop(data);
    let path = log_file(&dir);
    (dir, path)
}

fn open_in(dir: &Path, mode: Mode) -> Result<(DataDir, Recovery, Vec<Vec<u8>>), DurableError> {
    let mut got = Vec::new();
    let (data, recovery) = DataDir::open(dir, FsyncPolicy::Never, mode, |r| {
        got.push(r.to_vec());
        Ok(())
    })?;
    Ok((data, recovery, got))
}

#[test]
fn one_flipped_bit_stops_the_start_and_a_repair_loses_that_record_only() {
    for in_snapshot in [false, true] {
        for victim in [0, RECORDS / 2, RECORDS - 1] {
            for (field, at) in [
                ("length", 0),
                ("length crc", 5),
                ("crc", 10),
                ("payload", 15),
            ] {
                let case = format!("snapshot {in_snapshot}, record {victim}, {field}");
                let (dir, path) = written("flip", in_snapshot);
                let mut bytes = fs::read(&path).unwrap();
                let offset = start_of(victim);
                bytes[offset + at] ^= 0x20;
                fs::write(&path, &bytes).unwrap();

                let err = open_in(&dir, Mode::Strict).unwrap_err().to_string();
                assert!(err.contains(&path.display().to_string()), "{case}: {err}");
                assert!(err.contains(&format!("at byte {offset} ")), "{case}: {err}");
                let kept = format!(
                    "keep the {victim} records before the damage and the {}",
                    RECORDS - 1 - victim
                );
                assert!(err.contains(&kept), "{case}: {err}");
                assert!(err.contains("drop 1 record(s)"), "{case}: {err}");
                assert_eq!(fs::read(&path).unwrap(), bytes, "{case}: untouched");

                let (data, recovery, got) = open_in(&dir, Mode::Repair).unwrap();
                let mut expected = payloads();
                expected.remove(victim);
                assert_eq!(got, expected, "{case}");
                let repaired = &recovery.repaired[0];
                assert_eq!(
                    (repaired.recovered, repaired.lost_records),
                    (RECORDS - 1, 1)
                );
                data.compact(|w| got.iter().try_for_each(|p| w.record(p)))
                    .unwrap();
                drop(data);
                assert_eq!(fs::read(&repaired.moved_to).unwrap(), bytes, "{case}: kept");
                assert!(!path.exists(), "{case}");
                let (_, recovery, again) = open_in(&dir, Mode::Strict).unwrap();
                assert_eq!((again, recovery.repaired.len()), (expected, 0), "{case}");
                let _ = fs::remove_dir_all(&dir);
            }
        }
    }
}

#[test]
fn an_incomplete_record_at_the_end_of_a_snapshot_is_damage_not_a_torn_tail() {
    let (dir, path) = written("incomplete", true);
    let len = fs::metadata(&path).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(len - 2)
        .unwrap();
    let err = open_in(&dir, Mode::Strict).unwrap_err().to_string();
    assert!(err.contains("cut short"), "{err}");
    let (_, recovery, got) = open_in(&dir, Mode::Repair).unwrap();
    assert_eq!(
        (got.len(), recovery.repaired[0].lost_records),
        (RECORDS - 1, 1)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_version_1_directory_is_read_and_goes_on_in_version_2() {
    let dir = test_dir("v1");
    let files = DirFiles::new(&dir);
    let mut bytes = frame::header(FileKind::Log, 1).to_vec();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    for p in [&b"old one"[..], b"old two"] {
        frame::encode_v1(p, &mut bytes);
    }
    bytes.extend_from_slice(&[40, 0, 0, 0, 1]); // a torn tail, as version 1 left them
    fs::write(files.log_path(1), &bytes).unwrap();
    let (data, recovery, got) = open(&dir, FsyncPolicy::Always);
    assert_eq!(got, [b"old one".to_vec(), b"old two".to_vec()]);
    assert_eq!(recovery.dropped.unwrap().bytes, 5);
    append_all(&data, &[b"new"]);
    drop(data);
    assert_eq!(
        fs::read(files.log_path(1)).unwrap(),
        bytes[..bytes.len() - 5]
    );
    let new = fs::read(files.log_path(2)).unwrap();
    assert_eq!(frame::check_header(&new, FileKind::Log, 2), Ok(2));
    let (_, _, got) = open(&dir, FsyncPolicy::Always);
    assert_eq!(got.len(), 3);
    let _ = fs::remove_dir_all(&dir);
}
