//! Durable mode's link to the engines: the [`Journal`] (SQS), [`SnsJournal`],
//! [`MappingJournal`] and [`S3Journal`] that append each change to the log, and the request wrapper that answers only once the request's
//! mutations are durable.

use std::cell::RefCell;
use std::future::Future;
use std::sync::OnceLock;

use super::writer::{Appender, Pending};
use super::{codec, mapping_codec, s3_codec, sns_codec};
use crate::s3::engine::{S3Journal, S3Record};
use crate::sns::engine::state::{SnsJournal, SnsRecord};
use crate::sqs::engine::mutation::{Journal, Mutation};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::triggers::journal::{MappingJournal, MappingRecord};

tokio::task_local! {
    /// The log writes the current request started, for it to wait on before answering.
    static WAITS: RefCell<Vec<Pending>>;
}

/// Encodes each mutation and hands it to the log writer. Mutations arrive under the queue's
/// lock, so the log holds each queue's changes in the order they were made.
#[derive(Debug, Default)]
pub struct LogJournal {
    /// Set once recovery is done; recovery itself reports nothing.
    appender: OnceLock<Appender>,
}

impl LogJournal {
    pub fn start(&self, appender: Appender) {
        let _ = self.appender.set(appender);
    }
}

impl LogJournal {
    /// Queues one record's bytes, made by `encode`, for the current request to wait on.
    fn append(&self, encode: impl FnOnce(&mut Vec<u8>)) {
        let Some(appender) = self.appender.get() else {
            return;
        };
        let mut bytes = Vec::with_capacity(96);
        encode(&mut bytes);
        let pending = appender.append(bytes);
        // Outside a request (move tasks on the ticker) nobody waits: the write still happens.
        let _ = WAITS.try_with(|w| w.borrow_mut().push(pending));
    }
}

impl Journal for LogJournal {
    fn record(&self, mutation: &Mutation<'_>) {
        self.append(|bytes| codec::encode(mutation, bytes));
    }
}

/// SNS's changes go to the same log, so one request's SQS and SNS records (a publish and
/// its deliveries) are acknowledged together.
impl SnsJournal for LogJournal {
    fn record(&self, record: &SnsRecord) {
        self.append(|bytes| sns_codec::encode(record, bytes));
    }
}

/// The event source mappings' changes too: a CreateEventSourceMapping is answered once its
/// mapping is stored.
impl MappingJournal for LogJournal {
    fn record(&self, record: &MappingRecord) {
        self.append(|bytes| mapping_codec::encode(record, bytes));
    }
}

/// S3's changes too: an object's record is appended once its file is whole, and a file no
/// object holds is removed only after the records before it are stored.
impl S3Journal for LogJournal {
    fn record(&self, record: &S3Record) {
        self.append(|bytes| s3_codec::encode(record, bytes));
    }

    fn release(&self, path: &std::path::Path) {
        // Before the log is started (replay) a file let go of is an orphan the check of the
        // files clears.
        if let Some(appender) = self.appender.get() {
            appender.unlink(path.to_path_buf());
        }
    }
}

/// Runs one request; its answer waits until every mutation it made is durable under the
/// fsync policy. A write that failed turns the answer into a 500: the change may be in
/// memory, but it was not acknowledged, so losing it at a restart breaks no promise.
pub async fn durable<T>(request: impl Future<Output = SqsResult<T>>) -> SqsResult<T> {
    durable_with(request, |e| e).await
}

/// [`durable`] for callers with their own error type (the admin API): `failed` turns the
/// `InternalError` of a write that failed into it.
pub async fn durable_with<T, E>(
    request: impl Future<Output = Result<T, E>>,
    failed: impl FnOnce(SqsError) -> E,
) -> Result<T, E> {
    WAITS
        .scope(RefCell::new(Vec::new()), async {
            let result = request.await;
            let waits = WAITS.with(|w| std::mem::take(&mut *w.borrow_mut()));
            for pending in waits {
                let outcome = pending
                    .await
                    .unwrap_or_else(|_| Err(super::WriteError::stopped()));
                if let Err(e) = outcome {
                    return Err(failed(SqsError::new(
                        ErrorKind::InternalError,
                        format!("The change could not be stored: {e}."),
                    )));
                }
            }
            result
        })
        .await
}
