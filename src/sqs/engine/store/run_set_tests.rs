//! Unit tests of the run set, against a plain `BTreeSet` as the model.

use super::*;

/// A small deterministic generator: the point is arbitrary interleavings, not quality.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

fn assert_same(set: &RunSet<u64>, model: &BTreeSet<u64>) {
    assert_eq!(set.first(), model.first().copied());
    assert!(set.iter_after(None).eq(model.iter().copied()));
}

#[test]
fn appends_and_stragglers_read_back_in_order() {
    let mut set = RunSet::default();
    for k in [10, 20, 30, 15, 5, 40, 35] {
        set.insert(k);
    }
    assert_eq!(set.run.len(), 4, "10, 20, 30, 40 were appends");
    assert!(set.iter_after(None).eq([5, 10, 15, 20, 30, 35, 40]));
    assert!(set.iter_after(Some(&15)).eq([20, 30, 35, 40]));
    assert!(set.iter_after(Some(&16)).eq([20, 30, 35, 40]));
    assert_eq!(set.first_after(Some(&30)), Some(35));
    assert_eq!(set.first_after(Some(&40)), None);
    assert_eq!(set.first_after(None), Some(5));
    assert!(set.contains(&15) && set.contains(&20) && !set.contains(&21));
    assert!(set.remove(&5) && set.remove(&20) && !set.remove(&20));
    assert!(set.iter_after(None).eq([10, 15, 30, 35, 40]));
}

#[test]
fn a_removal_deep_inside_moves_the_shorter_side_once() {
    let n = 4 * SHIFT_MAX as u64;
    let mut set = RunSet::default();
    let mut model = BTreeSet::new();
    for k in 0..n {
        set.insert(k);
        model.insert(k);
    }
    let deep = SHIFT_MAX as u64 + 10;
    assert!(set.remove(&deep));
    model.remove(&deep);
    assert_eq!(set.rest.len(), SHIFT_MAX + 10, "the front went to the tree");
    let back = n - SHIFT_MAX as u64 - 10;
    assert!(set.remove(&back));
    model.remove(&back);
    assert_eq!(set.rest.len(), 2 * SHIFT_MAX + 19, "then the back did");
    assert_same(&set, &model);
    set.insert(n);
    model.insert(n);
    assert_eq!(set.run.back(), Some(&n), "appends still go to the ring");
    assert_same(&set, &model);
}

#[test]
fn a_drained_ring_gives_its_memory_back() {
    let mut set = RunSet::default();
    for k in 0..100_000_u64 {
        set.insert(k);
    }
    for k in 0..99_990_u64 {
        set.remove(&k);
    }
    assert!(
        set.run.capacity() <= 4 * KEEP,
        "kept {}",
        set.run.capacity()
    );
    assert!(set.iter_after(None).eq(99_990..100_000));
}

#[test]
fn matches_a_btree_set_under_arbitrary_operations() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut set = RunSet::default();
    let mut model = BTreeSet::new();
    let mut top = 0;
    for round in 0..60_000 {
        let roll = next() % 10;
        if roll < 6 || model.is_empty() {
            // Mostly appends, sometimes an older key that is not filed.
            let key = if next().is_multiple_of(8) {
                next() % (top + 1)
            } else {
                top + 1 + next() % 3
            };
            top = top.max(key);
            if model.insert(key) {
                set.insert(key);
            }
        } else {
            // Mostly near the front, sometimes anywhere, sometimes a key that is not there.
            let len = model.len() as u64;
            let at = if next().is_multiple_of(4) {
                next() % len
            } else {
                next() % len.min(40)
            };
            let pick = *model.iter().nth(at as usize).unwrap();
            let probe = if roll == 9 { pick + 1 } else { pick };
            assert_eq!(set.remove(&probe), model.remove(&probe));
        }
        let probe = next() % (top + 2);
        assert_eq!(set.contains(&probe), model.contains(&probe));
        let after = model.range((Excluded(probe), Unbounded)).next().copied();
        assert_eq!(set.first_after(Some(&probe)), after);
        if round % 997 == 0 {
            assert_same(&set, &model);
            assert!(set
                .iter_after(Some(&probe))
                .eq(model.range((Excluded(probe), Unbounded)).copied()));
        }
    }
    assert_same(&set, &model);
}
