//! Model-based test: random sequences of sends, receives, deletes, visibility changes and
//! clock steps against the engine, checked against a plain reference model after every step.
//! Nothing acknowledged is lost, nothing is delivered while it is in flight, and a FIFO group
//! is served in send order (SQS's rule: a group's messages come out in order, and none after
//! one still in flight).

use std::collections::HashMap;
use std::sync::Arc;

use crate::sqs::engine::delivery::ReceiveParams;
use crate::sqs::engine::message::NewMessage;
use crate::sqs::engine::queue::Queue;
use crate::sqs::engine::Registry;
use proptest::prelude::*;

const VISIBILITY_MS: u64 = 30_000;
const GROUPS: usize = 3;

#[derive(Debug, Clone)]
enum Op {
    Send {
        group: usize,
    },
    Receive {
        max: usize,
        visibility: Option<u32>,
    },
    /// Deletes with the `pick`-th handle ever issued (an old one, perhaps).
    Delete {
        pick: usize,
    },
    /// Changes visibility through the latest handle of the `pick`-th in-flight message.
    ChangeVisibility {
        pick: usize,
        seconds: u32,
    },
    Advance {
        ms: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..GROUPS).prop_map(|group| Op::Send { group }),
        3 => (1..=10usize, prop::option::of(0..60u32))
            .prop_map(|(max, visibility)| Op::Receive { max, visibility }),
        2 => any::<usize>().prop_map(|pick| Op::Delete { pick }),
        1 => (any::<usize>(), 0..60u32)
            .prop_map(|(pick, seconds)| Op::ChangeVisibility { pick, seconds }),
        2 => (0..45_000u64).prop_map(|ms| Op::Advance { ms }),
    ]
}

/// What the model knows of one message.
#[derive(Debug, Clone)]
struct Known {
    body: String,
    group: usize,
    /// Send order within its group.
    order: usize,
    visible_at: u64,
    deleted: bool,
    latest_handle: Option<String>,
}

struct Run {
    registry: Registry,
    queue: Arc<Queue>,
    fifo: bool,
    now: u64,
    messages: Vec<Known>,
    by_body: HashMap<String, usize>,
    /// Every handle issued, with the message it names.
    handles: Vec<(String, usize)>,
}

impl Run {
    fn new(fifo: bool) -> Self {
        let registry = Registry::new();
        let queue = super::queue(&registry, if fifo { "m.fifo" } else { "m" }, fifo);
        Run {
            registry,
            queue,
            fifo,
            now: 0,
            messages: Vec::new(),
            by_body: HashMap::new(),
            handles: Vec::new(),
        }
    }

    fn in_flight(&self, i: usize) -> bool {
        !self.messages[i].deleted && self.messages[i].visible_at > self.now
    }

    fn apply(&mut self, op: &Op) -> Result<(), TestCaseError> {
        match *op {
            Op::Send { group } => self.send(group),
            Op::Receive { max, visibility } => self.receive(max, visibility)?,
            Op::Delete { pick } => self.delete(pick)?,
            Op::ChangeVisibility { pick, seconds } => self.change_visibility(pick, seconds)?,
            Op::Advance { ms } => self.now += ms,
        }
        Ok(())
    }

    fn send(&mut self, group: usize) {
        let body = format!("m{}", self.messages.len());
        let order = self.messages.iter().filter(|m| m.group == group).count();
        self.queue
            .send(
                NewMessage {
                    body: body.clone(),
                    group_id: self.fifo.then(|| format!("g{group}")),
                    deduplication_id: self.fifo.then(|| body.clone()),
                    sender_id: Arc::from("model"),
                    ..NewMessage::default()
                },
                self.now,
            )
            .unwrap();
        self.by_body.insert(body.clone(), self.messages.len());
        self.messages.push(Known {
            body,
            group,
            order,
            visible_at: self.now,
            deleted: false,
            latest_handle: None,
        });
    }

    /// Visible messages SQS may hand out: all of them on a standard queue; on a FIFO queue
    /// each group's visible prefix up to its first message in flight.
    fn deliverable(&self) -> usize {
        let live = |i: &usize| !self.messages[*i].deleted;
        if !self.fifo {
            return (0..self.messages.len())
                .filter(live)
                .filter(|&i| !self.in_flight(i))
                .count();
        }
        (0..GROUPS)
            .map(|g| {
                (0..self.messages.len())
                    .filter(live)
                    .filter(|&i| self.messages[i].group == g)
                    .take_while(|&i| !self.in_flight(i))
                    .count()
            })
            .sum()
    }

    fn receive(&mut self, max: usize, visibility: Option<u32>) -> Result<(), TestCaseError> {
        let params = ReceiveParams {
            max,
            visibility_timeout: visibility,
            ..ReceiveParams::default()
        };
        let got = self
            .registry
            .receive(&self.queue, &params, self.now)
            .unwrap();
        prop_assert!(got.len() <= max);
        let deliverable = self.deliverable();
        // Nothing lost: a queue with a deliverable message answers with at least one.
        prop_assert!(
            deliverable == 0 || !got.is_empty(),
            "{deliverable} deliverable, none received"
        );
        let ids: Vec<usize> = got.iter().map(|d| self.by_body[&*d.message.body]).collect();
        for (k, &i) in ids.iter().enumerate() {
            prop_assert!(
                !self.messages[i].deleted,
                "{} delivered after its delete",
                self.messages[i].body
            );
            prop_assert!(
                !self.in_flight(i),
                "{} delivered while in flight",
                self.messages[i].body
            );
            prop_assert!(
                !ids[..k].contains(&i),
                "{} twice in one receive",
                self.messages[i].body
            );
            if self.fifo {
                // Every earlier undeleted message of the group came out before it, here.
                let m = &self.messages[i];
                for (j, earlier) in self.messages.iter().enumerate() {
                    if earlier.group == m.group && earlier.order < m.order && !earlier.deleted {
                        prop_assert!(
                            ids[..k].contains(&j),
                            "{} before {} in its group",
                            m.body,
                            earlier.body
                        );
                    }
                }
            }
        }
        let vt = visibility.map_or(VISIBILITY_MS, |s| u64::from(s) * 1000);
        for (d, &i) in got.iter().zip(&ids) {
            self.messages[i].visible_at = self.now + vt;
            self.messages[i].latest_handle = Some(d.receipt_handle.clone());
            self.handles.push((d.receipt_handle.clone(), i));
        }
        Ok(())
    }

    fn delete(&mut self, pick: usize) -> Result<(), TestCaseError> {
        if self.handles.is_empty() {
            return Ok(());
        }
        let (handle, i) = self.handles[pick % self.handles.len()].clone();
        let latest = self.messages[i].latest_handle.as_deref() == Some(handle.as_str());
        let result = self.queue.delete_message(&handle, self.now);
        if self.fifo && !(latest && self.in_flight(i)) {
            // FIFO refuses an expired handle; the message must then still be there.
            if result.is_err() {
                return Ok(());
            }
        } else {
            prop_assert!(
                result.is_ok(),
                "delete of {}: {:?}",
                self.messages[i].body,
                result
            );
        }
        self.messages[i].deleted = true;
        Ok(())
    }

    fn change_visibility(&mut self, pick: usize, seconds: u32) -> Result<(), TestCaseError> {
        let held: Vec<usize> = (0..self.messages.len())
            .filter(|&i| self.in_flight(i))
            .collect();
        if held.is_empty() {
            return Ok(());
        }
        let i = held[pick % held.len()];
        let handle = self.messages[i].latest_handle.clone().unwrap();
        let result = self.queue.change_visibility(&handle, seconds, self.now);
        prop_assert!(result.is_ok(), "{:?}", result);
        self.messages[i].visible_at = self.now + u64::from(seconds) * 1000;
        Ok(())
    }

    /// Everything not deleted comes back once visibility has run out (retention is 4 days).
    fn drain(&mut self) -> Result<(), TestCaseError> {
        self.now += 13 * 3600 * 1000;
        let params = ReceiveParams {
            max: 10,
            visibility_timeout: Some(43_200),
            ..ReceiveParams::default()
        };
        let mut back = Vec::new();
        loop {
            let got = self
                .registry
                .receive(&self.queue, &params, self.now)
                .unwrap();
            if got.is_empty() {
                break;
            }
            for d in got {
                back.push(self.by_body[&*d.message.body]);
                self.queue
                    .delete_message(&d.receipt_handle, self.now)
                    .unwrap();
            }
        }
        back.sort_unstable();
        let expected: Vec<usize> = (0..self.messages.len())
            .filter(|&i| !self.messages[i].deleted)
            .collect();
        prop_assert_eq!(back, expected, "what the queue still held");
        Ok(())
    }
}

fn check(fifo: bool, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut run = Run::new(fifo);
    for op in ops {
        run.apply(op)?;
    }
    run.drain()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn standard_queue_matches_the_model(ops in prop::collection::vec(op(), 1..60)) {
        check(false, &ops)?;
    }

    #[test]
    fn fifo_queue_matches_the_model(ops in prop::collection::vec(op(), 1..60)) {
        check(true, &ops)?;
    }
}
