//! One bucket: who owns it, where, and behind one short-held lock its objects, multipart
//! uploads, Policy and tags. Every change is one method here, made under the lock.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::conditions::Write;
use super::error::{Refusal, Result};
use super::journal::{self, S3Journal, S3Record};
use super::listing::{self, Page, Query};
use super::multipart::{Named, Part, Upload};
use super::notifications::{self, Rule};
use super::object::Object;
use super::tags::{self, Tags};
use crate::clock::Millis;
use crate::policy::Policy;

/// A bucket.
#[derive(Debug)]
pub struct Bucket {
    /// Its name.
    pub name: String,
    /// The account that created it.
    pub owner: String,
    /// Its region (GetBucketLocation).
    pub region: String,
    /// When it was created.
    pub created: Millis,
    state: Mutex<State>,
    /// Where its changes are recorded (`--data-dir`).
    journal: Option<Arc<dyn S3Journal>>,
}

/// How much a bucket holds, for the dashboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Its objects.
    pub objects: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Multipart uploads started and not yet completed or aborted.
    pub uploads: usize,
}

/// What a bucket holds.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Deleted: a call that found the bucket before finds nothing now.
    pub(super) gone: bool,
    pub(super) objects: BTreeMap<String, Arc<Object>>,
    pub(super) uploads: BTreeMap<String, Upload>,
    pub(super) policy: Option<Arc<Policy>>,
    pub(super) tags: Option<Tags>,
    pub(super) notifications: Arc<[Rule]>,
}

impl State {
    /// Its configuration, whole, as the log keeps it.
    pub(super) fn config(&self) -> journal::Config {
        journal::Config {
            policy: self.policy.as_ref().map(|p| p.text().to_owned()),
            tags: self.tags.clone(),
            notifications: self.notifications.to_vec(),
        }
    }
}

impl Bucket {
    /// A new, empty bucket whose changes go to `journal`, if any.
    pub fn new(
        (name, owner, region): (&str, &str, &str),
        created: Millis,
        journal: Option<Arc<dyn S3Journal>>,
    ) -> Bucket {
        Bucket {
            name: name.to_owned(),
            owner: owner.to_owned(),
            region: region.to_owned(),
            created,
            state: Mutex::new(State::default()),
            journal,
        }
    }

    /// Records the change `record` makes, when there is a journal (made only then).
    fn record(&self, record: impl FnOnce() -> S3Record) {
        if let Some(journal) = &self.journal {
            journal.record(&record());
        }
    }

    /// The record of the object at `key`.
    fn object_record(&self, key: &str, object: &Object) -> S3Record {
        S3Record::Object {
            bucket: self.name.clone(),
            key: key.to_owned(),
            object: journal::stored(object),
        }
    }

    /// The record of its configuration as `state` has it.
    fn config_record(&self, state: &State) -> S3Record {
        S3Record::Config {
            bucket: self.name.clone(),
            config: state.config(),
        }
    }

    /// Its state, deleted or not (replay and snapshots).
    pub(super) fn raw(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The bucket's state, while it exists.
    fn state(&self) -> Result<MutexGuard<'_, State>> {
        // A panic elsewhere cannot leave a half-made change: every change is one assignment.
        let state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if state.gone {
            return Err(Refusal::NoSuchBucket);
        }
        Ok(state)
    }

    /// Marks it deleted if it holds nothing: no object, no upload.
    pub(super) fn retire(&self) -> Result<()> {
        let mut state = self.state()?;
        if !state.objects.is_empty() || !state.uploads.is_empty() {
            return Err(Refusal::BucketNotEmpty);
        }
        state.gone = true;
        Ok(())
    }

    /// Marks it deleted with everything in it (a reset of the whole server).
    pub(super) fn discard(&self) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *state = State {
            gone: true,
            ..State::default()
        };
    }

    /// The object at `key`.
    pub fn object(&self, key: &str) -> Result<Arc<Object>> {
        self.state()?
            .objects
            .get(key)
            .cloned()
            .ok_or(Refusal::NoSuchKey)
    }

    /// Writes `object` at `key` if `condition` holds against what is there.
    pub fn put(&self, key: &str, object: Object, condition: &Write) -> Result<Arc<Object>> {
        let mut state = self.state()?;
        condition.check(state.objects.get(key).map(AsRef::as_ref))?;
        let object = Arc::new(object);
        let replaced = state.objects.insert(key.to_owned(), object.clone());
        self.record(|| self.object_record(key, &object));
        // Let go of what was there only after the record: its file, if no longer used, is
        // removed once the records before the release are stored, and this one must be.
        drop(replaced);
        Ok(object)
    }

    /// Deletes the object at `key`, if any (S3 answers the same either way).
    pub fn delete(&self, key: &str) -> Result<Option<Arc<Object>>> {
        // Recorded under the lock, so the log has a key's writes in the order they were made.
        let mut state = self.state()?;
        let removed = state.objects.remove(key);
        if removed.is_some() {
            self.record(|| S3Record::ObjectDeleted {
                bucket: self.name.clone(),
                key: key.to_owned(),
            });
        }
        drop(state);
        Ok(removed)
    }

    /// Replaces the tags of the object at `key`.
    pub fn tag_object(&self, key: &str, tags: Tags) -> Result<()> {
        let tags = tags::check(tags, tags::OBJECT_TAGS)?;
        let mut state = self.state()?;
        let object = state.objects.get_mut(key).ok_or(Refusal::NoSuchKey)?;
        Arc::make_mut(object).meta.tags = tags;
        self.record(|| self.object_record(key, object));
        Ok(())
    }

    /// A page of its keys.
    pub fn list(&self, query: &Query<'_>) -> Result<Page> {
        Ok(listing::list(&self.state()?.objects, query))
    }

    /// Its Policy.
    pub fn policy(&self) -> Result<Option<Arc<Policy>>> {
        Ok(self.state()?.policy.clone())
    }

    /// Sets or (`None`) deletes its Policy.
    pub fn set_policy(&self, policy: Option<Policy>) -> Result<()> {
        let mut state = self.state()?;
        state.policy = policy.map(Arc::new);
        self.record(|| self.config_record(&state));
        Ok(())
    }

    /// Its tags; a bucket that never had any has no tag set.
    pub fn tags(&self) -> Result<Tags> {
        self.state()?.tags.clone().ok_or(Refusal::NoSuchTagSet)
    }

    /// Sets or (`None`) deletes its tags.
    pub fn set_tags(&self, tags: Option<Tags>) -> Result<()> {
        let tags = tags
            .map(|t| tags::check(t, tags::BUCKET_TAGS))
            .transpose()?;
        let mut state = self.state()?;
        state.tags = tags;
        self.record(|| self.config_record(&state));
        Ok(())
    }

    /// What it holds now: objects, their bytes, uploads in progress.
    pub fn usage(&self) -> Result<Usage> {
        let state = self.state()?;
        Ok(Usage {
            objects: state.objects.len(),
            bytes: state.objects.values().map(|o| o.size()).sum(),
            uploads: state.uploads.len(),
        })
    }

    /// Its notification rules (none by default).
    pub fn notifications(&self) -> Result<Arc<[Rule]>> {
        Ok(self.state()?.notifications.clone())
    }

    /// Replaces its notification rules, once S3's checks of them pass.
    pub fn set_notifications(&self, rules: Vec<Rule>) -> Result<()> {
        notifications::check(&rules)?;
        let mut state = self.state()?;
        state.notifications = rules.into();
        self.record(|| self.config_record(&state));
        Ok(())
    }

    /// Starts an upload.
    pub fn start_upload(&self, upload: Upload) -> Result<()> {
        let mut state = self.state()?;
        self.record(|| S3Record::Upload {
            bucket: self.name.clone(),
            upload: journal::started(&upload),
        });
        state.uploads.insert(upload.id.clone(), upload);
        Ok(())
    }

    /// The upload `id` of `key`, as it is now.
    pub fn upload(&self, id: &str, key: &str) -> Result<Upload> {
        let state = self.state()?;
        let upload = state.uploads.get(id).filter(|u| u.key == key);
        upload.cloned().ok_or(Refusal::NoSuchUpload)
    }

    /// Stores part `number` of the upload `id` of `key`.
    pub fn put_part(&self, (id, key): (&str, &str), number: u32, part: Part) -> Result<()> {
        let mut state = self.state()?;
        let upload = state.uploads.get_mut(id).filter(|u| u.key == key);
        let upload = upload.ok_or(Refusal::NoSuchUpload)?;
        self.record(|| S3Record::Part {
            bucket: self.name.clone(),
            upload: id.to_owned(),
            number,
            part: journal::stored_part(&part),
        });
        upload.parts.insert(number, part);
        Ok(())
    }

    /// Ends the upload `id` of `key` without an object.
    pub fn abort(&self, id: &str, key: &str) -> Result<()> {
        let mut state = self.state()?;
        match state.uploads.get(id) {
            Some(u) if u.key == key => {
                let removed = state.uploads.remove(id);
                self.record(|| self.upload_ended(id));
                drop(removed);
                Ok(())
            }
            _ => Err(Refusal::NoSuchUpload),
        }
    }

    /// Completes the upload `id` of `key` from the `named` parts, if `condition` holds
    /// against the object it replaces.
    pub fn complete(
        &self,
        (id, key): (&str, &str),
        named: &[Named],
        condition: &Write,
        now: Millis,
    ) -> Result<Arc<Object>> {
        let mut state = self.state()?;
        let upload = state.uploads.get(id).filter(|u| u.key == key);
        let object = upload.ok_or(Refusal::NoSuchUpload)?.complete(named, now)?;
        condition.check(state.objects.get(key).map(AsRef::as_ref))?;
        let object = Arc::new(object);
        let replaced = state.objects.insert(key.to_owned(), object.clone());
        let ended = state.uploads.remove(id);
        self.record(|| self.object_record(key, &object));
        self.record(|| self.upload_ended(id));
        drop((replaced, ended));
        Ok(object)
    }

    fn upload_ended(&self, id: &str) -> S3Record {
        S3Record::UploadEnded {
            bucket: self.name.clone(),
            upload: id.to_owned(),
        }
    }

    /// Its uploads in progress, by key, then by when each started.
    pub fn uploads(&self) -> Result<Vec<Upload>> {
        let mut all: Vec<Upload> = self.state()?.uploads.values().cloned().collect();
        all.sort_by(|a, b| (&a.key, a.initiated, &a.id).cmp(&(&b.key, b.initiated, &b.id)));
        Ok(all)
    }
}
