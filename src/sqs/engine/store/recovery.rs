//! Recovery's writes to a store: messages and delivery states read back from the data
//! directory, filed under the sequence numbers they had.

use super::Store;
use crate::clock::Millis;
use crate::sqs::engine::message::Message;

impl Store {
    /// Recovery: never hand out a slot an earlier message (and its receipt handles) had.
    pub fn raise_next_seq(&mut self, next: u64) {
        self.next_seq = self.next_seq.max(next);
    }

    /// Recovery: files `msg` under the slot it had, replacing whatever is there.
    pub fn restore(&mut self, seq: u64, msg: Message, now: Millis) {
        self.remove(seq);
        self.by_age.insert((msg.enqueued_at, seq));
        if let Some(group) = &msg.group_id {
            self.groups.add(group, seq);
        }
        self.msgs.insert(seq, msg);
        self.enter(seq, now);
        self.raise_next_seq(seq + 1);
    }

    /// Recovery: a message's delivery state as a receive or visibility change left it.
    pub fn set_delivery(&mut self, d: &crate::sqs::engine::mutation::Delivery, now: Millis) {
        if !self.msgs.contains(d.seq) {
            return;
        }
        self.leave(d.seq);
        if let Some(m) = self.msgs.get_mut(d.seq) {
            m.receive_count = d.receive_count;
            m.first_received_at = d.first_received_at;
            m.last_receive_offset = d.last_receive_offset;
            m.visible_at = d.visible_at;
        }
        self.enter(d.seq, now);
    }
}
