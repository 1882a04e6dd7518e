//! The scanner's own tests: chunk boundaries, torn tails, and damage in every field of a
//! frame at the start, middle and end of a file, in both modes and both versions.

use super::*;

const START: u64 = 24;

fn records(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("record number {i}").into_bytes())
        .collect()
}

fn file(records: &[Vec<u8>], encode: fn(&[u8], &mut Vec<u8>)) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    for r in records {
        starts.push(out.len());
        encode(r, &mut out);
    }
    (out, starts)
}

fn run(bytes: &[u8], version: u32, mode: Mode, chunk: usize) -> (Vec<Vec<u8>>, FileScan) {
    let mut got = Vec::new();
    let s = scan_chunks(Reader::new(bytes, START, chunk), version, mode, |p| {
        got.push(p.to_vec());
        Ok(())
    })
    .unwrap()
    .unwrap();
    (got, s)
}

#[test]
fn chunks_of_any_size_see_what_one_read_does() {
    let (mut bytes, starts) = file(&records(5), frame::encode);
    bytes[starts[2] + 1] ^= 0x40; // a damaged length: found again by resynchronising
    bytes.extend_from_slice(&[9, 0, 0]); // and a torn tail
    let whole = run(&bytes, 2, Mode::Repair, 1 << 20);
    for chunk in [1, 2, 7, 12, 13, 64] {
        assert_eq!(run(&bytes, 2, Mode::Repair, chunk), whole, "chunk {chunk}");
    }
    assert_eq!(whole.0.len(), 4);
    assert_eq!(whole.1.torn, Some(START + bytes.len() as u64 - 3));
}

#[test]
fn an_incomplete_last_record_is_a_torn_tail_and_nothing_else_is() {
    let (bytes, starts) = file(&records(3), frame::encode);
    for cut in starts[2] + 1..bytes.len() {
        let (got, s) = run(&bytes[..cut], 2, Mode::Strict, 1 << 20);
        assert_eq!((got.len(), s.gaps.len()), (2, 0), "cut at {cut}");
        assert_eq!(s.torn, Some(START + starts[2] as u64));
        assert_eq!(s.valid_end, START + starts[2] as u64);
    }
    let (got, s) = run(&bytes, 2, Mode::Strict, 1 << 20);
    assert_eq!((got.len(), s.torn, s.gaps.len()), (3, None, 0));
}

/// Flips one bit in the length, the length's checksum, the contents' checksum and the
/// payload of the first, a middle and the last record.
#[test]
fn one_flipped_bit_anywhere_loses_one_record_to_a_repair_and_stops_a_strict_scan() {
    let all = records(9);
    let (bytes, starts) = file(&all, frame::encode);
    for victim in [0, 4, 8] {
        for (field, at) in [
            ("length", 1),
            ("length crc", 6),
            ("crc", 9),
            ("payload", 14),
        ] {
            let mut damaged = bytes.clone();
            damaged[starts[victim] + at] ^= 0x08;
            let case = format!("record {victim}, {field}");
            let (got, s) = run(&damaged, 2, Mode::Strict, 1 << 20);
            assert_eq!(got, all[..victim], "{case}");
            let gap = s.gaps[0];
            assert_eq!(gap.offset, START + starts[victim] as u64, "{case}");
            assert_eq!(gap.bytes as usize, all[victim].len() + 12, "{case}");
            assert_eq!((s.before_damage, s.after_damage), (victim, 8 - victim));
            let (got, s) = run(&damaged, 2, Mode::Repair, 1 << 20);
            let mut expected = all.clone();
            expected.remove(victim);
            assert_eq!(got, expected, "{case}");
            assert_eq!((s.lost_records(), s.torn), (1, None), "{case}");
        }
    }
}

#[test]
fn a_version_1_file_is_read_and_its_damage_loses_the_rest() {
    let all = records(4);
    let (bytes, starts) = file(&all, frame::encode_v1);
    assert_eq!(run(&bytes, 1, Mode::Strict, 1 << 20).0, all);
    let mut damaged = bytes.clone();
    damaged[starts[1] + 10] ^= 1;
    let (got, s) = run(&damaged, 1, Mode::Repair, 1 << 20);
    assert_eq!(got, all[..1]);
    assert_eq!(s.gaps[0].bytes as usize, bytes.len() - starts[1]);
    // Version 1 cannot tell a damaged length from a torn write: both run past the end.
    let (got, s) = run(&bytes[..bytes.len() - 2], 1, Mode::Strict, 1 << 20);
    assert_eq!((got.len(), s.torn.is_some()), (3, true));
}

#[test]
fn a_record_that_cannot_be_applied_stops_a_strict_scan_and_is_counted_by_a_repair() {
    let (bytes, _) = file(&records(3), frame::encode);
    let refuse = |p: &[u8]| {
        if p.ends_with(b"1") {
            Err("no such thing".to_owned())
        } else {
            Ok(())
        }
    };
    let strict = scan(&bytes[..], 2, START, Mode::Strict, refuse).unwrap();
    assert_eq!(strict, Err("no such thing".to_owned()));
    let repaired = scan(&bytes[..], 2, START, Mode::Repair, refuse)
        .unwrap()
        .unwrap();
    assert_eq!((repaired.replayed, repaired.lost_records()), (2, 1));
}

#[test]
fn zeros_to_the_end_are_a_torn_tail_and_zeros_before_a_record_are_damage() {
    let (mut bytes, starts) = file(&records(3), frame::encode);
    let end = bytes.len();
    bytes.extend_from_slice(&[0; 4096]);
    for chunk in [1, 13, 1 << 20] {
        let (got, s) = run(&bytes, 2, Mode::Strict, chunk);
        assert_eq!((got.len(), s.gaps.len()), (3, 0), "chunk {chunk}");
        assert_eq!(s.torn, Some(START + end as u64));
    }
    let mut zeros_then_record = bytes[..starts[1]].to_vec();
    zeros_then_record.extend_from_slice(&[0; 64]);
    zeros_then_record.extend_from_slice(&bytes[starts[1]..end]);
    let (got, s) = run(&zeros_then_record, 2, Mode::Strict, 1 << 20);
    assert_eq!((got.len(), s.gaps.len(), s.torn), (1, 1, None));
}
