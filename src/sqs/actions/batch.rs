//! The rules every batch action shares: entry count, entry ids, and per-entry failures.

use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::sqs::engine::limits;
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

pub use crate::sqs::engine::limits::{
    BATCH_BYTES as MAX_BATCH_BYTES, BATCH_ENTRIES as MAX_ENTRIES,
};

/// A batch entry names itself with an `Id`.
pub trait Entry {
    /// The entry's `Id`.
    fn id(&self) -> &str;
}

/// A batch's `Entries`, room for ten made at once: serde's own `Vec` starts empty when the
/// format cannot tell the length (JSON cannot), and growing it to ten moved the entries
/// twice, about 2 KB of copying a batch.
pub fn entries<'de, D, E>(deserializer: D) -> Result<Vec<E>, D::Error>
where
    D: Deserializer<'de>,
    E: Deserialize<'de>,
{
    struct Entries<E>(std::marker::PhantomData<E>);

    impl<'de, E: Deserialize<'de>> Visitor<'de> for Entries<E> {
        type Value = Vec<E>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of batch entries")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<E>, A::Error> {
            let mut out =
                Vec::with_capacity(seq.size_hint().unwrap_or(MAX_ENTRIES).min(MAX_ENTRIES));
            while let Some(entry) = seq.next_element()? {
                out.push(entry);
            }
            Ok(out)
        }
    }

    deserializer.deserialize_seq(Entries(std::marker::PhantomData))
}

/// Checks what fails a whole batch: no entries, too many, bad or repeated ids.
pub fn check<E: Entry>(entries: &[E], entry_name: &str) -> SqsResult<()> {
    if entries.is_empty() {
        return Err(SqsError::new(
            ErrorKind::EmptyBatchRequest,
            format!("There should be at least one {entry_name} in the request."),
        ));
    }
    if entries.len() > MAX_ENTRIES {
        return Err(SqsError::new(
            ErrorKind::TooManyEntriesInBatchRequest,
            format!(
                "Maximum number of entries per request are {MAX_ENTRIES}. You have sent {}.",
                entries.len()
            ),
        ));
    }
    // At most ten ids: comparing each with those before it beats hashing them into a set
    // (which was 6% of a send/receive/delete pipeline's instructions).
    for (i, entry) in entries.iter().enumerate() {
        let id = entry.id();
        // An empty or missing Id is a malformed one, not a missing parameter [aws-recorded].
        let valid = (1..=limits::NAME_CHARS).contains(&id.len())
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !valid {
            return Err(SqsError::of(ErrorKind::InvalidBatchEntryId));
        }
        if entries[..i].iter().any(|e| e.id() == id) {
            return Err(SqsError::new(
                ErrorKind::BatchEntryIdsNotDistinct,
                format!("Id {id} repeated."),
            ));
        }
    }
    Ok(())
}

/// One `BatchResultErrorEntry`: an entry that failed, and why.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Failure {
    /// The entry's `Id`, as the request gave it.
    pub id: String,
    /// `SenderFault`: true when the entry itself was wrong, false for sqslite's own failure.
    pub sender_fault: bool,
    /// `Code`: the error's Query code, e.g. `ReceiptHandleIsInvalid`.
    pub code: &'static str,
    /// `Message`: why the entry failed.
    pub message: String,
}

impl Failure {
    /// The failure of entry `id` with `err`'s code, fault and message.
    pub fn new(id: &str, err: &SqsError) -> Self {
        Failure {
            id: id.to_owned(),
            sender_fault: err.kind.fault() == crate::sqs::error::Fault::Sender,
            code: err.kind.query_code(),
            message: err.message.clone(),
        }
    }
}

/// SQS leaves out an empty `Failed` [aws-recorded]; the SDKs default the absent member. An
/// all-failed batch keeps its empty `Successful`: that SQS omits it too is unverified.
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Output<T> {
    /// `Successful`: one result per entry that worked, in request order.
    pub successful: Vec<T>,
    /// `Failed`: one per entry that did not, in request order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<Failure>,
}

/// A successful entry of a batch whose results carry only the `Id` (delete, visibility).
#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Done {
    /// The entry's `Id`, as the request gave it.
    pub id: String,
}

/// Runs `each` per entry, sorting outcomes into `Successful` and `Failed`. `each` may take
/// what it keeps from the entry (its `Id` for the result); a failure reads the `Id` after it,
/// so an entry's `Id` is never copied just in case.
pub fn run<E: Entry, T>(
    entries: Vec<E>,
    mut each: impl FnMut(&mut E) -> SqsResult<T>,
) -> Output<T> {
    let mut out = Output {
        successful: Vec::with_capacity(entries.len()),
        failed: Vec::new(),
    };
    for mut entry in entries {
        match each(&mut entry) {
            Ok(t) => out.successful.push(t),
            Err(e) => out.failed.push(Failure::new(entry.id(), &e)),
        }
    }
    out
}
