//! The write gate: connections of one process take turns at SQLite's write lock here.
//!
//! SQLite lets one connection write at a time; one that finds the lock taken waits in its
//! busy handler, which sleeps in steps (1, 2, 5, 10 ... up to 100 ms) and checks again,
//! so a writer behind another often sleeps long after the lock was free (a server's write
//! answers had a p99 of 100 ms). Connections that share a gate instead wait on a mutex
//! around their write transaction and wake the moment the writer before them commits.
//! The busy timeout stays the fallback between processes (the CLI or the terminal UI
//! writing while the server runs).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Handed to every connection that should take turns with the others: a server's pool
/// shares one (see [`super::Store::share_write_gate`]); a connection opened on its own
/// has its own, which never makes it wait.
#[derive(Clone, Default)]
pub struct WriteGate(Arc<Mutex<()>>);

/// A turn at writing: held from `BEGIN IMMEDIATE` until the transaction has ended.
pub(crate) type Turn<'a> = MutexGuard<'a, ()>;

impl WriteGate {
    /// Waits for the turn. The mutex guards no data, only the turn: one a writer held
    /// when it panicked is simply taken over (its transaction is its connection's, rolled
    /// back as it unwinds or when the connection is closed).
    pub(crate) fn enter(&self) -> Turn<'_> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether two handles are the same gate.
    pub fn same_as(&self, other: &WriteGate) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
