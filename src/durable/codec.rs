//! The byte form of the engine's mutations in the log and snapshots: one tag byte, then
//! fixed-width little-endian integers and length-prefixed strings. Written by hand: it is on
//! every durable request's path, and a format of our own is one the version number covers.

use std::sync::Arc;

use uuid::Uuid;

use crate::sqs::engine::arn::QueueKey;
use crate::sqs::engine::message::{AttrData, AttrValue, Extra, Message};
use crate::sqs::engine::move_task::{MoveTask, Mover, Status};
use crate::sqs::engine::mutation::{Attempt, Dedup, Delivery, Mutation, QueueMeta, Record};

use super::wire::{R, W};

const QUEUE: u8 = 1;
const QUEUE_DELETED: u8 = 2;
const PUT: u8 = 3;
const DELIVERY: u8 = 4;
const REMOVED: u8 = 5;
const PURGED: u8 = 6;
const DEDUP: u8 = 7;
const NEXT_UID: u8 = 8;
const MOVE_TASK: u8 = 9;
const MOVE_TASKS_CLEARED: u8 = 10;
const ATTEMPT: u8 = 11;
/// A move task with the caller that started it, whose permission each of its sends needs
/// again after a restart; tasks without one (no credentials) are still written as MOVE_TASK.
const MOVE_TASK_BY: u8 = 12;

/// Appends the bytes of `m` to `out`.
pub fn encode(m: &Mutation<'_>, out: &mut Vec<u8>) {
    let mut w = W(out);
    match m {
        Mutation::Queue(meta) => {
            w.u8(QUEUE);
            queue_meta(&mut w, meta);
        }
        Mutation::QueueDeleted { uid, key, at } => {
            w.u8(QUEUE_DELETED);
            w.u64(*uid);
            queue_key(&mut w, key);
            w.u64(*at);
        }
        Mutation::Put {
            queue,
            seq,
            fifo_counter,
            message,
        } => {
            w.u8(PUT);
            w.u64(*queue);
            w.u64(*seq);
            w.u64(*fifo_counter);
            put_message(&mut w, message);
        }
        Mutation::Delivery(d) => delivery(&mut w, d),
        Mutation::Removed { queue, seq } => {
            w.u8(REMOVED);
            w.u64(*queue);
            w.u64(*seq);
        }
        Mutation::Purged { queue, at } => {
            w.u8(PURGED);
            w.u64(*queue);
            w.u64(*at);
        }
        Mutation::Dedup(d) => dedup(&mut w, d),
        Mutation::NextUid(uid) => {
            w.u8(NEXT_UID);
            w.u64(*uid);
        }
        Mutation::MoveTask(task) => {
            w.u8(if task.mover.is_some() {
                MOVE_TASK_BY
            } else {
                MOVE_TASK
            });
            move_task(&mut w, task);
        }
        Mutation::MoveTasksCleared => w.u8(MOVE_TASKS_CLEARED),
        Mutation::Attempt(a) => attempt(&mut w, a),
    }
}

#[inline]
fn delivery(w: &mut W<'_>, d: &Delivery) {
    w.u8(DELIVERY);
    w.u64(d.queue);
    w.u64(d.seq);
    w.u32(d.receive_count);
    w.opt_u64(d.first_received_at);
    w.u32(d.last_receive_offset);
    w.u64(d.visible_at);
}

#[inline]
fn dedup(w: &mut W<'_>, d: &Dedup<'_>) {
    w.u8(DEDUP);
    w.u64(d.queue);
    w.str(d.group);
    w.str(d.id);
    w.bytes_raw(d.message_id.as_bytes());
    w.u64(d.sequence);
    w.u64(d.at);
}

#[inline]
fn attempt(w: &mut W<'_>, a: &Attempt<'_>) {
    w.u8(ATTEMPT);
    w.u64(a.queue);
    w.str(a.id);
    w.u32(a.delivered.len() as u32);
    for (seq, count) in a.delivered {
        w.u64(*seq);
        w.u32(*count);
    }
    w.u64(a.at);
}

/// Reads one record back.
pub fn decode(bytes: &[u8]) -> Result<Record, String> {
    let mut r = R(bytes);
    let record = match r.u8()? {
        QUEUE => Record::Queue(read_queue_meta(&mut r)?),
        QUEUE_DELETED => Record::QueueDeleted {
            uid: r.u64()?,
            key: read_queue_key(&mut r)?,
            at: r.u64()?,
        },
        PUT => Record::Put {
            queue: r.u64()?,
            seq: r.u64()?,
            fifo_counter: r.u64()?,
            message: read_message(&mut r)?,
        },
        DELIVERY => Record::Delivery(Delivery {
            queue: r.u64()?,
            seq: r.u64()?,
            receive_count: r.u32()?,
            first_received_at: r.opt_u64()?,
            last_receive_offset: r.u32()?,
            visible_at: r.u64()?,
        }),
        REMOVED => Record::Removed {
            queue: r.u64()?,
            seq: r.u64()?,
        },
        PURGED => Record::Purged {
            queue: r.u64()?,
            at: r.u64()?,
        },
        DEDUP => Record::Dedup {
            queue: r.u64()?,
            group: r.string()?,
            id: r.string()?,
            message_id: Uuid::from_bytes(r.array()?),
            sequence: r.u64()?,
            at: r.u64()?,
        },
        NEXT_UID => Record::NextUid(r.u64()?),
        MOVE_TASK => Record::MoveTask(read_move_task(&mut r, false)?),
        MOVE_TASK_BY => Record::MoveTask(read_move_task(&mut r, true)?),
        MOVE_TASKS_CLEARED => Record::MoveTasksCleared,
        ATTEMPT => Record::Attempt {
            queue: r.u64()?,
            id: r.string()?,
            delivered: (0..r.u32()?)
                .map(|_| Ok((r.u64()?, r.u32()?)))
                .collect::<Result<_, String>>()?,
            at: r.u64()?,
        },
        tag => return Err(format!("unknown record type {tag}")),
    };
    if !r.0.is_empty() {
        return Err(format!("{} unexpected bytes after a record", r.0.len()));
    }
    Ok(record)
}

fn queue_key(w: &mut W<'_>, key: &QueueKey) {
    w.str(&key.region);
    w.str(&key.account);
    w.str(&key.name);
}

fn read_queue_key(r: &mut R<'_>) -> Result<QueueKey, String> {
    Ok(QueueKey {
        region: r.string()?,
        account: r.string()?,
        name: r.string()?,
    })
}

fn move_task(w: &mut W<'_>, t: &MoveTask) {
    w.bytes_raw(t.task_id.as_bytes());
    w.str(&t.handle);
    w.str(&t.source_arn);
    w.opt_str(t.destination_arn.as_deref());
    w.opt_u64(t.max_per_second.map(u64::from));
    w.u8(t.status.code());
    w.u64(t.moved);
    w.u64(t.to_move);
    w.opt_str(t.failure_reason.as_deref());
    w.u64(t.started_at);
    if let Some(mover) = &t.mover {
        w.str(&mover.account);
        w.str(&mover.arn);
    }
}

/// `by`: the record ends with the task's starter (MOVE_TASK_BY).
fn read_move_task(r: &mut R<'_>, by: bool) -> Result<MoveTask, String> {
    let mut task = MoveTask {
        task_id: Uuid::from_bytes(r.array()?),
        handle: r.string()?,
        source_arn: r.string()?,
        destination_arn: r.opt_string()?,
        max_per_second: r
            .opt_u64()?
            .map(|v| u32::try_from(v).map_err(|_| format!("move rate {v} out of range")))
            .transpose()?,
        status: Status::from_code(r.u8()?).ok_or("unknown move task status")?,
        moved: r.u64()?,
        to_move: r.u64()?,
        failure_reason: r.opt_string()?,
        started_at: r.u64()?,
        next_due: 0,
        mover: None,
    };
    if by {
        task.mover = Some(Mover {
            account: r.string()?,
            arn: r.string()?,
        });
    }
    Ok(task)
}

fn queue_meta(w: &mut W<'_>, m: &QueueMeta) {
    w.u64(m.uid);
    queue_key(w, &m.key);
    w.u64(m.created_at);
    w.u32(m.attributes.len() as u32);
    for (k, v) in &m.attributes {
        w.str(k);
        w.str(v);
    }
    w.map(&m.tags);
    w.u64(m.last_modified);
    w.opt_u64(m.last_purge);
    w.u64(m.next_seq);
    w.u64(m.fifo_counter);
}

fn read_queue_meta(r: &mut R<'_>) -> Result<QueueMeta, String> {
    let uid = r.u64()?;
    let key = read_queue_key(r)?;
    let created_at = r.u64()?;
    let mut attributes = Vec::new();
    for _ in 0..r.u32()? {
        attributes.push((r.string()?, r.string()?));
    }
    let tags = r.map()?;
    Ok(QueueMeta {
        uid,
        key,
        created_at,
        attributes,
        tags,
        last_modified: r.u64()?,
        last_purge: r.opt_u64()?,
        next_seq: r.u64()?,
        fifo_counter: r.u64()?,
    })
}

fn put_message(w: &mut W<'_>, m: &Message) {
    w.bytes_raw(m.id.as_bytes());
    w.str(&m.body);
    w.bytes_raw(&m.md5_of_body);
    w.opt_str(m.group_id.as_deref());
    w.str(&m.sender_id);
    w.u64(m.sent_at);
    w.u64(m.enqueued_at);
    w.opt_u64(m.first_received_at);
    w.u64(m.visible_at);
    w.u32(m.receive_count);
    w.u32(m.last_receive_offset);
    w.u64(m.sequence);
    let Some(extra) = &m.extra else {
        w.u8(0);
        return;
    };
    w.u8(1);
    w.u32(extra.attributes.len() as u32);
    for (name, value) in &extra.attributes {
        w.str(name);
        w.str(&value.data_type);
        match &value.data {
            AttrData::String(s) => {
                w.u8(0);
                w.str(s);
            }
            AttrData::Binary(b) => {
                w.u8(1);
                w.bytes(b);
            }
        }
    }
    w.opt_str(extra.trace_header.as_deref());
    w.opt_str(extra.deduplication_id.as_deref());
    w.opt_str(extra.dead_letter_source_arn.as_deref());
}

fn read_message(r: &mut R<'_>) -> Result<Message, String> {
    let mut m = Message {
        id: Uuid::from_bytes(r.array()?),
        body: r.string()?.into_boxed_str(),
        md5_of_body: r.array()?,
        group_id: r.opt_string()?.map(Arc::from),
        sender_id: Arc::from(r.string()?),
        sent_at: r.u64()?,
        enqueued_at: r.u64()?,
        first_received_at: r.opt_u64()?,
        visible_at: r.u64()?,
        receive_count: r.u32()?,
        last_receive_offset: r.u32()?,
        sequence: r.u64()?,
        extra: None,
    };
    if r.u8()? == 1 {
        let mut extra = Extra::default();
        for _ in 0..r.u32()? {
            let name = r.string()?;
            let data_type = r.string()?;
            let data = match r.u8()? {
                0 => AttrData::String(r.string()?),
                _ => AttrData::Binary(r.bytes()?.to_vec()),
            };
            extra.attributes.insert(name, AttrValue { data_type, data });
        }
        extra.trace_header = r.opt_string()?;
        extra.deduplication_id = r.opt_string()?;
        extra.dead_letter_source_arn = r.opt_string()?.map(Arc::from);
        m.extra = Some(Box::new(extra));
    }
    Ok(m)
}
