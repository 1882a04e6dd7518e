//! Message groups beside the store: each group's members in send order, and, on FIFO queues,
//! the order in which receivable groups are served.
//!
//! SQS serves FIFO groups by when their head became available (sent, or visible again), so a
//! group that was just received goes to the back. Each time a group becomes receivable it
//! draws a ticket from a counter; the receivable groups sit in a map by ticket. Every change
//! to a group's head happens under the queue lock after the store has settled to `now`, and
//! settling files expired deadlines in deadline order, so ticket order is the order in which
//! heads became available, without a timestamp in the key.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Bound::{Excluded, Unbounded};
use std::sync::Arc;

use rustc_hash::FxBuildHasher;

/// One message group (MessageGroupId): its members and, on FIFO queues, its place in the serving
/// order.
#[derive(Debug, Default)]
pub struct Group {
    /// The group's messages by sequence number: its order.
    pub members: BTreeSet<u64>,
    /// Members in flight (fair queues count them to spot a noisy tenant).
    pub in_flight: u32,
    /// The group's place among the receivable groups, while its head is visible.
    ticket: Option<u64>,
}

/// A queue's groups; boxed on the first message with a MessageGroupId, so the many queues
/// that never see one carry 8 bytes instead of 64.
#[derive(Debug, Default)]
pub struct Groups(Option<Box<Table>>);

/// The groups of a queue that has seen a MessageGroupId, behind [`Groups`]' box.
#[derive(Debug, Default)]
struct Table {
    /// Every group by MessageGroupId.
    map: HashMap<Arc<str>, Group, FxBuildHasher>,
    /// Receivable FIFO groups by ticket: earliest available first.
    receivable: BTreeMap<u64, Arc<str>>,
    /// The ticket the next group to become receivable gets.
    next_ticket: u64,
}

impl Groups {
    /// Whether no group has a member (also true before the first MessageGroupId).
    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(|t| t.is_empty())
    }

    /// The group named by MessageGroupId `group`, if it has members.
    pub fn get(&self, group: &str) -> Option<&Group> {
        self.0.as_ref()?.get(group)
    }

    /// The group `group`, to count its members in flight.
    pub fn get_mut(&mut self, group: &str) -> Option<&mut Group> {
        self.0.as_mut()?.get_mut(group)
    }

    /// Files message `seq` last in `group`, making the group (and the table) on its first member.
    pub fn add(&mut self, group: &Arc<str>, seq: u64) {
        self.0.get_or_insert_with(Box::default).add(group, seq);
    }

    /// Takes `seq` out of its group; forgets the group once it is empty.
    pub fn remove(&mut self, group: &str, seq: u64) {
        if let Some(t) = self.0.as_mut() {
            t.remove(group, seq);
        }
    }

    /// The group's oldest member: on a FIFO queue, where a receive of the group starts.
    pub fn head(&self, group: &str) -> Option<u64> {
        self.0.as_ref()?.head(group)
    }

    /// The member after `seq` in send order.
    pub fn next(&self, group: &str, seq: u64) -> Option<u64> {
        self.0.as_ref()?.next(group, seq)
    }

    /// Files the group as receivable (keeping its place if it already was) or not.
    pub fn set_receivable(&mut self, group: &str, receivable: bool) {
        if let Some(t) = self.0.as_mut() {
            t.set_receivable(group, receivable);
        }
    }

    /// The ticket the next group to become receivable will draw: a receive notes it first and
    /// serves only groups ahead of it, so a group it re-files (VisibilityTimeout 0) waits.
    pub fn mark(&self) -> u64 {
        self.0.as_ref().map_or(0, |t| t.next_ticket)
    }

    /// The first receivable group at or after ticket `from` and before `until`.
    pub fn next_receivable(&self, from: u64, until: u64) -> Option<(u64, Arc<str>)> {
        self.0.as_ref()?.next_receivable(from, until)
    }

    /// How many FIFO groups have a visible head right now.
    pub fn receivable_count(&self) -> usize {
        self.0.as_ref().map_or(0, |t| t.receivable.len())
    }
}

/// The groups themselves, behind [`Groups`]' box.
impl Table {
    /// See [`Groups::is_empty`].
    fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// See [`Groups::get`].
    fn get(&self, group: &str) -> Option<&Group> {
        self.map.get(group)
    }

    /// See [`Groups::get_mut`].
    fn get_mut(&mut self, group: &str) -> Option<&mut Group> {
        self.map.get_mut(group)
    }

    /// See [`Groups::add`].
    fn add(&mut self, group: &Arc<str>, seq: u64) {
        self.map
            .entry(group.clone())
            .or_default()
            .members
            .insert(seq);
    }

    /// See [`Groups::remove`]: an emptied group also leaves the receivable order.
    fn remove(&mut self, group: &str, seq: u64) {
        let Some(g) = self.map.get_mut(group) else {
            return;
        };
        g.members.remove(&seq);
        if g.members.is_empty() {
            if let Some(t) = g.ticket {
                self.receivable.remove(&t);
            }
            self.map.remove(group);
        }
    }

    /// See [`Groups::head`].
    fn head(&self, group: &str) -> Option<u64> {
        self.map.get(group)?.members.first().copied()
    }

    /// See [`Groups::next`].
    fn next(&self, group: &str, seq: u64) -> Option<u64> {
        let g = self.map.get(group)?;
        g.members.range((Excluded(seq), Unbounded)).next().copied()
    }

    /// See [`Groups::set_receivable`]: a group becoming receivable draws the next ticket.
    fn set_receivable(&mut self, group: &str, receivable: bool) {
        let Some(g) = self.map.get_mut(group) else {
            return;
        };
        match (receivable, g.ticket) {
            (true, None) => {
                let ticket = self.next_ticket;
                self.next_ticket += 1;
                g.ticket = Some(ticket);
                let name = self.map.get_key_value(group).map(|(k, _)| k.clone());
                if let Some(name) = name {
                    self.receivable.insert(ticket, name);
                }
            }
            (false, Some(t)) => {
                g.ticket = None;
                self.receivable.remove(&t);
            }
            _ => {}
        }
    }

    /// See [`Groups::next_receivable`].
    fn next_receivable(&self, from: u64, until: u64) -> Option<(u64, Arc<str>)> {
        self.receivable
            .range(from..until)
            .next()
            .map(|(t, g)| (*t, g.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_keeps_its_place_until_it_stops_being_receivable() {
        let mut g = Groups::default();
        let (a, b): (Arc<str>, Arc<str>) = (Arc::from("a"), Arc::from("b"));
        g.add(&a, 1);
        g.add(&b, 2);
        g.set_receivable("a", true);
        g.set_receivable("b", true);
        g.set_receivable("a", true);
        assert_eq!(g.next_receivable(0, u64::MAX).unwrap().1, a);
        g.set_receivable("a", false);
        g.set_receivable("a", true);
        let (t, first) = g.next_receivable(0, u64::MAX).unwrap();
        assert_eq!(first, b, "a re-filed group goes behind the waiting one");
        assert_eq!(g.next_receivable(t + 1, u64::MAX).unwrap().1, a);
        g.remove("a", 1);
        assert_eq!(g.receivable_count(), 1);
        assert!(g.get("a").is_none());
    }
}
