//! SQLite (rusqlite, bundled) in WAL mode: one table, one row per message keyed by the integer
//! key (the rowid), the send record in one column and the latest delivery in another (a
//! receive is an UPDATE of that row). Each group is one transaction. Interval:
//! `synchronous=NORMAL` (commits are written to the WAL without a sync; the WAL is synced at
//! each checkpoint, by default every 1000 pages); always: `synchronous=FULL` (each commit
//! syncs the WAL). Otherwise SQLite's defaults (4 KiB pages, automatic checkpoints).

use std::path::Path;

use rusqlite::{params, Connection};

use crate::kv::{self, Backend};
use crate::workload::{self, Kind, Loaded, Rec};
use crate::Policy;

const FILE: &str = "queue.sqlite";

pub struct Sqlite {
    conn: Connection,
}

fn connect(dir: &Path, synchronous: &str) -> Connection {
    let conn = Connection::open(kv::file_in(dir, FILE)).expect("open sqlite");
    let mode: String = conn
        .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
        .expect("WAL mode");
    assert_eq!(mode, "wal");
    conn.pragma_update(None, "synchronous", synchronous)
        .expect("synchronous");
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS messages (
             key INTEGER PRIMARY KEY,
             record BLOB NOT NULL,
             delivery BLOB
         )",
    )
    .expect("create table");
    conn
}

impl Backend for Sqlite {
    fn open(dir: &Path, policy: Policy) -> Self {
        let synchronous = match policy {
            Policy::Interval => "NORMAL",
            Policy::Always => "FULL",
        };
        Sqlite {
            conn: connect(dir, synchronous),
        }
    }

    fn commit(&mut self, recs: Vec<Rec>, _sync: bool) {
        let tx = self.conn.transaction().expect("begin");
        {
            let mut insert = tx
                .prepare_cached("INSERT INTO messages (key, record) VALUES (?1, ?2)")
                .expect("prepare");
            let mut update = tx
                .prepare_cached("UPDATE messages SET delivery = ?2 WHERE key = ?1")
                .expect("prepare");
            let mut delete = tx
                .prepare_cached("DELETE FROM messages WHERE key = ?1")
                .expect("prepare");
            for rec in &recs {
                let key = workload::key(rec.seq) as i64;
                match rec.kind {
                    Kind::Send => insert.execute(params![key, rec.bytes]),
                    Kind::Receive => update.execute(params![key, rec.bytes]),
                    Kind::Delete => delete.execute(params![key]),
                }
                .expect("statement");
            }
        }
        tx.commit().expect("commit");
    }

    /// Under NORMAL, a checkpoint is what syncs; under FULL, every commit already did.
    fn sync(&mut self) {}

    /// Moves the WAL into the database, then VACUUM rewrites the file without its free pages.
    fn compact(&mut self) {
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE); VACUUM;")
            .expect("vacuum");
    }

    fn load(dir: &Path, expected: usize) -> Loaded {
        let conn = connect(dir, "NORMAL");
        let mut loaded = Loaded::with_capacity(expected);
        let mut rows = conn
            .prepare("SELECT record, delivery FROM messages")
            .expect("prepare");
        let mut rows = rows.query([]).expect("query");
        while let Some(row) = rows.next().expect("row") {
            let record = row.get_ref(0).expect("record").as_blob().expect("blob");
            loaded.apply(record).expect("decode");
            if let Some(delivery) = row
                .get_ref(1)
                .expect("delivery")
                .as_blob_or_null()
                .expect("blob")
            {
                loaded.apply(delivery).expect("decode");
            }
        }
        loaded
    }
}
