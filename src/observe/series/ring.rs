//! A bounded ring of time-stamped points, at most one per sampling slot of the server clock:
//! a reading in a slot that already has a point replaces it (the newest state wins), and the
//! points older than the window, or beyond the capacity, are dropped oldest first.

use std::collections::VecDeque;

use crate::clock::Millis;

use super::{CAPACITY, INTERVAL_MS, WINDOW_MS};

/// The slot an instant falls in: slots are aligned on the server clock's epoch, so the same
/// instants fall in the same slots whoever samples.
pub(crate) fn slot(t: Millis) -> Millis {
    t / INTERVAL_MS
}

/// One series' points, oldest first.
#[derive(Debug)]
pub(crate) struct Ring<T> {
    points: VecDeque<(Millis, T)>,
}

impl<T> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            points: VecDeque::new(),
        }
    }
}

impl<T> Ring<T> {
    /// Records `value` as read at `now`, replacing the point of the same slot. A reading older
    /// than the newest point (a clock set back) is dropped: a series only moves forward.
    pub(crate) fn put(&mut self, now: Millis, value: T) {
        match self.points.back_mut() {
            Some((t, _)) if *t > now => return,
            Some((t, v)) if slot(*t) == slot(now) => {
                (*t, *v) = (now, value);
                return;
            }
            _ => {}
        }
        self.push(now, value);
    }

    /// Changes the point of `now`'s slot (stamped with the slot's start), made from
    /// `T::default()` when the slot has none yet: counters that add up within a slot.
    pub(crate) fn update(&mut self, now: Millis, change: impl FnOnce(&mut T))
    where
        T: Default,
    {
        let start = slot(now) * INTERVAL_MS;
        match self.points.back_mut() {
            Some((t, v)) if *t == start => change(v),
            Some((t, _)) if *t > start => {}
            _ => {
                let mut value = T::default();
                change(&mut value);
                self.push(start, value);
            }
        }
    }

    fn push(&mut self, t: Millis, value: T) {
        if self.points.len() == CAPACITY {
            self.points.pop_front();
        }
        self.points.push_back((t, value));
        self.trim(t);
    }

    /// Drops the points that have left the window ending at `now`.
    pub(crate) fn trim(&mut self, now: Millis) {
        let from = now.saturating_sub(WINDOW_MS);
        while self.points.front().is_some_and(|(t, _)| *t < from) {
            self.points.pop_front();
        }
    }

    /// Whether every point has left the window ending at `now`.
    pub(crate) fn stale(&self, now: Millis) -> bool {
        self.points
            .back()
            .is_none_or(|(t, _)| *t < now.saturating_sub(WINDOW_MS))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &(Millis, T)> {
        self.points.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times<T>(r: &Ring<T>) -> Vec<Millis> {
        r.iter().map(|(t, _)| *t).collect()
    }

    #[test]
    fn one_point_per_slot_the_newest_reading_wins() {
        let mut r = Ring::default();
        r.put(10_000, 1);
        r.put(10_500, 2);
        r.put(12_000, 3);
        r.put(11_000, 9);
        assert_eq!(
            r.iter().copied().collect::<Vec<_>>(),
            [(10_500, 2), (12_000, 3)]
        );
    }

    #[test]
    fn the_window_and_the_capacity_bound_it() {
        let mut r = Ring::default();
        r.put(0, 0);
        r.put(WINDOW_MS + INTERVAL_MS, 1);
        assert_eq!(times(&r), [WINDOW_MS + INTERVAL_MS]);
        let mut r = Ring::default();
        for i in 0..(CAPACITY as u64 + 5) {
            r.put(i * INTERVAL_MS, i);
        }
        assert!(r.iter().count() <= CAPACITY);
        assert!(!r.stale((CAPACITY as u64 + 4) * INTERVAL_MS));
    }

    #[test]
    fn counters_add_up_within_a_slot() {
        let mut r: Ring<u64> = Ring::default();
        r.update(10_100, |n| *n += 1);
        r.update(11_900, |n| *n += 2);
        r.update(12_000, |n| *n += 5);
        assert_eq!(
            r.iter().copied().collect::<Vec<_>>(),
            [(10_000, 3), (12_000, 5)]
        );
    }
}
