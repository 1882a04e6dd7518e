//! Objects' bytes in memory: gathered from a body as it arrives into pieces of at most
//! [`PIECE`] bytes, each buffer kept as it was filled. A GET, a range, a copy and a multipart
//! completion share those buffers rather than copy them; what the server holds is counted
//! against one bound (`--s3-max-bytes`) until the last object or part sharing a buffer is
//! gone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use md5::{Digest, Md5};

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

/// One buffer of an object, and the ticket its memory is counted on.
#[derive(Debug, Clone)]
struct Piece {
    bytes: Bytes,
    /// Held for its count: the buffer is given back when the last piece holding it goes.
    ticket: Arc<Ticket>,
}

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

    /// The bytes from `start` to `end` (exclusive), as slices of its buffers.
    pub fn chunks(&self, start: u64, end: u64) -> Vec<Bytes> {
        self.pieces_in(start, end)
            .into_iter()
            .map(|p| p.bytes)
            .collect()
    }

    /// The bytes from `start` to `end` (exclusive) as data of their own, sharing the buffers.
    pub fn slice(&self, start: u64, end: u64) -> Data {
        let pieces: Arc<[Piece]> = self.pieces_in(start, end).into();
        Data {
            len: pieces.iter().map(|p| p.bytes.len() as u64).sum(),
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
            let len = piece.bytes.len() as u64;
            let (from, to) = (start.max(at), end.min(at + len));
            if from < to {
                let bytes = piece.bytes.slice((from - at) as usize..(to - at) as usize);
                out.push(Piece {
                    bytes,
                    ticket: piece.ticket.clone(),
                });
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
        let filled = self
            .pieces
            .iter()
            .map(|p| p.bytes.len() as u64)
            .sum::<u64>();
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
            self.pieces.push(Piece {
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

fn too_large(max: u64) -> Refusal {
    Refusal::EntityTooLarge(format!(
        "Your proposed upload exceeds the maximum allowed size of {max} bytes."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(budget: &Arc<Budget>, declared: Option<u64>, chunks: &[&[u8]]) -> Data {
        let mut builder = Builder::new(budget, declared, 1 << 40).unwrap();
        for chunk in chunks {
            builder.push(chunk).unwrap();
        }
        builder.finish().0
    }

    #[test]
    fn pieces_share_their_buffers_and_count_until_the_last_is_gone() {
        let budget = Budget::new(10 * PIECE as u64);
        let big = vec![7u8; PIECE + 10];
        let data = built(&budget, Some(big.len() as u64), &[&big[..5], &big[5..]]);
        assert_eq!(
            (data.len(), budget.used()),
            (big.len() as u64, big.len() as u64)
        );
        assert_eq!(data.chunks(0, data.len()).concat(), big);
        let tail = data.slice(PIECE as u64 - 2, PIECE as u64 + 3);
        assert_eq!(tail.chunks(0, tail.len()).concat(), vec![7u8; 5]);
        let twice = Data::concat([&data, &tail]);
        assert_eq!(twice.len(), big.len() as u64 + 5);
        drop((data, tail));
        assert_eq!(budget.used(), big.len() as u64, "shared with `twice`");
        drop(twice);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn undeclared_bodies_count_each_buffer_and_give_back_the_rest() {
        let budget = Budget::new(2 * PIECE as u64);
        let data = built(&budget, None, &[b"abc", b"def"]);
        assert_eq!(data.chunks(1, 5).concat(), b"bcde");
        assert_eq!(budget.used(), 6);
        let mut over = Builder::new(&budget, None, 1 << 40).unwrap();
        over.push(&vec![0; PIECE]).unwrap();
        assert!(matches!(
            over.push(&vec![0; PIECE]),
            Err(Refusal::EntityTooLarge(_))
        ));
        drop(over);
        assert_eq!(budget.used(), 6);
        assert!(Builder::new(&budget, Some(2 * PIECE as u64), 1 << 40).is_err());
        assert!(matches!(
            Builder::new(&budget, Some(11), 10),
            Err(Refusal::EntityTooLarge(_))
        ));
    }
}
