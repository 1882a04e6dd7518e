//! Recovery at start: the snapshot, then the logs, replayed in order. An incomplete last
//! record of the last log is a torn tail (a write a crash cut short) and is cut off; any
//! other damage stops the start with an error naming the file, the offset and what a
//! repair would drop. With repair, each damaged file is read around its damage, set aside
//! under another name (never deleted) once a snapshot holds what it gave, and reported.

use std::io;
use std::path::{Path, PathBuf};

use super::files::DirFiles;
use super::frame::{self, Damage, FileKind, FORMAT_VERSION, HEADER_LEN};
use super::scan::{self, FileScan, Gap, Mode};
use super::{Dropped, DurableError, Recovery, Repaired};

/// The log the writer goes on with once recovery is done.
pub struct Next {
    pub file: std::fs::File,
    pub generation: u64,
    pub len: u64,
}

/// Replays the directory's files into `replay` and opens the log to append to.
pub fn run(
    files: &DirFiles,
    mode: Mode,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<(Recovery, Next), DurableError> {
    let io_err = |error| DurableError::Io {
        path: files.dir().to_path_buf(),
        error,
    };
    let listing = files.list().map_err(io_err)?;
    let mut recovery = Recovery::default();
    let base = listing.snapshots.last().copied();
    if let Some(g) = base {
        let path = files.snapshot_path(g);
        let (_, scan) = read_file(&path, FileKind::Snapshot, g, mode, replay)?
            .ok_or_else(|| not_ours(&path))?;
        recovery.snapshot_records = scan.replayed;
        settle(&path, scan, mode, &mut recovery)?;
    }
    let logs: Vec<u64> = listing
        .logs
        .into_iter()
        .filter(|g| *g >= base.unwrap_or(0))
        .collect();
    let Some((&last, earlier)) = logs.split_last() else {
        let generation = base.unwrap_or(1);
        let file = files.create_log(generation).map_err(io_err)?;
        return Ok((recovery, Next::at(file, generation)));
    };
    check_consecutive(files, base, &logs)?;
    for &g in earlier {
        let path = files.log_path(g);
        let (_, scan) =
            read_file(&path, FileKind::Log, g, mode, replay)?.ok_or_else(|| not_ours(&path))?;
        recovery.log_records += scan.replayed;
        settle(&path, scan, mode, &mut recovery)?;
    }
    let next = last_log(files, last, mode, replay, &mut recovery)?;
    Ok((recovery, next))
}

impl Next {
    fn at(file: std::fs::File, generation: u64) -> Self {
        Next {
            file,
            generation,
            len: HEADER_LEN as u64,
        }
    }
}

/// Replays the last log and opens the log to go on with: the same one cut back to its
/// last whole record, or a new generation when the last is in an older format or damaged.
fn last_log(
    files: &DirFiles,
    last: u64,
    mode: Mode,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
    recovery: &mut Recovery,
) -> Result<Next, DurableError> {
    let path = files.log_path(last);
    let io_err = |error| DurableError::Io {
        path: path.clone(),
        error,
    };
    let Some((version, mut scan)) = read_file(&path, FileKind::Log, last, mode, replay)? else {
        // A crash while the log was being created: it holds no record yet.
        let file = files.create_log(last).map_err(io_err)?;
        return Ok(Next::at(file, last));
    };
    recovery.log_records += scan.replayed;
    let torn = if scan.gaps.is_empty() {
        scan.torn.take()
    } else {
        None
    };
    if let Some(offset) = torn {
        let dropped = Dropped {
            path: path.clone(),
            offset,
            bytes: scan.end - offset,
        };
        tracing::warn!(
            file = %path.display(),
            offset,
            dropped_bytes = dropped.bytes,
            records_kept = scan.replayed,
            "recovery cut a torn tail off the log: its last record was incomplete at the end of the file, a write cut short by a crash"
        );
        recovery.dropped = Some(dropped);
    }
    let valid_end = scan.valid_end;
    let damaged = settle(&path, scan, mode, recovery)?;
    if damaged {
        let file = files.create_log(last + 1).map_err(io_err)?;
        return Ok(Next::at(file, last + 1));
    }
    let file = files.reopen_log(last, valid_end).map_err(io_err)?;
    if version == FORMAT_VERSION {
        return Ok(Next {
            file,
            generation: last,
            len: valid_end,
        });
    }
    // Records are never appended in an older format: go on in a new file of this one.
    drop(file);
    let file = files.create_log(last + 1).map_err(io_err)?;
    Ok(Next::at(file, last + 1))
}

/// Decides about one file's damage: none, an error (strict), or a file to set aside
/// (repair). True when the file was damaged. A torn tail left in the scan is damage here:
/// only the last log's was a crash's.
fn settle(
    path: &Path,
    mut scan: FileScan,
    mode: Mode,
    recovery: &mut Recovery,
) -> Result<bool, DurableError> {
    if let Some(offset) = scan.torn.take() {
        scan.gaps.push(Gap {
            offset,
            bytes: scan.end - offset,
            why: Damage::Incomplete,
            one_record: true,
        });
    }
    if scan.gaps.is_empty() && scan.unapplied.is_empty() {
        return Ok(false);
    }
    let moved_to = aside_path(path);
    if mode == Mode::Strict {
        return Err(DurableError::Damaged {
            path: path.to_path_buf(),
            detail: describe(&scan, &moved_to),
        });
    }
    for gap in &scan.gaps {
        tracing::warn!(file = %path.display(), offset = gap.offset, bytes = gap.bytes, reason = %gap.why, "repair: skipped a damaged stretch");
    }
    for (offset, error) in &scan.unapplied {
        tracing::warn!(file = %path.display(), offset, error = %error, "repair: skipped a record that cannot be applied");
    }
    recovery.repaired.push(Repaired {
        path: path.to_path_buf(),
        moved_to,
        recovered: scan.replayed,
        lost_records: scan.lost_records(),
        lost_bytes: scan.lost_bytes(),
    });
    Ok(true)
}

/// The error a damaged file gives at start: where, what, and what `--repair` would do.
fn describe(scan: &FileScan, moved_to: &Path) -> String {
    let first = scan.gaps[0];
    let stretches = match scan.gaps.len() {
        1 => "it".to_owned(),
        n => format!("{n} damaged stretches"),
    };
    let unsure = if scan.gaps.iter().all(|g| g.one_record) {
        ""
    } else {
        " (a stretch whose framing is damaged may have held more than one record)"
    };
    format!(
        "damaged record at byte {} ({}). A repair (--repair) would set this file aside as {}, \
         keep the {} records before the damage and the {} after {stretches}, and drop {} \
         record(s) in {} bytes it cannot read{unsure}",
        first.offset,
        first.why,
        moved_to.display(),
        scan.before_damage,
        scan.after_damage,
        scan.lost_records(),
        scan.lost_bytes(),
    )
}

/// Where a damaged file goes: `<name>.damaged`, or `<name>.damaged-<n>` if that is taken.
fn aside_path(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    (1..=u32::MAX)
        .map(|n| match n {
            1 => path.with_file_name(format!("{name}.damaged")),
            n => path.with_file_name(format!("{name}.damaged-{n}")),
        })
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

fn not_ours(path: &Path) -> DurableError {
    DurableError::Format {
        path: path.to_path_buf(),
        error: frame::HeaderError::NotOurs,
    }
}

fn check_consecutive(
    files: &DirFiles,
    base: Option<u64>,
    logs: &[u64],
) -> Result<(), DurableError> {
    let expected_first = base.unwrap_or(logs[0]);
    for (i, g) in logs.iter().enumerate() {
        if *g != expected_first + i as u64 {
            return Err(DurableError::Corrupt {
                path: files.log_path(expected_first + i as u64),
                detail: "this log file is missing".into(),
            });
        }
    }
    Ok(())
}

/// Opens `path`, checks its header and replays its records a chunk at a time; returns its
/// format version and what the scan found. `None`: the file is shorter than a header and a
/// prefix of the expected one (a crash while it was being created).
fn read_file(
    path: &Path,
    kind: FileKind,
    generation: u64,
    mode: Mode,
    replay: &mut impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<Option<(u32, FileScan)>, DurableError> {
    let io_err = |error| DurableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = std::fs::File::open(path).map_err(io_err)?;
    let mut header = Vec::with_capacity(HEADER_LEN);
    io::Read::read_to_end(
        &mut io::Read::take(&mut file, HEADER_LEN as u64),
        &mut header,
    )
    .map_err(io_err)?;
    if header.len() < HEADER_LEN && frame::header(kind, generation).starts_with(&header) {
        return Ok(None);
    }
    let version =
        frame::check_header(&header, kind, generation).map_err(|error| DurableError::Format {
            path: path.to_path_buf(),
            error,
        })?;
    let scan = scan::scan(file, version, HEADER_LEN as u64, mode, &mut *replay)
        .map_err(io_err)?
        .map_err(|e| DurableError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("a record cannot be applied: {e}"),
        })?;
    Ok(Some((version, scan)))
}
