//! Objects' bytes: in memory, gathered from a body as it arrives into pieces of at most
//! [`PIECE`] bytes, each buffer kept as it was filled; or, with `--data-dir`, stretches of
//! files ([`super::disk`]), read a chunk at a time. A GET, a range, a copy and a multipart
//! completion share those buffers rather than copy them; what the server holds is counted
//! against one bound (`--s3-max-bytes`) until the last object or part sharing a buffer is
//! gone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use md5::{Digest, Md5};

use super::disk::StoredFile;
use super::error::{Refusal, Result};

/// The largest buffer one piece of an object fills: big enough that a large object is few
/// pieces, small enough that a small one's buffer is its size.
pub const PIECE: usize = 1 << 20;

/// The object data the server may hold, and how much it does.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: AtomicU64,
}

impl Budget {
    /// A bound of `limit` bytes.
    pub fn new(limit: u64) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            used: AtomicU64::new(0),
        })
    }

    /// The bytes held now.
    #[cfg(test)]
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// Counts `n` more bytes, unless that passes the bound.
    fn take(&self, n: u64) -> Result<()> {
        let taken = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(n).filter(|total| *total <= self.limit)
            });
        taken.map(drop).map_err(|used| {
            Refusal::EntityTooLarge(format!(
                "Your proposed upload exceeds the object data this server holds \
                 (--s3-max-bytes {}, {used} in use).",
                self.limit
            ))
        })
    }
}

/// Bytes of object files on disk (`--data-dir`) counted against the budget: taken as a body
/// is written, given back when the file they belong to is removed.
#[derive(Debug)]
pub struct Held(Ticket);

impl Budget {
    /// Nothing held yet.
    pub fn hold(self: &Arc<Self>) -> Held {
        Held(Ticket {
            budget: self.clone(),
            bytes: AtomicU64::new(0),
        })
    }
}

impl Held {
    /// Holds `n` more bytes, unless that passes the bound.
    pub fn take(&mut self, n: u64) -> Result<()> {
        self.0.budget.take(n)?;
        *self.0.bytes.get_mut() += n;
        Ok(())
    }

    /// Holds `n` more bytes whatever the bound: a restart counts what is already stored.
    pub fn count(&mut self, n: u64) {
        self.0.budget.used.fetch_add(n, Ordering::AcqRel);
        *self.0.bytes.get_mut() += n;
    }
}

/// The bytes one body's buffers count against the budget, given back when the last piece
/// sharing them is dropped.
#[derive(Debug)]
struct Ticket {
    budget: Arc<Budget>,
    bytes: AtomicU64,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let bytes = *self.bytes.get_mut();
        self.budget.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// One stretch of an object's bytes: a buffer in memory and the ticket its memory is
/// counted on, or part of a file on disk (`--data-dir`).
#[derive(Debug, Clone)]
enum Piece {
    Memory {
        bytes: Bytes,
        /// Held for its count: the buffer is given back when the last piece holding it goes.
        ticket: Arc<Ticket>,
    },
    File {
        file: Arc<StoredFile>,
        offset: u64,
        len: u64,
    },
}

impl Piece {
    fn len(&self) -> u64 {
        match self {
            Piece::Memory { bytes, .. } => bytes.len() as u64,
            Piece::File { len, .. } => *len,
        }
    }

    /// Its bytes from `from` to `to`, relative to its start.
    fn slice(&self, from: u64, to: u64) -> Piece {
        match self {
            Piece::Memory { bytes, ticket } => Piece::Memory {
                bytes: bytes.slice(from as usize..to as usize),
                ticket: ticket.clone(),
            },
            Piece::File { file, offset, .. } => Piece::File {
                file: file.clone(),
                offset: offset + from,
                len: to - from,
            },
        }
    }
}

/// Bytes read from a file at a time (a GET holds a few of these, never the object).
pub const READ_CHUNK: usize = 256 << 10;

/// An object's or a part's bytes, cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Data {
    pieces: Arc<[Piece]>,
    len: u64,
}

impl Data {
    /// Its length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The whole of `file`.
    pub fn from_file(file: Arc<StoredFile>) -> Data {
        Data::from_files([(file, 0, None)])
    }

    /// The stretches `(file, offset, len)` (the rest of the file when `len` is `None`), in
    /// order: the bytes a replayed record names.
    pub fn from_files(
        stretches: impl IntoIterator<Item = (Arc<StoredFile>, u64, Option<u64>)>,
    ) -> Data {
        let pieces: Arc<[Piece]> = stretches
            .into_iter()
            .map(|(file, offset, len)| {
                let len = len.unwrap_or_else(|| file.len().saturating_sub(offset));
                Piece::File { file, offset, len }
            })
            .filter(|p| p.len() > 0)
            .collect();
        Data {
            len: pieces.iter().map(Piece::len).sum(),
            pieces,
        }
    }

    /// Whether every byte is in memory (none in a file).
    pub fn in_memory(&self) -> bool {
        self.pieces
            .iter()
            .all(|p| matches!(p, Piece::Memory { .. }))
    }

    /// The files its bytes are in, with each stretch's offset and length, in order.
    pub fn files(&self) -> impl Iterator<Item = (&Arc<StoredFile>, u64, u64)> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::File { file, offset, len } => Some((file, *offset, *len)),
            Piece::Memory { .. } => None,
        })
    }

    /// The bytes from `start` to `end` (exclusive), as slices of its buffers: only for data
    /// [`Data::in_memory`] (a file's bytes are read by [`Data::read`]).
    pub fn chunks(&self, start: u64, end: u64) -> Vec<Bytes> {
        self.pieces_in(start, end)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Memory { bytes, .. } => Some(bytes),
                Piece::File { .. } => None,
            })
            .collect()
    }

    /// Hands the bytes from `start` to `end` to `each` in order, a buffer or a file's chunk
    /// at a time, until it says stop; blocking on the files' reads. False if it stopped.
    pub fn read(
        &self,
        start: u64,
        end: u64,
        each: &mut dyn FnMut(Bytes) -> bool,
    ) -> std::io::Result<bool> {
        for piece in self.pieces_in(start, end) {
            let go_on = match piece {
                Piece::Memory { bytes, .. } => each(bytes),
                Piece::File { file, offset, len } => file.read((offset, len), READ_CHUNK, each)?,
            };
            if !go_on {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The MD5 of the bytes from `start` to `end`, reading files as it goes (blocking).
    pub fn md5(&self, start: u64, end: u64) -> std::io::Result<[u8; 16]> {
        let mut md5 = Md5::new();
        self.read(start, end, &mut |chunk| {
            md5.update(&chunk);
            true
        })?;
        Ok(md5.finalize().into())
    }

    /// The bytes from `start` to `end` (exclusive) as data of their own, sharing the buffers.
    pub fn slice(&self, start: u64, end: u64) -> Data {
        let pieces: Arc<[Piece]> = self.pieces_in(start, end).into();
        Data {
            len: pieces.iter().map(Piece::len).sum(),
            pieces,
        }
    }

    /// `parts` one after another, sharing their buffers.
    pub fn concat<'a>(parts: impl IntoIterator<Item = &'a Data>) -> Data {
        let mut pieces = Vec::new();
        let mut len = 0;
        for part in parts {
            pieces.extend(part.pieces.iter().cloned());
            len += part.len;
        }
        Data {
            pieces: pieces.into(),
            len,
        }
    }

    fn pieces_in(&self, start: u64, end: u64) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut at = 0u64;
        for piece in self.pieces.iter() {
            let len = piece.len();
            let (from, to) = (start.max(at), end.min(at + len));
            if from < to {
                out.push(piece.slice(from - at, to - at));
            }
            at += len;
            if at >= end {
                break;
            }
        }
        out
    }
}

/// A body's bytes as they arrive: gathered into pieces, counted against the budget before
/// each buffer is made, and hashed for the ETag on the way.
#[derive(Debug)]
pub struct Builder {
    ticket: Arc<Ticket>,
    pieces: Vec<Piece>,
    current: BytesMut,
    md5: Md5,
    len: u64,
    /// The most this body may hold (S3's 5 GiB a PUT or part).
    max: u64,
    /// The length the request declared, whose buffers are counted already.
    declared: Option<u64>,
}

impl Builder {
    /// A body of at most `max` bytes, `declared` long if its request says so: its length is
    /// counted at once, so a body the server cannot hold is refused before it is read.
    pub fn new(budget: &Arc<Budget>, declared: Option<u64>, max: u64) -> Result<Builder> {
        if declared.is_some_and(|n| n > max) {
            return Err(too_large(max));
        }
        let ticket = Arc::new(Ticket {
            budget: budget.clone(),
            bytes: AtomicU64::new(0),
        });
        if let Some(n) = declared {
            budget.take(n)?;
            ticket.bytes.store(n, Ordering::Relaxed);
        }
        Ok(Builder {
            ticket,
            pieces: Vec::new(),
            current: BytesMut::new(),
            md5: Md5::new(),
            len: 0,
            max,
            declared,
        })
    }

    /// Adds `chunk`: refused past `max` or past the budget.
    pub fn push(&mut self, mut chunk: &[u8]) -> Result<()> {
        if self.len + chunk.len() as u64 > self.max {
            return Err(too_large(self.max));
        }
        self.md5.update(chunk);
        self.len += chunk.len() as u64;
        while !chunk.is_empty() {
            if self.current.len() == self.current.capacity() {
                self.next_buffer()?;
            }
            let room = self.current.capacity() - self.current.len();
            let (now, rest) = chunk.split_at(room.min(chunk.len()));
            self.current.extend_from_slice(now);
            chunk = rest;
        }
        Ok(())
    }

    /// Hands the full buffer over as a piece and makes the next, sized to what the declared
    /// length leaves (at most a piece).
    fn next_buffer(&mut self) -> Result<()> {
        self.seal();
        let filled = self.pieces.iter().map(Piece::len).sum::<u64>();
        let size = match self.declared {
            Some(n) if filled < n => (n - filled).min(PIECE as u64),
            // Undeclared, or longer than declared: each buffer is counted as it is made.
            _ => {
                self.ticket.budget.take(PIECE as u64)?;
                self.ticket.bytes.fetch_add(PIECE as u64, Ordering::Relaxed);
                PIECE as u64
            }
        };
        self.current = BytesMut::with_capacity(size as usize);
        Ok(())
    }

    fn seal(&mut self) {
        if !self.current.is_empty() {
            self.pieces.push(Piece::Memory {
                bytes: std::mem::take(&mut self.current).freeze(),
                ticket: self.ticket.clone(),
            });
        }
    }

    /// The data and its MD5. A body shorter than its request declared gives back the rest.
    pub fn finish(mut self) -> (Data, [u8; 16]) {
        self.seal();
        let counted = self.ticket.bytes.load(Ordering::Relaxed);
        if counted > self.len {
            self.ticket
                .budget
                .used
                .fetch_sub(counted - self.len, Ordering::AcqRel);
            self.ticket.bytes.store(self.len, Ordering::Relaxed);
        }
        let data = Data {
            pieces: std::mem::take(&mut self.pieces).into(),
            len: self.len,
        };
        (data, self.md5.finalize().into())
    }
}

/// S3's refusal of a body past `max` bytes.
pub fn too_large(max: u64) -> Refusal {
    Refusal::EntityTooLarge(format!(
        "Your proposed upload exceeds the maximum allowed size of {max} bytes."
    ))
}

#[cfg(test)]
#[path = "data_tests.rs"]
mod tests;
