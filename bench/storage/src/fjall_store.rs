//! fjall: an LSM tree with a write-ahead journal. Two keyspaces keyed by the message's key
//! (big-endian, so they sort): `messages` and `deliveries`. Each group is one atomic
//! `WriteBatch`; fjall writes it to its journal with `write(2)` (safe from a process crash, as
//! sqslite's interval policy is). Interval: `PersistMode::SyncData` at most every 200 ms;
//! always: every batch commits with `SyncData`. Otherwise fjall's defaults (LZ4 blocks, 64 MiB
//! memtables, leveled compaction, no key-value separation).

use std::path::Path;

use fjall::{Database, Keyspace, KeyspaceCreateOptions, PersistMode};

use crate::kv::Backend;
use crate::workload::{self, Kind, Loaded, Rec};
use crate::Policy;

pub struct Fjall {
    db: Database,
    messages: Keyspace,
    deliveries: Keyspace,
}

fn open(dir: &Path) -> Fjall {
    let db = Database::builder(dir.join("fjall"))
        .open()
        .expect("open fjall");
    let messages = db
        .keyspace("messages", KeyspaceCreateOptions::default)
        .expect("keyspace");
    let deliveries = db
        .keyspace("deliveries", KeyspaceCreateOptions::default)
        .expect("keyspace");
    Fjall {
        db,
        messages,
        deliveries,
    }
}

impl Backend for Fjall {
    fn open(dir: &Path, _policy: Policy) -> Self {
        open(dir)
    }

    fn commit(&mut self, recs: Vec<Rec>, sync: bool) {
        // Without a mode a batch may wait in fjall's 8 KiB buffer; `Buffer` hands it to the OS
        // (`write(2)`), which is what sqslite acknowledges under the interval policy.
        let mode = if sync {
            PersistMode::SyncData
        } else {
            PersistMode::Buffer
        };
        let mut batch = self.db.batch().durability(Some(mode));
        for rec in recs {
            let key = workload::key(rec.seq).to_be_bytes();
            match rec.kind {
                Kind::Send => batch.insert(&self.messages, key, rec.bytes),
                Kind::Receive => batch.insert(&self.deliveries, key, rec.bytes),
                Kind::Delete => {
                    batch.remove(&self.messages, key);
                    batch.remove(&self.deliveries, key);
                }
            }
        }
        batch.commit().expect("fjall batch");
    }

    fn sync(&mut self) {
        self.db
            .persist(PersistMode::SyncData)
            .expect("fjall persist");
    }

    /// A major compaction of both trees drops the deleted messages and their tombstones.
    fn compact(&mut self) {
        for keyspace in [&self.messages, &self.deliveries] {
            keyspace.rotate_memtable_and_wait().expect("flush memtable");
            keyspace.major_compact().expect("fjall major compaction");
        }
    }

    fn load(dir: &Path, expected: usize) -> Loaded {
        let store = open(dir);
        let mut loaded = Loaded::with_capacity(expected);
        for keyspace in [&store.messages, &store.deliveries] {
            for guard in keyspace.iter() {
                let value = guard.value().expect("read a value");
                loaded.apply(&value).expect("decode");
            }
        }
        loaded
    }
}
