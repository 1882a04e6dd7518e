//! Reading a file's records back, a chunk at a time: every whole record in order, where a
//! torn last record begins, and each damaged stretch with where reading resumed after it.
//! Only an incomplete record at the physical end of the file is a torn tail (or zeros from
//! there to the end, which a crash leaves where an unsynced write was going); anything else
//! that is not a record is damage, reported with its offset and never silently skipped.

use std::io::{self, Read};

use super::frame::{self, Damage, Frame, FRAME_OVERHEAD};

/// What to do with the records after a damaged stretch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Replay up to the first damage; after it only count what a repair would keep.
    Strict,
    /// Replay every record that verifies, before and after each damaged stretch; a record
    /// that cannot be applied is counted, not fatal.
    Repair,
}

/// Bytes that are not records, from `offset` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    pub offset: u64,
    pub bytes: u64,
    pub why: Damage,
    /// The stretch is exactly one record (its length verified); otherwise reading resumed
    /// at the next frame that verifies, and the stretch may have held more than one.
    pub one_record: bool,
}

/// What a scan found in one file.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FileScan {
    /// Records passed to the replay and applied.
    pub replayed: usize,
    /// Whole records before the first damage, and after it.
    pub before_damage: usize,
    pub after_damage: usize,
    /// Where the last whole record ends: a torn tail is cut here.
    pub valid_end: u64,
    /// An incomplete last record at the end of the file starts here.
    pub torn: Option<u64>,
    /// Where the file ends.
    pub end: u64,
    pub gaps: Vec<Gap>,
    /// Repair only: records that verified but could not be applied, with their offsets.
    pub unapplied: Vec<(u64, String)>,
}

impl FileScan {
    /// Records a repair cannot bring back: one per damaged stretch (a lower bound where a
    /// stretch was skipped by resynchronising), plus those that could not be applied.
    pub fn lost_records(&self) -> usize {
        self.gaps.len() + self.unapplied.len()
    }

    pub fn lost_bytes(&self) -> u64 {
        self.gaps.iter().map(|g| g.bytes).sum()
    }
}

/// Bytes read from a file at a time while it is scanned.
const CHUNK: usize = 8 << 20;

/// Scans the records of a file of format `version` that start at offset `start`.
pub fn scan(
    input: impl Read,
    version: u32,
    start: u64,
    mode: Mode,
    each: impl FnMut(&[u8]) -> Result<(), String>,
) -> io::Result<Result<FileScan, String>> {
    scan_chunks(Reader::new(input, start, CHUNK), version, mode, each)
}

fn scan_chunks(
    mut r: Reader<impl Read>,
    version: u32,
    mode: Mode,
    mut each: impl FnMut(&[u8]) -> Result<(), String>,
) -> io::Result<Result<FileScan, String>> {
    let mut s = FileScan {
        valid_end: r.offset(),
        ..FileScan::default()
    };
    loop {
        r.fill(FRAME_OVERHEAD)?;
        if r.avail().is_empty() {
            break;
        }
        match frame::parse(version, r.avail()) {
            Frame::Short { need } if r.avail().len() < need && !r.eof => r.fill(need)?,
            Frame::Short { .. } => {
                s.torn = Some(r.offset());
                r.skip_to_end()?;
                break;
            }
            Frame::Whole { len, payload } => {
                let offset = r.offset();
                let clean = s.gaps.is_empty();
                if clean {
                    s.before_damage += 1;
                } else {
                    s.after_damage += 1;
                }
                if clean || mode == Mode::Repair {
                    match each(&r.avail()[payload]) {
                        Ok(()) => s.replayed += 1,
                        Err(e) if mode == Mode::Strict => return Ok(Err(e)),
                        Err(e) => s.unapplied.push((offset, e)),
                    }
                }
                r.pos += len;
                s.valid_end = r.offset();
            }
            Frame::Bad(_) if zeros_to_end(&mut r)? => {
                s.torn = Some(r.offset());
                r.skip_to_end()?;
                break;
            }
            Frame::Bad(why) => s.gaps.push(resync(&mut r, version, why)?),
        }
    }
    s.end = r.offset();
    Ok(Ok(s))
}

/// The longest run of zero bytes at the end of a file still taken for a torn tail. A crash can
/// leave a file's last blocks allocated but never written (delayed allocation): zeros where an
/// unsynced write was going, never over records a sync covered. Far longer runs are damage.
const ZERO_TAIL_MAX: usize = 1 << 20;

/// True when everything from here to the end of the file is zero bytes (and not more than
/// [`ZERO_TAIL_MAX`] of them). A version 2 frame of zeros never verifies (the length's checksum
/// of zero is not zero), so such a tail cannot hide a record.
fn zeros_to_end(r: &mut Reader<impl Read>) -> io::Result<bool> {
    r.fill(ZERO_TAIL_MAX + 1)?;
    Ok(r.eof && r.avail().len() <= ZERO_TAIL_MAX && r.avail().iter().all(|b| *b == 0))
}

/// Moves past a damaged frame: a version 2 frame whose length verified is skipped whole;
/// otherwise reading resumes at the next offset where a whole frame verifies (version 1,
/// whose length is not checked, has no safe resume point: the rest of the file is lost).
fn resync(r: &mut Reader<impl Read>, version: u32, why: Damage) -> io::Result<Gap> {
    let offset = r.offset();
    let gap = |r: &Reader<_>, one_record| Gap {
        offset,
        bytes: r.offset() - offset,
        why,
        one_record,
    };
    match why {
        Damage::Contents { frame_len } if version >= 2 => {
            r.pos += frame_len;
            return Ok(gap(r, true));
        }
        _ if version < 2 => {
            r.skip_to_end()?;
            return Ok(gap(r, false));
        }
        _ => {}
    }
    loop {
        r.pos += 1;
        r.fill(FRAME_OVERHEAD)?;
        if r.avail().is_empty() {
            return Ok(gap(r, false));
        }
        loop {
            match frame::parse(version, r.avail()) {
                Frame::Whole { .. } => return Ok(gap(r, false)),
                Frame::Short { need } if r.avail().len() < need && !r.eof => r.fill(need)?,
                _ => break,
            }
        }
    }
}

/// A window on the file: `buf[pos..]` starts at file offset `base + pos`.
struct Reader<R> {
    input: R,
    buf: Vec<u8>,
    pos: usize,
    base: u64,
    eof: bool,
    chunk: usize,
}

impl<R: Read> Reader<R> {
    fn new(input: R, start: u64, chunk: usize) -> Self {
        Reader {
            input,
            buf: Vec::new(),
            pos: 0,
            base: start,
            eof: false,
            chunk,
        }
    }

    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    fn avail(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Makes `need` bytes available from the current position, unless the file ends first.
    fn fill(&mut self, need: usize) -> io::Result<()> {
        if self.avail().len() >= need || self.eof {
            return Ok(());
        }
        self.buf.drain(..self.pos);
        self.base += self.pos as u64;
        self.pos = 0;
        while self.buf.len() < need && !self.eof {
            let want = self.chunk.max(need - self.buf.len());
            let read = self
                .input
                .by_ref()
                .take(want as u64)
                .read_to_end(&mut self.buf)?;
            self.eof = read < want;
        }
        Ok(())
    }

    fn skip_to_end(&mut self) -> io::Result<()> {
        loop {
            self.pos = self.buf.len();
            self.fill(1)?;
            if self.avail().is_empty() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
