//! Alarms as text, written only when read: their names and reasons, the admin API's JSON and
//! the `sqslite_alarm_firing` series of `/metrics`.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use super::{Alarm, Kind};
use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::queue::Queue;

/// `<kind>:<region>/<account>/<queue>`, the alarm's name.
pub struct Name<'a>(&'a Alarm);

pub fn name(alarm: &Alarm) -> Name<'_> {
    Name(alarm)
}

/// The pieces of an alarm's name, for writers that escape each or none.
pub fn name_parts(alarm: &Alarm) -> [&str; 7] {
    let k = &alarm.queue.key;
    [
        alarm.kind().as_str(),
        ":",
        &k.region,
        "/",
        &k.account,
        "/",
        &k.name,
    ]
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Part by part: `{}` of a String goes through padding support, 7% of a listing.
        for part in name_parts(self.0) {
            f.write_str(part)?;
        }
        Ok(())
    }
}

/// The alarm kinds in the order of their names. The names differ in their first letter, so
/// between two kinds the kind alone orders two alarm names.
const KINDS_BY_NAME: [Kind; 4] = [
    Kind::DlqDepth,
    Kind::OldestMessageAge,
    Kind::ReceiveCount,
    Kind::Stall,
];

/// Where a kind's alarms come in a list by name.
pub fn kind_rank(kind: Kind) -> usize {
    KINDS_BY_NAME.iter().position(|k| *k == kind).unwrap_or(0)
}

/// Orders queues as their alarm names (`kind:region/account/queue`) order them within a
/// kind, so alarms sort by `(kind_rank, position)` without a name being written. That is
/// the key order (region, account, name) unless a region or account is a prefix of another
/// followed by a byte below `/`; one pass over neighbours tells, and only then are the
/// joined forms compared throughout.
pub fn order_by_name(queues: &mut [Arc<Queue>]) {
    // The registry lists its queues in key order already; a sort is for other lists.
    if !queues.is_sorted_by(|a, b| a.key <= b.key) {
        queues.sort_unstable_by(|a, b| a.key.cmp(&b.key));
    }
    if queues
        .windows(2)
        .any(|w| joined_cmp(&w[0].key, &w[1].key) == Ordering::Greater)
    {
        queues.sort_unstable_by(|a, b| joined_cmp(&a.key, &b.key));
    }
}

fn joined_parts(k: &QueueKey) -> [&[u8]; 5] {
    [
        k.region.as_bytes(),
        b"/",
        k.account.as_bytes(),
        b"/",
        k.name.as_bytes(),
    ]
}

/// Compares `region/account/name` of two keys as the joined strings would compare, without
/// joining them.
fn joined_cmp(left: &QueueKey, right: &QueueKey) -> Ordering {
    let (lp, rp) = (joined_parts(left), joined_parts(right));
    let mut lparts = lp.iter().copied().filter(|p| !p.is_empty());
    let mut rparts = rp.iter().copied().filter(|p| !p.is_empty());
    let mut l = lparts.next().unwrap_or_default();
    let mut r = rparts.next().unwrap_or_default();
    loop {
        match (l.is_empty(), r.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        let common = l.len().min(r.len());
        match l[..common].cmp(&r[..common]) {
            Ordering::Equal => {
                l = &l[common..];
                r = &r[common..];
            }
            unequal => return unequal,
        }
        if l.is_empty() {
            l = lparts.next().unwrap_or_default();
        }
        if r.is_empty() {
            r = rparts.next().unwrap_or_default();
        }
    }
}

/// Why the alarm is in its state, in words.
pub struct Reason<'a>(&'a Alarm);

pub fn reason(alarm: &Alarm) -> Reason<'_> {
    Reason(alarm)
}

/// A piece of a reason: words, or a number written with `itoa`.
enum Piece<'a> {
    Text(&'a str),
    Number(u64),
}

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Piece::{Number, Text};
        let r = &self.0.reading;
        let pieces: &[Piece] = match r.kind {
            Kind::DlqDepth => &[
                Number(r.value),
                Text(" message(s) in dead-letter queue "),
                Text(self.0.queue.name()),
            ],
            Kind::ReceiveCount if r.firing => &[
                Text("a message has been received "),
                Number(r.value),
                Text(" times (threshold "),
                Number(r.threshold),
                Text(")"),
            ],
            Kind::ReceiveCount => &[
                Text("no message received "),
                Number(r.threshold),
                Text(" times"),
            ],
            Kind::Stall => &[
                Number(r.work),
                Text(" message(s) waiting, no DeleteMessage for "),
                Number(r.value),
                Text(" s"),
            ],
            Kind::OldestMessageAge => {
                &[Text("oldest message is "), Number(r.value), Text(" s old")]
            }
        };
        let mut digits = itoa::Buffer::new();
        for piece in pieces {
            match piece {
                Text(text) => f.write_str(text)?,
                Number(n) => f.write_str(digits.format(*n))?,
            }
        }
        Ok(())
    }
}

impl Serialize for Alarm {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let k = &self.queue.key;
        let mut s = serializer.serialize_struct("Alarm", 12)?;
        s.serialize_field("name", &Collected(name(self)))?;
        s.serialize_field("kind", self.kind().as_str())?;
        s.serialize_field("queue", &k.name)?;
        s.serialize_field("region", &k.region)?;
        s.serialize_field("account", &k.account)?;
        s.serialize_field("state", self.state())?;
        s.serialize_field("value", &self.value())?;
        s.serialize_field("threshold", &self.threshold())?;
        s.serialize_field("reason", &Collected(reason(self)))?;
        s.serialize_field("since", &self.since())?;
        s.serialize_field("last_fired_at", &self.last_fired_at())?;
        s.serialize_field("times_fired", &self.times_fired())?;
        s.end()
    }
}

/// Serializes a `Display` as a string, written straight into the output.
struct Collected<T>(T);

impl<T: fmt::Display> Serialize for Collected<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// `GET /_sqslite/alarms`: `{"alarms": [...]}`, pretty like the rest of the admin API,
/// serialized from the alarms themselves (no JSON tree of 15,000 objects in between).
pub fn write_json(alarms: &[Alarm], out: impl std::io::Write) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    struct Body<'a> {
        alarms: &'a [Alarm],
    }
    serde_json::to_writer_pretty(out, &Body { alarms }).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::{joined_cmp, KINDS_BY_NAME};
    use crate::sqs::engine::arn::QueueKey;

    #[test]
    fn kinds_differ_at_their_first_letter_and_are_listed_by_name() {
        let names = KINDS_BY_NAME.map(super::Kind::as_str);
        let mut sorted = names;
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        assert!(names
            .windows(2)
            .all(|w| w[0].as_bytes()[0] != w[1].as_bytes()[0]));
    }

    #[test]
    fn keys_compare_as_their_joined_forms() {
        let parts = [
            "",
            "a",
            "a-",
            "a-b",
            "a/b",
            "a.b",
            "ab",
            "b",
            "us-east-1",
            "0",
        ];
        let mut keys = Vec::new();
        for r in parts {
            for a in parts {
                for n in parts {
                    keys.push(QueueKey::new(r, a, n));
                }
            }
        }
        let joined = |k: &QueueKey| format!("{}/{}/{}", k.region, k.account, k.name);
        for x in &keys {
            for y in &keys {
                assert_eq!(joined_cmp(x, y), joined(x).cmp(&joined(y)), "{x:?} {y:?}");
            }
        }
    }

    #[test]
    fn queues_are_ordered_by_their_joined_keys_even_when_key_order_differs() {
        use crate::sqs::engine::attributes::QueueAttributes;
        use crate::sqs::engine::queue::Queue;
        use std::sync::Arc;
        // Key order puts region "r" before "r-x"; the joined forms "r/..." and "r-x/..."
        // put it after ('-' is below '/').
        let names = [("r", "q"), ("r-x", "q"), ("r", "p")];
        let mut queues: Vec<Arc<Queue>> = names
            .iter()
            .enumerate()
            .map(|(uid, (region, name))| {
                let key = QueueKey::new(region, "1", name);
                let attributes = QueueAttributes::new(false);
                Arc::new(Queue::new(
                    key,
                    uid as u64,
                    attributes,
                    Arc::default(),
                    None,
                    0,
                ))
            })
            .collect();
        super::order_by_name(&mut queues);
        let order: Vec<String> = queues
            .iter()
            .map(|q| format!("{}/{}", q.key.region, q.key.name))
            .collect();
        assert_eq!(order, ["r-x/q", "r/p", "r/q"]);
    }
}
