//! The decoder against AWS's documented example (SigV4 streaming, "Example: PUT Object") and
//! against frames split anywhere.

use bytes::Bytes;
use s3s::S3ErrorCode;

use super::Decoder;
use crate::http::auth::sigv4::Chain;
use crate::http::auth::Signed;

/// The example's request: its key, scope and seed signature.
fn example_chain() -> Chain {
    let signed = Signed {
        access_key: "AKIAIOSFODNN7EXAMPLE".into(),
        scope: "20130524/us-east-1/s3/aws4_request".into(),
        scope_date: "20130524".into(),
        region: "us-east-1".into(),
        service: "s3".into(),
        terminator: "aws4_request".into(),
        headers: Vec::new(),
        signature: "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9".into(),
        amz_date: "20130524T000000Z".into(),
        expires: None,
        presigned: false,
    };
    Chain::new("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", &signed)
}

/// The example's body: 64 KiB and 1 KiB of `a`, then the last chunk.
fn example_body(first_signature: &str) -> Vec<u8> {
    let mut body = Vec::new();
    body.extend_from_slice(format!("10000;chunk-signature={first_signature}\r\n").as_bytes());
    body.extend_from_slice(&vec![b'a'; 65_536]);
    body.extend_from_slice(b"\r\n400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n");
    body.extend_from_slice(&[b'a'; 1024]);
    body.extend_from_slice(b"\r\n0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n");
    body
}

const FIRST: &str = "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648";

/// Feeds `body` in frames of `size` bytes; the data decoded, or the error's code.
fn decode(decoder: &mut Decoder, body: &[u8], size: usize) -> Result<Vec<u8>, S3ErrorCode> {
    let mut out = Vec::new();
    for frame in body.chunks(size) {
        decoder
            .feed(Bytes::copy_from_slice(frame), &mut out)
            .map_err(|e| e.code().clone())?;
    }
    decoder.finish().map_err(|e| e.code().clone())?;
    Ok(out.concat())
}

#[test]
fn awss_example_verifies_however_it_is_framed() {
    for size in [1, 7, 4096, 1 << 20] {
        let mut decoder = Decoder::new(66_560, false, Some(example_chain()));
        let data = decode(&mut decoder, &example_body(FIRST), size).unwrap();
        assert_eq!(data, vec![b'a'; 66_560], "frames of {size}");
    }
    let mut unchecked = Decoder::new(66_560, false, None);
    let body = example_body(&"0".repeat(64));
    assert_eq!(decode(&mut unchecked, &body, 999).unwrap().len(), 66_560);
}

#[test]
fn a_changed_byte_or_signature_breaks_the_chain() {
    let mut body = example_body(FIRST);
    body[100] = b'b';
    let mut decoder = Decoder::new(66_560, false, Some(example_chain()));
    assert_eq!(
        decode(&mut decoder, &body, 4096),
        Err(S3ErrorCode::SignatureDoesNotMatch)
    );
    let forged = example_body(&"0".repeat(64));
    let mut decoder = Decoder::new(66_560, false, Some(example_chain()));
    assert_eq!(
        decode(&mut decoder, &forged, 4096),
        Err(S3ErrorCode::SignatureDoesNotMatch)
    );
}

#[test]
fn an_unsigned_body_with_a_trailer() {
    let body = b"5\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n";
    for size in [1, 3, 100] {
        let mut decoder = Decoder::new(11, true, None);
        assert_eq!(decode(&mut decoder, body, size).unwrap(), b"hello world");
        let trailer = ("x-amz-checksum-crc32".to_owned(), "DUoRhQ==".to_owned());
        assert_eq!(decoder.trailers, [trailer]);
    }
}

#[test]
fn a_body_must_hold_what_it_declares() {
    let body = b"5\r\nhello\r\n0\r\n\r\n";
    let short = decode(&mut Decoder::new(6, false, None), body, 4);
    assert_eq!(short, Err(S3ErrorCode::IncompleteBody));
    let long = decode(&mut Decoder::new(4, false, None), body, 4);
    assert_eq!(long, Err(S3ErrorCode::IncompleteBody));
    let cut = decode(&mut Decoder::new(5, false, None), &body[..9], 4);
    assert_eq!(cut, Err(S3ErrorCode::IncompleteBody));
    let overrun = decode(
        &mut Decoder::new(5, false, None),
        b"5\r\nhello!!\r\n0\r\n\r\n",
        4,
    );
    assert_eq!(overrun, Err(S3ErrorCode::IncompleteBody));
    let junk = decode(&mut Decoder::new(5, false, None), b"zz\r\n", 4);
    assert_eq!(junk, Err(S3ErrorCode::IncompleteBody));
}
