//! The cap on open connections (`Config::max_connections`), shared
//! fairly: a connection the server waits on (its client has not sent a
//! whole request yet, or sits idle between requests) can be taken back,
//! one being served cannot. When every place is taken, a new connection
//! takes the place of the one that has waited longest on its client,
//! which is closed; only when every connection is being served is the
//! new one refused. So clients that open connections and send nothing,
//! or a byte at a time, cannot lock out the others: each newcomer evicts
//! the oldest of them. (They are also closed by the read deadlines:
//! `header_timeout_ms`, `body_timeout_ms`.) A connection is served from
//! the moment its request has arrived whole until its answer has been
//! sent, an event stream's included.

use axum::body::{Body, Bytes};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::sync::Notify;

/// The open connections.
pub struct Conns {
    cap: usize,
    table: Mutex<Table>,
}

struct Table {
    next: u64,
    open: HashMap<u64, Conn>,
}

struct Conn {
    /// Since when the server waits on the client; `None` while serving.
    waiting_since: Option<Instant>,
    /// Told when the connection must close to make room.
    evict: Arc<Notify>,
}

/// One connection's place, given back when dropped.
pub struct Slot {
    phase: Phase,
    evict: Arc<Notify>,
}

/// Says what a connection is doing, for the eviction's choice.
#[derive(Clone)]
pub struct Phase {
    id: u64,
    conns: Arc<Conns>,
}

impl Conns {
    pub fn new(cap: usize) -> Arc<Conns> {
        Arc::new(Conns { cap: cap.max(1), table: Mutex::new(Table { next: 0, open: HashMap::new() }) })
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new connection, waiting on its client: a free one,
    /// else the place of the connection that has waited longest (told to
    /// close); `None` when every connection is being served.
    pub fn admit(self: &Arc<Self>) -> Option<Slot> {
        let mut table = self.table();
        if table.open.len() >= self.cap {
            let (_, oldest) = table.open.iter().filter_map(|(&id, c)| Some((c.waiting_since?, id))).min()?;
            if let Some(evicted) = table.open.remove(&oldest) {
                evicted.evict.notify_one();
            }
        }
        let id = table.next;
        table.next += 1;
        let evict = Arc::new(Notify::new());
        table.open.insert(id, Conn { waiting_since: Some(Instant::now()), evict: evict.clone() });
        Some(Slot { phase: Phase { id, conns: self.clone() }, evict })
    }

    /// Connections open.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.table().open.len()
    }
}

impl Slot {
    pub fn phase(&self) -> Phase {
        self.phase.clone()
    }

    /// Completes when the connection must close to make room.
    pub async fn evicted(&self) {
        self.evict.notified().await
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.phase.conns.table().open.remove(&self.phase.id);
    }
}

impl Phase {
    fn set(&self, waiting_since: Option<Instant>) {
        if let Some(c) = self.conns.table().open.get_mut(&self.id) {
            c.waiting_since = waiting_since;
        }
    }

    /// The request has arrived whole: its answer is being made and sent.
    pub fn serving(&self) {
        self.set(None);
    }

    /// The answer has been sent: the server waits on the client again.
    fn waiting(&self) {
        self.set(Some(Instant::now()));
    }

    /// `body`, an answer's, that sets the connection waiting again once it
    /// is sent (hyper drops a body when it has sent it, or cannot).
    pub fn waiting_after(&self, body: Body) -> Body {
        Body::new(Sent { body, phase: self.clone() })
    }
}

/// An answer's body, and the connection it goes out on.
struct Sent {
    body: Body,
    phase: Phase,
}

impl Drop for Sent {
    fn drop(&mut self) {
        self.phase.waiting();
    }
}

impl hyper::body::Body for Sent {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newcomer_evicts_the_connection_waiting_longest_and_never_one_being_served() {
        let conns = Conns::new(3);
        let slots: Vec<Slot> = (0..3).map(|_| conns.admit().expect("a free place")).collect();
        slots[0].phase().serving();
        // slots[1] has waited longest of those waiting.
        slots[2].phase().waiting();
        let fourth = conns.admit().expect("the place of one waiting");
        assert_eq!(conns.len(), 3);
        let told = |slot: &Slot| {
            let notified = slot.evict.notified();
            futures_util::FutureExt::now_or_never(notified).is_some()
        };
        assert!(told(&slots[1]));
        assert!(!told(&slots[0]) && !told(&slots[2]) && !told(&fourth));
        // Every connection served: a newcomer is refused.
        for slot in [&slots[2], &fourth] {
            slot.phase().serving();
        }
        assert!(conns.admit().is_none());
        // A place given back is free again.
        drop(slots);
        assert_eq!(conns.len(), 1);
        assert!(conns.admit().is_some());
    }
}
