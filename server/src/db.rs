//! A small pool of [`Store`] connections, each owned by a thread of its own that takes
//! calls from one queue. A request hands its call to the queue and awaits the answer;
//! SQLite's WAL mode lets the threads' reads run side by side. The queue holds a few
//! calls per connection, so under load a pool thread goes from one call to the next
//! without sleeping and a request costs about one thread switch (one call per connection
//! at a time cost two, and the tokio blocking pool, waking a thread per call, more: it
//! answered a fifth fewer intake reads on one core).
//!
//! A call whose caller went away while it waited is dropped unrun. A running call's slot
//! is held until its database work has really ended, not only until its caller stops
//! waiting: a request the browser abandons, or one that runs past the deadline,
//! interrupts its statement, so it can neither keep a core busy nor let more work pile
//! up than the queue allows.
//!
//! When no call has come for a few seconds, each thread gives back its connection's page
//! cache and the allocators their free memory, so an idle server stays small.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use carepath_core::store::{InterruptHandle, Store};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// What a request that ran past the deadline is answered.
pub const TOO_SLOW: &str = "This request took too long and was stopped. Please try again.";

/// Calls queued or running per connection at most.
const QUEUED_PER_CONNECTION: usize = 8;

/// How long without a call before a pool thread gives memory back.
const IDLE_AFTER: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    calls: Sender<Call>,
    /// At most this many calls are queued or running at once; the rest wait their turn
    /// here, where an abandoned request simply stops waiting.
    permits: Arc<Semaphore>,
    /// The longest one call may run before it is interrupted.
    deadline: Duration,
    /// The WAL size at which a connection checkpoints; 0 keeps SQLite's default.
    autocheckpoint: Arc<AtomicU32>,
}

/// One call for a pool thread: it runs with the thread's connection (None when the
/// thread has none open) and says whether the connection may be kept.
type Call = Box<dyn FnOnce(&mut Option<Store>) + Send>;

/// The running call's interrupt handle while it runs; None before and after.
type RunningSlot = Arc<Mutex<Option<InterruptHandle>>>;

/// Interrupts the call's statement when dropped while the call still runs: that is when
/// its caller went away (an abandoned request) or gave up (the deadline).
struct InterruptOnDrop(RunningSlot);

impl Drop for InterruptOnDrop {
    fn drop(&mut self) {
        if let Some(handle) = self.0.lock().ok().and_then(|mut slot| slot.take()) {
            handle.interrupt();
        }
    }
}

impl Db {
    /// Opens one connection now, so a bad path or a too-new schema stops the server at
    /// start instead of at the first request, and starts the pool's threads.
    pub fn open(path: &Path, size: usize, deadline: Duration) -> carepath_core::Result<Self> {
        let first = Store::open(path)?;
        let size = size.max(1);
        let (calls, queue) = crossbeam_channel::bounded(size * QUEUED_PER_CONNECTION);
        let autocheckpoint = Arc::new(AtomicU32::new(0));
        let mut first = Some(first);
        for n in 0..size {
            let worker = Worker {
                path: path.to_path_buf(),
                store: first.take(),
                applied_autocheckpoint: 0,
                autocheckpoint: autocheckpoint.clone(),
            };
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("carepath-db-{n}"))
                .spawn(move || worker.run(queue))
                .map_err(|source| carepath_core::Error::Io {
                    context: "starting the database pool".to_owned(),
                    source,
                })?;
        }
        Ok(Self {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                calls,
                permits: Arc::new(Semaphore::new(size * QUEUED_PER_CONNECTION)),
                deadline,
                autocheckpoint,
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Leaves checkpoints to Litestream while it replicates the database: every
    /// connection checkpoints only past
    /// [`carepath_core::store::REPLICATED_AUTOCHECKPOINT_PAGES`] from its next call on.
    pub fn leave_checkpoints_to_replicator(&self) -> carepath_core::Result<()> {
        let pages = carepath_core::store::REPLICATED_AUTOCHECKPOINT_PAGES;
        self.inner.autocheckpoint.store(pages, Ordering::Relaxed);
        Ok(())
    }

    /// Runs `f` with a pooled connection, within the deadline.
    pub async fn call<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    {
        self.run(|store| f(store).map_err(ApiError::from)).await
    }

    /// Like [`Db::call`], for closures that already answer in the API's error type.
    pub async fn run<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_within(Some(self.inner.deadline), f).await
    }

    /// Like [`Db::call`] with no deadline, for a streamed export: it stops when its
    /// reader goes away instead.
    pub async fn call_unbounded<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    {
        self.run_within(None, |store| f(store).map_err(ApiError::from))
            .await
    }

    async fn run_within<T, F>(&self, deadline: Option<Duration>, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
    {
        let permit = self
            .inner
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(ApiError::internal)?;
        let running: RunningSlot = Arc::default();
        let (answer, answered) = tokio::sync::oneshot::channel();
        let call = call_of(permit, running.clone(), f, answer);
        // A slot is free (the permit says so), so the queue has room and this never waits.
        self.inner
            .calls
            .try_send(call)
            .map_err(|_| ApiError::internal("the database pool has stopped"))?;
        let guard = InterruptOnDrop(running);
        let answer = match deadline {
            Some(deadline) => match tokio::time::timeout(deadline, answered).await {
                Ok(answer) => answer,
                Err(_) => {
                    drop(guard);
                    tracing::warn!(
                        seconds = deadline.as_secs(),
                        "a database call ran past the deadline and was interrupted"
                    );
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "too_slow",
                        TOO_SLOW,
                    ));
                }
            },
            None => answered.await,
        };
        drop(guard);
        answer.map_err(|_| ApiError::internal("a database call ended without an answer"))?
    }
}

/// `f` as a pool thread's call: it answers through `answer` and gives the slot back when
/// its work has ended, however its caller fared.
fn call_of<T, F>(
    permit: OwnedSemaphorePermit,
    running: RunningSlot,
    f: F,
    answer: tokio::sync::oneshot::Sender<Result<T, ApiError>>,
) -> Call
where
    T: Send + 'static,
    F: FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
{
    Box::new(move |connection: &mut Option<Store>| {
        let _permit = permit;
        // Its caller went away while it waited: there is nobody to answer.
        if answer.is_closed() {
            return;
        }
        let Some(store) = connection.as_mut() else {
            let _ = answer.send(Err(ApiError::internal("no database connection")));
            return;
        };
        if let Ok(mut slot) = running.lock() {
            *slot = Some(store.interrupt_handle());
        }
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| f(store)));
        let interrupted = running
            .lock()
            .map(|mut slot| slot.take().is_none())
            .unwrap_or(true);
        // An interrupted connection is closed rather than reused: nothing of the
        // interruption can then reach the next call. A panic in core loses that
        // connection only; the next call opens a new one.
        let result = match result {
            Ok(result) => result,
            Err(_) => {
                *connection = None;
                Err(ApiError::internal("a database call panicked"))
            }
        };
        if interrupted {
            *connection = None;
        }
        let _ = answer.send(result);
    })
}

/// A pool thread: its connection, opened when a call first needs it.
struct Worker {
    path: PathBuf,
    store: Option<Store>,
    applied_autocheckpoint: u32,
    autocheckpoint: Arc<AtomicU32>,
}

impl Worker {
    fn run(mut self, queue: Receiver<Call>) {
        loop {
            let call = match queue.recv_timeout(IDLE_AFTER) {
                Ok(call) => call,
                Err(RecvTimeoutError::Timeout) => {
                    self.release_memory();
                    match queue.recv() {
                        Ok(call) => call,
                        Err(_) => return,
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
            self.connect();
            call(&mut self.store);
        }
    }

    /// Opens the connection when there is none, with the pool's checkpoint setting.
    /// Failing leaves none: the call answers an error and the next one tries again.
    fn connect(&mut self) {
        if self.store.is_none() {
            self.applied_autocheckpoint = 0;
            match Store::open(&self.path) {
                Ok(store) => self.store = Some(store),
                Err(error) => tracing::error!(%error, "opening a database connection failed"),
            }
        }
        let pages = self.autocheckpoint.load(Ordering::Relaxed);
        if let Some(store) = &self.store
            && pages != self.applied_autocheckpoint
            && store.set_autocheckpoint(pages).is_ok()
        {
            self.applied_autocheckpoint = pages;
        }
    }

    /// Gives the connection's page cache and the allocators' free pages back.
    fn release_memory(&self) {
        if let Some(store) = &self.store {
            // Only a cache: failing to shrink it changes nothing else.
            let _ = store.release_memory();
        }
        release_allocator_memory();
    }
}

/// Hands the allocators' free pages back to the system. Rust's allocations go to
/// mimalloc (see [`crate::Allocator`]), which purges freed pages only when a thread
/// next allocates; SQLite's go to glibc, which keeps every thread arena's freed memory.
/// Either way a server's size would stay at its busiest without this.
fn release_allocator_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointer; it walks glibc's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
    purge_mimalloc();
}

/// Gives mimalloc's freed pages back now, whichever thread freed them.
pub(crate) fn purge_mimalloc() {
    // SAFETY: mi_collect takes no pointer; it walks mimalloc's own free lists.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(size: usize) -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &dir.path().join("carepath.db"),
            size,
            Duration::from_secs(5),
        )
        .unwrap();
        (dir, db)
    }

    #[tokio::test]
    async fn a_call_that_panics_answers_an_error_and_the_pool_keeps_answering() {
        let (_dir, db) = pool(1);
        let failed = db
            .call(|_store| -> carepath_core::Result<()> { panic!("a bug in core") })
            .await;
        assert!(failed.is_err());
        for _ in 0..3 {
            let version = db.call(|store| store.data_version()).await;
            assert!(version.is_ok(), "{:?}", version.err());
        }
    }

    #[tokio::test]
    async fn more_calls_than_connections_all_answer() {
        let (_dir, db) = pool(2);
        let calls = (0..20).map(|n| {
            let db = db.clone();
            async move { db.call(move |store| store.data_version().map(|_| n)).await }
        });
        let answers = futures_util::future::join_all(calls).await;
        let answered: Vec<i32> = answers.into_iter().map(Result::unwrap).collect();
        assert_eq!(answered, (0..20).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_call_whose_caller_left_while_it_waited_is_never_run() {
        let (_dir, db) = pool(1);
        let busy = tokio::spawn({
            let db = db.clone();
            async move {
                db.call(|_store| {
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(())
                })
                .await
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = ran.clone();
        let left = tokio::time::timeout(
            Duration::from_millis(50),
            db.call(move |_store| {
                flag.store(true, Ordering::SeqCst);
                Ok(())
            }),
        )
        .await;
        assert!(left.is_err(), "the caller gave up while the call waited");
        assert!(busy.await.unwrap().is_ok());
        db.call(|store| store.data_version()).await.unwrap();
        assert!(!ran.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn an_abandoned_call_gives_its_slot_back() {
        let (_dir, db) = pool(1);
        let abandoned = tokio::time::timeout(
            Duration::from_millis(50),
            db.call(|_store| {
                std::thread::sleep(Duration::from_millis(300));
                Ok(())
            }),
        )
        .await;
        assert!(abandoned.is_err());
        let next =
            tokio::time::timeout(Duration::from_secs(5), db.call(|s| s.data_version())).await;
        assert!(matches!(next, Ok(Ok(_))));
    }
}
