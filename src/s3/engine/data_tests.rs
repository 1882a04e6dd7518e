//! The buffers' sharing and counting.

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
