//! Unit tests of the message store, at explicit instants.

use super::*;
use crate::sqs::engine::fixture::stored;

const DAY: Millis = 86_400_000;

#[test]
fn counts_follow_the_clock() {
    let mut s = Store::new(false);
    s.insert(stored("b", 0, 0, None), 0);
    s.insert(stored("b", 0, 5_000, None), 0);
    assert_eq!((s.visible(), s.delayed(), s.in_flight()), (1, 1, 0));
    let (got, _) = s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    assert_eq!(got.len(), 1);
    assert_eq!((s.visible(), s.delayed(), s.in_flight()), (0, 1, 1));
    s.settle(5_000, DAY);
    assert_eq!((s.visible(), s.delayed(), s.in_flight()), (1, 0, 1));
    s.settle(30_000, DAY);
    assert_eq!((s.visible(), s.delayed(), s.in_flight()), (2, 0, 0));
}

#[test]
fn zero_visibility_does_not_return_a_message_twice_in_one_receive() {
    let mut s = Store::new(false);
    s.insert(stored("b", 0, 0, None), 0);
    let (got, _) = s.receive(0, 10, 0, |_| Disposition::Deliver);
    assert_eq!(got.len(), 1);
    assert_eq!(s.visible(), 1);
}

#[test]
fn retention_drops_even_in_flight_messages() {
    let mut s = Store::new(false);
    s.insert(stored("b", 0, 0, None), 0);
    s.receive(0, 1, 100_000, |_| Disposition::Deliver);
    s.settle(60_000, 60_000);
    assert!(s.is_empty());
    assert_eq!(s.in_flight(), 0);
}

#[test]
fn fifo_group_blocks_while_in_flight() {
    let mut s = Store::new(true);
    let a1 = s.insert(stored("b", 0, 0, Some("a")), 0);
    let a2 = s.insert(stored("b", 0, 0, Some("a")), 0);
    let b1 = s.insert(stored("b", 0, 0, Some("b")), 0);
    let (got, _) = s.receive(0, 1, 30_000, |_| Disposition::Deliver);
    assert_eq!(got, vec![a1]);
    let (got, _) = s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    assert_eq!(got, vec![b1]);
    assert!(s
        .receive(0, 10, 30_000, |_| Disposition::Deliver)
        .0
        .is_empty());
    s.remove(a1);
    let (got, _) = s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    assert_eq!(got, vec![a2]);
}

fn take(s: &mut Store, now: Millis, max: usize, visibility_ms: Millis) -> Vec<u64> {
    s.receive(now, max, visibility_ms, |_| Disposition::Deliver)
        .0
}

#[test]
fn fifo_group_returns_its_visible_prefix_up_to_the_first_hidden_message() {
    let mut s = Store::new(true);
    let m: Vec<u64> = (0..3)
        .map(|_| s.insert(stored("b", 0, 0, Some("g")), 0))
        .collect();
    assert_eq!(take(&mut s, 0, 10, 10_000), m);
    s.set_visible_at(m[0], 0, 0);
    assert_eq!(
        take(&mut s, 0, 10, 10_000),
        vec![m[0]],
        "m1 back, m2 still hidden"
    );
    s.set_visible_at(m[1], 60_000, 5_000);
    s.settle(10_000, DAY);
    assert_eq!(
        take(&mut s, 10_000, 10, 10_000),
        vec![m[0]],
        "m3 waits behind m2"
    );
    s.remove(m[0]);
    s.settle(60_000, DAY);
    assert_eq!(take(&mut s, 60_000, 10, 10_000), vec![m[1], m[2]]);
}

#[test]
fn fifo_groups_are_served_by_when_their_head_became_available() {
    let mut s = Store::new(true);
    let g1 = s.insert(stored("b", 0, 0, Some("g1")), 0);
    let g2 = s.insert(stored("b", 0, 0, Some("g2")), 0);
    let g3 = s.insert(stored("b", 0, 0, Some("g3")), 0);
    assert_eq!(take(&mut s, 0, 2, 0), vec![g1, g2]);
    assert_eq!(take(&mut s, 0, 10, 0), vec![g3, g1, g2]);
    // Expiry in deadline order: g2 (at 5 s) before g1 (at 9 s), both before a later send.
    assert_eq!(take(&mut s, 0, 10, 30_000), vec![g3, g1, g2]);
    s.set_visible_at(g1, 9_000, 0);
    s.set_visible_at(g2, 5_000, 0);
    s.remove(g3);
    s.settle(20_000, DAY);
    let g4 = s.insert(stored("b", 20_000, 0, Some("g4")), 20_000);
    assert_eq!(take(&mut s, 20_000, 10, 30_000), vec![g2, g1, g4]);
}

#[test]
fn fifo_receive_takes_several_of_one_group_in_order_and_skips_dead_letters() {
    let mut s = Store::new(true);
    let seqs: Vec<u64> = (0..4)
        .map(|_| s.insert(stored("b", 0, 0, Some("g")), 0))
        .collect();
    let poison = s.get(seqs[0]).unwrap().id;
    let (got, dead) = s.receive(0, 10, 30_000, |m| {
        if m.id == poison {
            Disposition::DeadLetter
        } else {
            Disposition::Deliver
        }
    });
    assert_eq!(got, seqs[1..].to_vec());
    assert_eq!(dead.len(), 1);
}

#[test]
fn fair_queue_favours_quiet_tenants_over_a_noisy_backlog() {
    let mut s = Store::new(false);
    for _ in 0..200 {
        s.insert(stored("b", 0, 0, Some("noisy")), 0);
    }
    let quiet = s.insert(stored("b", 0, 0, Some("quiet")), 0);
    // 30 of the noisy tenant's messages in flight: all there are, and at least 30.
    for _ in 0..3 {
        s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    }
    let (got, _) = s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    assert_eq!(got[0], quiet, "the quiet tenant goes first");
    assert_eq!(got.len(), 10, "the noisy tenant fills the rest");
}

#[test]
fn no_tenant_is_noisy_below_thirty_in_flight() {
    let mut s = Store::new(false);
    for _ in 0..50 {
        s.insert(stored("b", 0, 0, Some("a")), 0);
    }
    let b = s.insert(stored("b", 0, 0, Some("b")), 0);
    s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    let (got, _) = s.receive(0, 10, 30_000, |_| Disposition::Deliver);
    assert!(!got.contains(&b), "plain send order while nobody is noisy");
}

#[test]
fn a_message_costs_little_beyond_its_body() {
    // The struct plus its map slot and index entries; measured, not assumed (see docs/src/performance.md).
    let size = std::mem::size_of::<Message>();
    println!("Message is {size} bytes");
    assert!(size <= 144, "Message grew to {size} bytes");
}

#[test]
fn deadlines_near_the_end_of_time_saturate_instead_of_wrapping() {
    let end = Millis::MAX - 10;
    let mut s = Store::new(false);
    s.insert(stored("b", end, 900_000, None), end);
    s.insert(stored("b", end, 0, None), end);
    assert_eq!(
        (s.visible(), s.delayed()),
        (1, 1),
        "a wrapped delay would be visible"
    );
    let (got, _) = s.receive(end, 10, 43_200_000, |_| Disposition::Deliver);
    assert_eq!(got.len(), 1);
    s.settle(end + 5, DAY);
    assert_eq!((s.visible(), s.delayed(), s.in_flight()), (0, 1, 1));
    let (again, _) = s.receive(end + 5, 10, 30_000, |_| Disposition::Deliver);
    assert!(
        again.is_empty(),
        "a wrapped visibility deadline would redeliver at once"
    );
}
