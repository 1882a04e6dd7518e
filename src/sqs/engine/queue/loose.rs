//! A queue's at-least-once delivery (`sqs::engine::at_least_once`): its mode and dice, and
//! the three places they act under the queue's lock (a receive, a delete, a count read).
//! Every change they make to messages goes through the ledger, so it is recorded as any
//! other.

use std::sync::atomic::Ordering;
use std::sync::PoisonError;

use super::{Ledger, Queue, QueueState};
use crate::clock::Millis;
use crate::sqs::engine::at_least_once::{DeliverySettings, Dice, Mode};
use crate::sqs::error::{SqsError, SqsResult};

/// A queue's delivery as the admin API shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryView {
    /// Its own mode, when it has one rather than the server's.
    pub own: Option<Mode>,
    /// The mode in force.
    pub mode: Mode,
}

impl Queue {
    /// The queue's delivery mode, its own and the one in force.
    pub fn delivery(&self) -> DeliveryView {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        DeliveryView {
            own: state.own_delivery,
            mode: if state.dice.is_some() {
                Mode::AtLeastOnce
            } else {
                Mode::Exact
            },
        }
    }

    /// Sets the queue's own mode (`None`: the server's) and throws fresh dice from the
    /// seed: a test or drill that sets the mode starts from the seed's first decision. A FIFO
    /// queue refuses at-least-once.
    pub fn set_delivery(&self, server: &DeliverySettings, own: Option<Mode>) -> SqsResult<()> {
        if self.fifo && own == Some(Mode::AtLeastOnce) {
            return Err(SqsError::invalid_parameter(format!(
                "{} is a FIFO queue, which delivers exactly once and in order (as on AWS): at-least-once delivery is for standard queues",
                self.name()
            )));
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.own_delivery = own;
        self.throw(&mut state, server);
        Ok(())
    }

    /// Takes the server's new settings, keeping a mode of its own: fresh dice from the seed.
    pub fn follow_server(&self, server: &DeliverySettings) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        self.throw(&mut state, server);
    }

    /// Dice for the mode in force, or none (exact, and always on FIFO queues).
    fn throw(&self, state: &mut QueueState, server: &DeliverySettings) {
        let mode = state.own_delivery.unwrap_or(server.mode);
        state.dice = (mode == Mode::AtLeastOnce && !self.fifo)
            .then(|| Box::new(Dice::new(server, self.name())));
        self.loose.store(state.dice.is_some(), Ordering::Relaxed);
    }

    /// Whether a delivery into this queue from another service (an SNS notification) is
    /// made twice, as at-least-once delivery does; never without the mode, and then without
    /// taking the lock.
    pub fn delivers_twice(&self) -> bool {
        if !self.loose.load(Ordering::Relaxed) {
            return false;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.dice.as_deref_mut().is_some_and(Dice::duplicate)
    }
}

impl QueueState {
    /// The ledger to receive from, with the dice when the mode is on.
    pub(crate) fn ledger_and_dice(&mut self) -> (&mut Ledger, Option<&mut Dice>) {
        (&mut self.ledger, self.dice.as_deref_mut())
    }

    /// Whether a delete of message `seq` leaves it to come back once more, visible at once.
    pub(super) fn keeps_deleted(&mut self, seq: u64, now: Millis) -> bool {
        let Some(dice) = self.dice.as_deref_mut() else {
            return false;
        };
        if !dice.duplicate() {
            return false;
        }
        self.ledger.set_visible_at(seq, now, now);
        true
    }

    /// ApproximateNumberOfMessages, ...NotVisible and ...Delayed: exact, or as the dice
    /// blur them.
    pub(super) fn approximate_counts(&mut self) -> [usize; 3] {
        let store = self.ledger.store();
        let exact = [store.visible(), store.in_flight(), store.delayed()];
        match self.dice.as_deref_mut() {
            None => exact,
            Some(dice) => exact.map(|n| dice.approximate(n)),
        }
    }
}
