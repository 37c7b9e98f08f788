//! A small pool of [`Store`] connections, each owned by a thread of its own that takes
//! calls from one queue. A request hands its call to the queue and awaits the answer;
//! SQLite's WAL mode lets the threads' reads run side by side. The queue holds a few
//! calls per connection, so under load a pool thread goes from one call to the next
//! without sleeping and a request costs about one thread switch (one call per connection
//! at a time cost two, and the tokio blocking pool, waking a thread per call, more: it
//! answered a fifth fewer intake reads on one core).
//!
//! Requests' reads have one connection per core ([`crate::config::Config::readers`]).
//! More threads than cores only take turns in time slices: on one core, four of them
//! made every answer wait behind the halves of three others, and the clients page's p99
//! was 14.9 ms where one thread answered it in 5.9 ms, a third more of them per second.
//! Long reads (exports, which last as long as their reader downloads, the analytics
//! report, printing) have [`LONG_READERS`] threads of their own ([`Db::call_long`],
//! [`Db::call_unbounded`]), so one of them never holds up the short ones.
//!
//! A call whose caller went away while it waited is dropped unrun. A running call's slot
//! is held until its database work has really ended, not only until its caller stops
//! waiting: a request the browser abandons, or one that runs past the deadline,
//! interrupts its statement, so it can neither keep a core busy nor let more work pile
//! up than the queue allows.
//!
//! Writes have a thread and a connection of their own ([`Db::write`]). SQLite writes one
//! transaction at a time and makes each durable with a flush to disk, so writes handed
//! to the pool's threads at once queued for the write lock (and slept in SQLite's busy
//! handler, 100 ms at worst) and paid a flush each. The writer instead takes every write
//! queued when it is free and runs them in one transaction, each in a savepoint of its
//! own, then commits once: one flush for the group, and no sleeping. A call is answered
//! only after the commit that stored it. The pool's connections and the writer share a
//! write gate ([`carepath_core::store::WriteGate`]), so a write still made on a pool
//! thread waits its turn in the process instead of in SQLite.
//!
//! Checkpoints (copying the WAL's pages into the database file, with a flush of that
//! file) have a thread of their own too. Left to SQLite, the commit that passes 1,000 WAL
//! pages checkpoints before its writes are answered: on a 1 GB file that flush took 26 ms
//! on average and 94 ms at worst, and every write queued behind it waited as long. The
//! writer instead wakes the checkpoint thread after its commits; it checkpoints at most
//! once a second, without blocking readers or the writer. While Litestream replicates
//! the file, checkpoints are its own ([`Db::leave_checkpoints_to_replicator`]).
//!
//! When no call has come for a few seconds, each thread gives back its connection's page
//! cache and the allocators their free memory, so an idle server stays small.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use carepath_core::store::{InterruptHandle, Store, WriteGate};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// What a request that ran past the deadline is answered.
pub const TOO_SLOW: &str = "This request took too long and was stopped. Please try again.";

/// Calls queued or running per connection at most.
const QUEUED_PER_CONNECTION: usize = 8;

/// Threads, each with its connection, for long reads.
pub const LONG_READERS: usize = 2;

/// How long without a call before a pool thread gives memory back.
const IDLE_AFTER: Duration = Duration::from_secs(5);

/// Write calls queued or running at most; more wait for their turn to queue.
const QUEUED_WRITES: usize = 128;

/// Write calls that share one commit at most, so a long queue is answered in steps.
const GROUP_LIMIT: usize = 64;

/// The checkpoint thread checkpoints at most this often, so the commits of one busy
/// second share one flush of the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    /// Requests' reads.
    short: Lane,
    /// Long reads.
    long: Lane,
    /// The writer's queue and its permits, as above.
    writes: Sender<WriteCall>,
    write_permits: Arc<Semaphore>,
    /// The longest one call may run before it is interrupted.
    deadline: Duration,
    /// The WAL size at which a connection checkpoints; 0: never, the checkpoint thread does.
    autocheckpoint: Arc<AtomicU32>,
}

/// A queue of calls and the threads that take them.
struct Lane {
    calls: Sender<Call>,
    /// At most this many calls are queued or running at once; the rest wait their turn
    /// here, where an abandoned request simply stops waiting.
    permits: Arc<Semaphore>,
}

/// One call for a pool thread: it runs with the thread's connection (None when the
/// thread has none open) and says whether the connection may be kept.
type Call = Box<dyn FnOnce(&mut Option<Store>) + Send>;

/// The running call's interrupt handle while it runs; None before and after.
type RunningSlot = Arc<Mutex<Option<InterruptHandle>>>;

/// One call for the writer: it runs inside its group's transaction (with the writer's
/// connection, None when it has none open) and hands back how to answer its caller once
/// the group has committed or failed; nothing when its caller went away before it ran.
type WriteCall = Box<dyn FnOnce(Option<&mut Store>) -> Option<Ran> + Send>;

/// A write call that ran, its answer held until its group's commit.
struct Ran {
    /// It ended in a way that must not reach the next call: interrupted, or a panic.
    spoilt: bool,
    /// A panic: nothing vouches for what it left in the transaction, so the whole
    /// group is rolled back.
    panicked: bool,
    answer: Answer,
}

/// Answers a write's caller, given its group's failure (None when it committed).
type Answer = Box<dyn FnOnce(Option<&carepath_core::Error>) + Send>;

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
    pub fn open(path: &Path, readers: usize, deadline: Duration) -> carepath_core::Result<Self> {
        let first = Store::open(path)?;
        let gate = first.write_gate();
        let readers = readers.max(1);
        let (writes, write_queue) = crossbeam_channel::bounded(QUEUED_WRITES);
        let autocheckpoint = Arc::new(AtomicU32::new(0));
        let (checkpoint_wake, checkpoint_wakes) = crossbeam_channel::bounded(1);
        let mut first = Some(first);
        let worker = |store| Worker {
            path: path.to_path_buf(),
            store,
            gate: gate.clone(),
            applied_autocheckpoint: None,
            autocheckpoint: autocheckpoint.clone(),
            checkpoint_wake: None,
        };
        let spawned = |name: String, work: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name)
                .spawn(work)
                .map(drop)
                .map_err(|source| carepath_core::Error::Io {
                    context: "starting the database pool".to_owned(),
                    source,
                })
        };
        let mut lane = |name: &str, threads: usize| {
            let (calls, queue) = crossbeam_channel::bounded(threads * QUEUED_PER_CONNECTION);
            for n in 0..threads {
                let worker = worker(first.take());
                let queue = queue.clone();
                spawned(format!("{name}-{n}"), Box::new(move || worker.run(queue)))?;
            }
            Ok::<_, carepath_core::Error>(Lane {
                calls,
                permits: Arc::new(Semaphore::new(threads * QUEUED_PER_CONNECTION)),
            })
        };
        let short = lane("carepath-db", readers)?;
        let long = lane("carepath-db-long", LONG_READERS)?;
        let writer = Worker {
            checkpoint_wake: Some(checkpoint_wake),
            ..worker(None)
        };
        spawned(
            "carepath-db-writer".to_owned(),
            Box::new(move || writer.write(write_queue)),
        )?;
        let checkpointer = Checkpointer {
            path: path.to_path_buf(),
            autocheckpoint: autocheckpoint.clone(),
        };
        spawned(
            "carepath-db-checkpoint".to_owned(),
            Box::new(move || checkpointer.run(checkpoint_wakes)),
        )?;
        Ok(Self {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                short,
                long,
                writes,
                write_permits: Arc::new(Semaphore::new(QUEUED_WRITES)),
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
        self.run_within(&self.inner.short, Some(self.inner.deadline), f)
            .await
    }

    /// Like [`Db::call`], for a read that takes long (a report over every client, a
    /// printout): it runs on the long reads' threads.
    pub async fn call_long<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    {
        self.run_within(&self.inner.long, Some(self.inner.deadline), |store| {
            f(store).map_err(ApiError::from)
        })
        .await
    }

    /// Runs a write with the writer's connection, within the deadline. Writes queued at
    /// the same moment run one after another in one transaction, each in a savepoint of
    /// its own (one that fails undoes only itself and answers its own error), and share
    /// one commit and so one flush to disk. Each is answered only once that commit is
    /// durable, so whatever its caller does next (an email, a notice) follows a stored
    /// change; a failed commit answers every write of its group with the error. For
    /// closures that only read and write the database: one that waits on the network or
    /// writes files would hold up every write queued behind it, and its files would
    /// outlive a failed commit.
    pub async fn write<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    {
        let inner = &self.inner;
        enqueue(
            (&inner.write_permits, &inner.writes),
            "the database writer has stopped",
            Some(inner.deadline),
            |permit, running, answer| write_call_of(permit, running, f, answer),
        )
        .await
    }

    /// Like [`Db::call_long`] with no deadline, for a streamed export: it stops when its
    /// reader goes away instead.
    pub async fn call_unbounded<T, F>(&self, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    {
        self.run_within(&self.inner.long, None, |store| {
            f(store).map_err(ApiError::from)
        })
        .await
    }

    async fn run_within<T, F>(
        &self,
        lane: &Lane,
        deadline: Option<Duration>,
        f: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
    {
        enqueue(
            (&lane.permits, &lane.calls),
            "the database pool has stopped",
            deadline,
            |permit, running, answer| call_of(permit, running, f, answer),
        )
        .await
    }
}

/// Queues a call made by `make` once a permit of its queue is free, and awaits its answer.
async fn enqueue<T, C>(
    (permits, queue): (&Arc<Semaphore>, &Sender<C>),
    stopped: &'static str,
    deadline: Option<Duration>,
    make: impl FnOnce(
        OwnedSemaphorePermit,
        RunningSlot,
        tokio::sync::oneshot::Sender<Result<T, ApiError>>,
    ) -> C,
) -> Result<T, ApiError> {
    let permit = permits
        .clone()
        .acquire_owned()
        .await
        .map_err(ApiError::internal)?;
    let running: RunningSlot = Arc::default();
    let (answer, answered) = tokio::sync::oneshot::channel();
    let call = make(permit, running.clone(), answer);
    // A permit is free, so the queue has room and this never waits.
    queue
        .try_send(call)
        .map_err(|_| ApiError::internal(stopped))?;
    answer_within(deadline, running, answered).await
}

/// Awaits a queued call's answer; past `deadline`, or when the caller goes away, its
/// statement is interrupted.
async fn answer_within<T>(
    deadline: Option<Duration>,
    running: RunningSlot,
    answered: tokio::sync::oneshot::Receiver<Result<T, ApiError>>,
) -> Result<T, ApiError> {
    {
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

/// `f` as the writer's call: it runs in a savepoint of the group's transaction and
/// leaves its answer to be given after the group's commit; the slot is given back then.
fn write_call_of<T, F>(
    permit: OwnedSemaphorePermit,
    running: RunningSlot,
    f: F,
    answer: tokio::sync::oneshot::Sender<Result<T, ApiError>>,
) -> WriteCall
where
    T: Send + 'static,
    F: FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
{
    Box::new(move |connection: Option<&mut Store>| {
        // Its caller went away while it waited: there is nobody to answer.
        if answer.is_closed() {
            return None;
        }
        let Some(store) = connection else {
            let _ = answer.send(Err(ApiError::internal("no database connection")));
            return None;
        };
        if let Ok(mut slot) = running.lock() {
            *slot = Some(store.interrupt_handle());
        }
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| store.apart(f)));
        let interrupted = running
            .lock()
            .map(|mut slot| slot.take().is_none())
            .unwrap_or(true);
        let panicked = result.is_err();
        Some(Ran {
            spoilt: interrupted || panicked,
            panicked,
            answer: Box::new(move |failed: Option<&carepath_core::Error>| {
                let _permit = permit;
                let result = match (result, failed) {
                    (Err(_), _) => Err(ApiError::internal("a database call panicked")),
                    // Its own failure stands: its savepoint was undone either way.
                    (Ok(Err(error)), _) => Err(ApiError::from(error)),
                    (Ok(Ok(value)), None) => Ok(value),
                    (Ok(Ok(_)), Some(error)) => Err(ApiError::failed_write(error)),
                };
                let _ = answer.send(result);
            }),
        })
    })
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

/// The checkpoint thread: a connection of its own, opened at its first checkpoint.
struct Checkpointer {
    path: PathBuf,
    autocheckpoint: Arc<AtomicU32>,
}

impl Checkpointer {
    /// Waits for a commit, lets the commits of the next second join it, then checkpoints
    /// what no reader still needs (the rest at a later turn). Ends with the writer.
    fn run(self, wakes: Receiver<()>) {
        let mut store: Option<Store> = None;
        while wakes.recv().is_ok() {
            std::thread::sleep(CHECKPOINT_EVERY);
            // The commits of that second are all in this checkpoint.
            let _ = wakes.try_recv();
            if self.autocheckpoint.load(Ordering::Relaxed) != 0 {
                continue;
            }
            if store.is_none() {
                match Store::open(&self.path) {
                    Ok(opened) => store = Some(opened),
                    Err(error) => {
                        tracing::error!(%error, "opening the checkpoint connection failed")
                    }
                }
            }
            if let Some(Err(error)) = store.as_ref().map(Store::checkpoint) {
                tracing::error!(%error, "a checkpoint failed");
                store = None;
            }
        }
    }
}

/// A pool thread or the writer: its connection, opened when a call first needs it.
struct Worker {
    path: PathBuf,
    store: Option<Store>,
    /// Shared by the pool's connections and the writer's.
    gate: WriteGate,
    /// The setting this connection has; None until it has one.
    applied_autocheckpoint: Option<u32>,
    autocheckpoint: Arc<AtomicU32>,
    /// The writer's: wakes the checkpoint thread after a commit.
    checkpoint_wake: Option<Sender<()>>,
}

impl Worker {
    fn run(mut self, queue: Receiver<Call>) {
        while let Some(call) = self.next(&queue) {
            self.connect();
            call(&mut self.store);
        }
    }

    /// The writer's loop: the first write queued opens a group, which takes in every
    /// write queued meanwhile (up to [`GROUP_LIMIT`]) and commits once.
    fn write(mut self, queue: Receiver<WriteCall>) {
        while let Some(first) = self.next(&queue) {
            self.connect();
            let Some(store) = self.store.as_mut() else {
                first(None);
                continue;
            };
            let mut ran: Vec<Ran> = Vec::new();
            let mut next = Some(first);
            let group = store.batch(|store| {
                while let Some(call) = next.take() {
                    if let Some(done) = call(Some(store)) {
                        let panicked = done.panicked;
                        ran.push(done);
                        if panicked {
                            return Err(carepath_core::Error::Rejected(
                                "a write of the group panicked".to_owned(),
                            ));
                        }
                    }
                    // An error SQLite answered by rolling the transaction back ends
                    // the group: the commit reports it to every write in it.
                    if !store.in_transaction() || ran.len() >= GROUP_LIMIT {
                        break;
                    }
                    next = queue.try_recv().ok();
                }
                Ok(())
            });
            let failed = group.err();
            if let Some(error) = &failed {
                tracing::error!(%error, writes = ran.len(), "a group of writes failed to commit");
            }
            let spoilt = failed.is_some() || ran.iter().any(|done| done.spoilt);
            for done in ran {
                (done.answer)(failed.as_ref());
            }
            if let Some(wake) = &self.checkpoint_wake {
                // Full means a wake is already pending; that one will do.
                let _ = wake.try_send(());
            }
            // As in the pool: an interrupted or panicked connection is not reused.
            if spoilt {
                self.store = None;
            }
        }
    }

    /// The next call; after [`IDLE_AFTER`] without one, memory is given back first.
    /// None when the queue has closed.
    fn next<C>(&self, queue: &Receiver<C>) -> Option<C> {
        match queue.recv_timeout(IDLE_AFTER) {
            Ok(call) => Some(call),
            Err(RecvTimeoutError::Timeout) => {
                self.release_memory();
                queue.recv().ok()
            }
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Opens the connection when there is none, with the pool's checkpoint setting.
    /// Failing leaves none: the call answers an error and the next one tries again.
    fn connect(&mut self) {
        if self.store.is_none() {
            self.applied_autocheckpoint = None;
            match Store::open(&self.path) {
                Ok(mut store) => {
                    store.share_write_gate(self.gate.clone());
                    self.store = Some(store);
                }
                Err(error) => tracing::error!(%error, "opening a database connection failed"),
            }
        }
        let pages = self.autocheckpoint.load(Ordering::Relaxed);
        if let Some(store) = &self.store
            && self.applied_autocheckpoint != Some(pages)
            && store.set_autocheckpoint(pages).is_ok()
        {
            self.applied_autocheckpoint = Some(pages);
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
    use carepath_core::model::{Actor, Channel};
    use carepath_core::store::NewUser;

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
    async fn long_reads_never_hold_up_a_requests_read() {
        let (_dir, db) = pool(1);
        // Both long threads busy until the short read has answered.
        let (done, wait) = crossbeam_channel::bounded::<()>(0);
        let long = |db: &Db, wait: Receiver<()>, unbounded: bool| {
            let db = db.clone();
            tokio::spawn(async move {
                let hold = move |_store: &mut Store| {
                    let _ = wait.recv_timeout(Duration::from_secs(5));
                    Ok(())
                };
                if unbounded {
                    db.call_unbounded(hold).await
                } else {
                    db.call_long(hold).await
                }
            })
        };
        let export = long(&db, wait.clone(), true);
        let report = long(&db, wait, false);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let read = tokio::time::timeout(
            Duration::from_secs(2),
            db.call(|store| store.data_version()),
        )
        .await;
        drop(done);
        assert!(
            matches!(read, Ok(Ok(_))),
            "the read answered while an export and a report ran"
        );
        assert!(export.await.unwrap().is_ok());
        assert!(report.await.unwrap().is_ok());
    }

    fn new_user(name: &str) -> NewUser {
        NewUser {
            email: format!("{name}@agency.test"),
            full_name: format!("User {name}"),
            password: None,
            is_admin: false,
        }
    }

    /// Holds the writer for a moment, so the writes sent meanwhile queue behind it.
    fn hold_the_writer(db: &Db) -> tokio::task::JoinHandle<Result<(), ApiError>> {
        let db = db.clone();
        tokio::spawn(async move {
            db.write(|store| {
                std::thread::sleep(Duration::from_millis(300));
                store
                    .create_user(&Actor::system(Channel::Cli), new_user("first"))
                    .map(drop)
            })
            .await
        })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_queued_together_share_a_transaction_and_a_refused_one_undoes_only_itself() {
        let (_dir, db) = pool(2);
        let held = hold_the_writer(&db);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let writes = (0..20).map(|n| {
            let db = db.clone();
            async move {
                db.write(move |store| {
                    let grouped = store.in_transaction();
                    let system = Actor::system(Channel::Cli);
                    store.create_user(&system, new_user(&format!("user{n}")))?;
                    // The seventh writes its user, then is refused: its user goes too.
                    if n == 7 {
                        store.create_user(&system, new_user("user0"))?;
                    }
                    Ok(grouped)
                })
                .await
            }
        });
        let answers = futures_util::future::join_all(writes).await;
        held.await.unwrap().unwrap();
        for (n, answer) in answers.iter().enumerate() {
            match answer {
                Ok(grouped) => assert!(*grouped, "write {n} ran outside a group"),
                Err(error) => assert_eq!(n, 7, "write {n} failed: {}", error.message),
            }
        }
        assert!(answers[7].is_err());
        // Answered means committed: a pool connection sees every write but the refused.
        let emails: Vec<String> = db
            .call(|store| store.users())
            .await
            .unwrap()
            .into_iter()
            .map(|user| user.email)
            .collect();
        assert_eq!(emails.len(), 20, "{emails:?}");
        assert!(!emails.contains(&"user7@agency.test".to_owned()));
        assert!(emails.contains(&"user19@agency.test".to_owned()));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_checkpoint_thread_moves_committed_writes_into_the_file_and_commits_do_not() {
        let (dir, db) = pool(1);
        let file = dir.path().join("carepath.db");
        let size = || std::fs::metadata(&file).unwrap().len();
        // Past anything pending from opening the file.
        tokio::time::sleep(CHECKPOINT_EVERY * 2).await;
        let before = size();
        for n in 0..200 {
            db.write(move |store| {
                store
                    .create_user(&Actor::system(Channel::Cli), new_user(&format!("user{n}")))
                    .map(drop)
            })
            .await
            .unwrap();
        }
        // Far below SQLite's own 1,000 pages: no commit checkpointed them itself.
        let written = size();
        let mut after = written;
        for _ in 0..50 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            after = size();
            if after > written {
                break;
            }
        }
        assert!(
            after > written,
            "the file stayed at {after} bytes (before the writes {before})"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_on_the_pool_and_the_writer_at_once_all_land() {
        let (_dir, db) = pool(3);
        let writes = (0..30).map(|n| {
            let db = db.clone();
            async move {
                let write = move |store: &mut Store| {
                    store
                        .create_user(&Actor::system(Channel::Cli), new_user(&format!("u{n}")))
                        .map(drop)
                };
                if n % 2 == 0 {
                    db.write(write).await
                } else {
                    db.call(write).await
                }
            }
        });
        for answer in futures_util::future::join_all(writes).await {
            answer.unwrap();
        }
        assert_eq!(db.call(|store| store.users()).await.unwrap().len(), 30);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_that_panics_fails_its_group_and_the_writer_keeps_answering() {
        let (_dir, db) = pool(1);
        let held = hold_the_writer(&db);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let neighbour = db.write(|store| {
            store
                .create_user(&Actor::system(Channel::Cli), new_user("neighbour"))
                .map(drop)
        });
        let panicking = db.write(|_store| -> carepath_core::Result<()> { panic!("a bug in core") });
        let (neighbour, panicking) = tokio::join!(neighbour, panicking);
        assert!(panicking.is_err());
        // Nothing of a group with a panic is kept, and nobody is told it was: the
        // holding write and the neighbour shared its transaction.
        assert!(held.await.unwrap().is_err());
        assert!(neighbour.is_err());
        let after = db
            .write(|store| {
                store
                    .create_user(&Actor::system(Channel::Cli), new_user("after"))
                    .map(drop)
            })
            .await;
        assert!(after.is_ok(), "{:?}", after.err());
        let users = db.call(|store| store.users()).await.unwrap();
        let emails: Vec<&str> = users.iter().map(|user| user.email.as_str()).collect();
        assert_eq!(emails, ["after@agency.test"]);
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
