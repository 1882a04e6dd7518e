//! The `aws-chunked` body encoding (SigV4 streaming, "Transferring Payload in Multiple
//! Chunks"): `<hex size>[;chunk-signature=<sig>]\r\n<data>\r\n` chunks up to a zero-size one,
//! then, with a trailer, `name:value\r\n` lines (a signed trailer last
//! `x-amz-trailer-signature:<sig>`) and an empty line. Decoded as frames arrive: the data is
//! handed on as slices of the frames, never gathered; each chunk's signature is checked against
//! the chain from the request's own when the server verifies callers, and read past unchecked
//! when it does not (any signature is accepted then, as everywhere).

use bytes::Bytes;
use s3s::{S3Error, S3ErrorCode};
use sha2::{Digest, Sha256};

use crate::http::auth::sigv4::Chain;

/// A chunk header or trailer line longer than this is no chunk encoding.
const MAX_LINE: usize = 4096;

/// What is read next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A chunk's size line.
    Size,
    /// This many more bytes of the chunk's data.
    Data(u64),
    /// The CRLF after a chunk's data.
    DataEnd,
    /// The CRLF after the last (zero-size) chunk, when no trailer follows.
    LastEnd,
    /// A trailer line, or the empty line that ends the body.
    Trailer,
    /// Nothing: the body is over.
    Done,
}

/// The decoder of one body.
pub struct Decoder {
    next: Next,
    /// A line read so far across frames.
    line: Vec<u8>,
    /// The chain chunk signatures are checked against; `None` reads them unchecked.
    chain: Option<Chain>,
    /// The current chunk's data hash, when its signature is checked.
    hash: Sha256,
    /// The current chunk's signature.
    signature: String,
    /// Whether the body ends with a trailer.
    trailer: bool,
    /// The trailer's lines as signed (`name:value\n`), and its signature.
    trailer_lines: Vec<u8>,
    trailer_signature: String,
    /// The trailer's headers (the checksum it carries), names lower-case.
    pub trailers: Vec<(String, String)>,
    /// Data bytes decoded, and how many the request declared.
    decoded: u64,
    declared: u64,
}

fn incomplete(message: &str) -> S3Error {
    S3Error::with_message(S3ErrorCode::IncompleteBody, message.to_owned())
}

fn mismatch() -> S3Error {
    S3Error::with_message(
        S3ErrorCode::SignatureDoesNotMatch,
        crate::http::auth::SIGNATURE_MISMATCH,
    )
}

impl Decoder {
    /// A decoder of a body of `declared` data bytes (`x-amz-decoded-content-length`), with a
    /// trailer or not, checking chunk signatures against `chain` if given.
    pub fn new(declared: u64, trailer: bool, chain: Option<Chain>) -> Decoder {
        Decoder {
            next: Next::Size,
            line: Vec::new(),
            chain,
            hash: Sha256::new(),
            signature: String::new(),
            trailer,
            trailer_lines: Vec::new(),
            trailer_signature: String::new(),
            trailers: Vec::new(),
            decoded: 0,
            declared,
        }
    }

    /// Decodes what `input` holds, pushing the data it carries to `out`.
    pub fn feed(&mut self, mut input: Bytes, out: &mut Vec<Bytes>) -> Result<(), S3Error> {
        while !input.is_empty() {
            match self.next {
                Next::Data(left) => {
                    let take = left.min(input.len() as u64);
                    let data = input.split_to(take as usize);
                    if self.chain.is_some() {
                        self.hash.update(&data);
                    }
                    self.decoded += take;
                    out.push(data);
                    self.next = match left - take {
                        0 => Next::DataEnd,
                        more => Next::Data(more),
                    };
                }
                Next::Done => return Err(incomplete("The body continues past its last chunk.")),
                _ => {
                    if let Some(line) = self.take_line(&mut input)? {
                        self.line_read(&line)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that the body ended where it should: after its last chunk (and trailer), with
    /// as many bytes as declared.
    pub fn finish(&self) -> Result<(), S3Error> {
        if self.next == Next::Done && self.decoded == self.declared {
            Ok(())
        } else {
            Err(incomplete(
                "You did not provide the number of bytes specified by the \
                 x-amz-decoded-content-length HTTP header.",
            ))
        }
    }

    /// The next whole line from `input` (without its CRLF), or `None` when it continues in the
    /// next frame.
    fn take_line(&mut self, input: &mut Bytes) -> Result<Option<Vec<u8>>, S3Error> {
        let Some(at) = input.iter().position(|b| *b == b'\n') else {
            self.line.extend_from_slice(input);
            *input = Bytes::new();
            return self.bounded().map(|()| None);
        };
        self.line.extend_from_slice(&input.split_to(at + 1));
        self.bounded()?;
        let mut line = std::mem::take(&mut self.line);
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        Ok(Some(line))
    }

    fn bounded(&self) -> Result<(), S3Error> {
        if self.line.len() > MAX_LINE {
            return Err(incomplete(
                "A chunk header is longer than any chunk encoding's.",
            ));
        }
        Ok(())
    }

    fn line_read(&mut self, line: &[u8]) -> Result<(), S3Error> {
        let end = |next| {
            if line.is_empty() {
                Ok(next)
            } else {
                Err(incomplete("A chunk's data is longer than its size says."))
            }
        };
        self.next = match self.next {
            Next::Size => self.size_line(line)?,
            Next::DataEnd => {
                self.check_chunk()?;
                end(Next::Size)?
            }
            Next::LastEnd => end(Next::Done)?,
            Next::Trailer => self.trailer_line(line)?,
            next @ (Next::Data(_) | Next::Done) => next,
        };
        Ok(())
    }

    /// `<hex size>[;chunk-signature=<sig>]`: the chunk's data next, or after the last
    /// (zero-size) chunk, whose signature is checked at once, its trailer or its CRLF.
    fn size_line(&mut self, line: &[u8]) -> Result<Next, S3Error> {
        let text =
            std::str::from_utf8(line).map_err(|_| incomplete("A chunk size is not text."))?;
        let (size, extensions) = text.split_once(';').unwrap_or((text, ""));
        let size = u64::from_str_radix(size.trim(), 16)
            .map_err(|_| incomplete("A chunk size is not a hexadecimal number."))?;
        extensions
            .split(';')
            .find_map(|e| e.trim().strip_prefix("chunk-signature="))
            .unwrap_or_default()
            .clone_into(&mut self.signature);
        if self.decoded.saturating_add(size) > self.declared {
            return Err(incomplete(
                "The chunks hold more than x-amz-decoded-content-length says.",
            ));
        }
        if size > 0 {
            return Ok(Next::Data(size));
        }
        self.check_chunk()?;
        Ok(if self.trailer {
            Next::Trailer
        } else {
            Next::LastEnd
        })
    }

    /// The chunk just read against its signature, when signatures are checked.
    fn check_chunk(&mut self) -> Result<(), S3Error> {
        let hash = std::mem::replace(&mut self.hash, Sha256::new()).finalize();
        let broken = self
            .chain
            .as_mut()
            .is_some_and(|chain| !chain.chunk(&hash, &self.signature));
        if broken {
            Err(mismatch())
        } else {
            Ok(())
        }
    }

    /// A trailer line: a header, its signature, or the empty line that ends the body.
    fn trailer_line(&mut self, line: &[u8]) -> Result<Next, S3Error> {
        if line.is_empty() {
            let (lines, signature) = (&self.trailer_lines, &self.trailer_signature);
            let broken = self
                .chain
                .as_mut()
                .is_some_and(|chain| !chain.trailer(lines, signature));
            return if broken {
                Err(mismatch())
            } else {
                Ok(Next::Done)
            };
        }
        let text = String::from_utf8_lossy(line);
        let (name, value) = text
            .split_once(':')
            .ok_or_else(|| incomplete("A trailer line is not a header."))?;
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
        if name == "x-amz-trailer-signature" {
            self.trailer_signature = value;
        } else {
            self.trailer_lines
                .extend_from_slice(format!("{name}:{value}\n").as_bytes());
            self.trailers.push((name, value));
        }
        Ok(Next::Trailer)
    }
}

#[cfg(test)]
#[path = "chunked_tests.rs"]
mod tests;
