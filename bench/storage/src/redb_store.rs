//! redb: copy-on-write B+trees in one file. Two tables keyed by the message's integer key:
//! `messages` (the send record) and `deliveries` (the latest receive), so a receive does not
//! rewrite the message. Interval: commits with `Durability::None` and one `Immediate` commit
//! at most every 200 ms; always: every group's transaction commits `Immediate`.

use std::path::Path;

use redb::{Database, Durability, ReadableDatabase, ReadableTable, TableDefinition};

use crate::kv::{self, Backend};
use crate::workload::{self, Kind, Loaded, Rec};
use crate::Policy;

const MESSAGES: TableDefinition<u64, &[u8]> = TableDefinition::new("messages");
const DELIVERIES: TableDefinition<u64, &[u8]> = TableDefinition::new("deliveries");
const FILE: &str = "queue.redb";

pub struct Redb {
    db: Database,
}

impl Redb {
    fn transaction(&self, recs: &[Rec], durability: Durability) -> Result<(), redb::Error> {
        let mut tx = self.db.begin_write()?;
        tx.set_durability(durability)?;
        {
            let mut messages = tx.open_table(MESSAGES)?;
            let mut deliveries = tx.open_table(DELIVERIES)?;
            for rec in recs {
                let key = workload::key(rec.seq);
                match rec.kind {
                    Kind::Send => drop(messages.insert(key, rec.bytes.as_slice())?),
                    Kind::Receive => drop(deliveries.insert(key, rec.bytes.as_slice())?),
                    Kind::Delete => {
                        messages.remove(key)?;
                        deliveries.remove(key)?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}

impl Backend for Redb {
    fn open(dir: &Path, _policy: Policy) -> Self {
        let db = Database::create(kv::file_in(dir, FILE)).expect("open redb");
        let redb = Redb { db };
        // Create both tables, so that a reader finds them.
        redb.transaction(&[], Durability::Immediate)
            .expect("create tables");
        redb
    }

    fn commit(&mut self, recs: Vec<Rec>, sync: bool) {
        let durability = if sync {
            Durability::Immediate
        } else {
            Durability::None
        };
        self.transaction(&recs, durability).expect("redb commit");
    }

    fn sync(&mut self) {
        self.transaction(&[], Durability::Immediate)
            .expect("redb durable commit");
    }

    fn compact(&mut self) {
        // Each call moves what it can; it says `false` once nothing more can be reclaimed.
        while self.db.compact().expect("redb compact") {}
    }

    fn load(dir: &Path, expected: usize) -> Loaded {
        let db = Database::open(dir.join(FILE)).expect("open redb");
        let tx = db.begin_read().expect("read transaction");
        let mut loaded = Loaded::with_capacity(expected);
        for table in [MESSAGES, DELIVERIES] {
            for entry in tx.open_table(table).expect("table").iter().expect("iter") {
                let (_, value) = entry.expect("entry");
                loaded.apply(value.value()).expect("decode");
            }
        }
        loaded
    }
}
