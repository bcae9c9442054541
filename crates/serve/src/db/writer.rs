//! The database's one writer: a thread of its own that owns the SQLite
//! connection, so that no SQLite call (a commit's fsync, a wait on a lock
//! another process holds) ever runs on the server's async threads.
//!
//! Requests send it jobs (one change each: the writes that keep it) and
//! wait for its answer, which it gives after the commit. It commits in
//! groups: the jobs queued while the last commit ran go into one
//! transaction, one fsync for them all, so that creates and moves coming
//! at once do not queue behind one fsync each. When a write of a group
//! fails, each of its jobs is tried again alone, so that one job's
//! failure (a game that no longer fits a full disk) is not the others';
//! when the group cannot begin (another process holds the database's
//! write lock past the busy timeout), every job of it fails at once.

use super::{Row, SAVE_SQL};
use rusqlite::{params, Connection, TransactionBehavior};
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// One write of a job.
#[derive(Debug)]
pub enum Write {
    /// A new game, or a game's new state.
    Save(Box<Row>),
    /// Forgets a game.
    Delete(String),
}

/// A job and where its answer goes.
struct Job {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The most jobs one transaction takes: bounds a commit's time, and the
/// retries after a failed one.
const MAX_GROUP: usize = 256;

/// The writer's handle: what the requests send their changes to.
pub struct Db {
    /// `None` once closed.
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Db {
    /// Starts the writer on `conn`; `keep` (the database's lock) lives as
    /// long as the writer and is dropped after the connection is closed.
    pub(super) fn start<K: Send + 'static>(conn: Connection, keep: K) -> Result<Db, String> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("catchess-db".into())
            .spawn(move || {
                write_groups(conn, rx);
                drop(keep);
            })
            .map_err(|e| format!("cannot start the database's writer: {e}"))?;
        Ok(Db { jobs: Mutex::new(Some(tx)), thread: Mutex::new(Some(thread)) })
    }

    /// Queues `writes` as one job; its answer comes on the receiver.
    fn send(&self, writes: Vec<Write>) -> Result<oneshot::Receiver<Result<(), String>>, String> {
        let (done, answer) = oneshot::channel();
        let sent = match locked(&self.jobs).as_ref() {
            Some(jobs) => jobs.send(Job { writes, done }).is_ok(),
            None => false,
        };
        if !sent {
            return Err(STOPPED.to_string());
        }
        Ok(answer)
    }

    /// Writes `writes` in one transaction; returns once it is committed
    /// (or failed: the message says why).
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), String> {
        let answer = self.send(writes)?;
        answer.await.unwrap_or_else(|_| Err(STOPPED.to_string()))
    }

    /// [`Db::commit`] for a thread that may block (a search's).
    pub fn commit_blocking(&self, writes: Vec<Write>) -> Result<(), String> {
        let answer = self.send(writes)?;
        answer.blocking_recv().unwrap_or_else(|_| Err(STOPPED.to_string()))
    }

    /// Lets the writer finish the jobs queued, then ends it: the
    /// connection is closed and the database's lock released when this
    /// returns. Later commits fail.
    pub fn close(&self) {
        locked(&self.jobs).take();
        if let Some(thread) = locked(&self.thread).take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        self.close();
    }
}

const STOPPED: &str = "the database's writer has stopped (the server is stopping)";

/// The writer's loop: a group of the jobs queued, one transaction, the
/// answers; until every sender has gone.
fn write_groups(mut conn: Connection, jobs: mpsc::Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let group: Vec<Job> = std::iter::once(first).chain(jobs.try_iter().take(MAX_GROUP - 1)).collect();
        let outcome = transact(&mut conn, group.iter().flat_map(|job| &job.writes));
        for job in group {
            let result = match &outcome {
                Ok(()) => Ok(()),
                Err(Failed::ToBegin(why)) => Err(why.clone()),
                Err(Failed::ToWrite(_)) => transact(&mut conn, job.writes.iter()).map_err(Failed::into_reason),
            };
            let _ = job.done.send(result);
        }
    }
}

/// Why a transaction failed.
enum Failed {
    /// Before any write: the database's write lock was not to be had.
    ToBegin(String),
    /// A write or the commit.
    ToWrite(String),
}

impl Failed {
    fn into_reason(self) -> String {
        match self {
            Failed::ToBegin(why) | Failed::ToWrite(why) => why,
        }
    }
}

/// Writes `writes` in one transaction, committed before it returns; rolled
/// back on any failure.
fn transact<'a>(conn: &mut Connection, writes: impl Iterator<Item = &'a Write>) -> Result<(), Failed> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| Failed::ToBegin(format!("cannot begin a write: {e}")))?;
    transact_in(&tx, writes).map_err(Failed::ToWrite)?;
    tx.commit().map_err(|e| Failed::ToWrite(format!("cannot commit: {e}")))
}

fn transact_in<'a>(tx: &rusqlite::Transaction, writes: impl Iterator<Item = &'a Write>) -> Result<(), String> {
    for write in writes {
        match write {
            Write::Save(row) => save(tx, row)?,
            Write::Delete(id) => {
                let mut stmt = tx.prepare_cached("DELETE FROM games WHERE id = ?1").map_err(|e| e.to_string())?;
                stmt.execute(params![id]).map_err(|e| format!("cannot delete game {id}: {e}"))?;
            }
        }
    }
    Ok(())
}

fn save(conn: &Connection, row: &Row) -> Result<(), String> {
    let why = |e: &dyn std::fmt::Display| format!("cannot save game {}: {e}", row.id);
    let moves = serde_json::to_string(&row.moves).map_err(|e| why(&e))?;
    let forfeits = serde_json::to_string(&row.forfeits).map_err(|e| why(&e))?;
    let clocks = serde_json::to_string(&row.clocks).map_err(|e| why(&e))?;
    let dice = serde_json::to_string(&row.dice).map_err(|e| why(&e))?;
    let table = serde_json::to_string(&row.table).map_err(|e| why(&e))?;
    let agreement = serde_json::to_string(&row.agreement).map_err(|e| why(&e))?;
    let review = serde_json::to_string(&row.review.as_deref()).map_err(|e| why(&e))?;
    let mut stmt = conn.prepare_cached(SAVE_SQL).map_err(|e| why(&e))?;
    let updated = i64::try_from(row.updated_ms).unwrap_or(i64::MAX);
    let values =
        params![row.id, row.variant, row.start_fen, moves, updated, forfeits, clocks, dice, table, agreement, review];
    stmt.execute(values).map(|_| ()).map_err(|e| why(&e))
}
