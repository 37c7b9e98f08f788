//! A small pool of [`Store`] connections used from the blocking thread pool. Each call
//! takes a connection (opening one when none is idle), runs core on a blocking thread
//! and puts the connection back; SQLite's WAL mode lets the readers run side by side.
//!
//! A call's pool slot is held until its database work has really ended, not only until
//! its caller stops waiting: a request the browser abandons, or one that runs past the
//! deadline, interrupts its statement, so it can neither keep a core busy nor let more
//! work pile up than the pool allows.
//!
//! When no call has come for a few seconds, the idle connections give back their page
//! caches and the allocators their free memory, so an idle server stays small.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use carepath_core::store::{InterruptHandle, Store};
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// What a request that ran past the deadline is answered.
pub const TOO_SLOW: &str = "This request took too long and was stopped. Please try again.";

/// How long without a call before the pool gives memory back.
const IDLE_AFTER: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    idle: Mutex<Vec<Store>>,
    /// At most this many connections work at once; the rest wait their turn.
    permits: Arc<Semaphore>,
    /// The longest one call may run before it is interrupted.
    deadline: Duration,
    size: usize,
    started: Instant,
    /// Milliseconds after `started` of the latest call's start or end.
    last_call: AtomicU64,
    /// Memory was given back since the latest call.
    released: AtomicBool,
    /// The WAL size at which a connection checkpoints; 0 keeps SQLite's default.
    autocheckpoint: std::sync::atomic::AtomicU32,
}

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
    /// start instead of at the first request.
    pub fn open(path: &Path, size: usize, deadline: Duration) -> carepath_core::Result<Self> {
        let first = Store::open(path)?;
        let size = size.max(1);
        let inner = Arc::new(Inner {
            path: path.to_path_buf(),
            idle: Mutex::new(vec![first]),
            permits: Arc::new(Semaphore::new(size)),
            deadline,
            size,
            started: Instant::now(),
            last_call: AtomicU64::new(0),
            released: AtomicBool::new(false),
            autocheckpoint: std::sync::atomic::AtomicU32::new(0),
        });
        let watched = Arc::downgrade(&inner);
        // The pool's memory keeper ends with the pool. Failing to start it only costs
        // memory, never a request.
        let _ = std::thread::Builder::new()
            .name("carepath-pool-memory".to_owned())
            .spawn(move || keep_memory(watched));
        Ok(Self { inner })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Leaves checkpoints to Litestream while it replicates the database: every
    /// connection, open or opened later, checkpoints only past
    /// [`carepath_core::store::REPLICATED_AUTOCHECKPOINT_PAGES`].
    pub fn leave_checkpoints_to_replicator(&self) -> carepath_core::Result<()> {
        let pages = carepath_core::store::REPLICATED_AUTOCHECKPOINT_PAGES;
        self.inner.autocheckpoint.store(pages, Ordering::Relaxed);
        if let Ok(idle) = self.inner.idle.lock() {
            for store in idle.iter() {
                store.set_autocheckpoint(pages)?;
            }
        }
        Ok(())
    }

    /// Runs `f` with a connection on the blocking pool, within the deadline.
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
        self.inner.touch();
        let inner = self.inner.clone();
        let running: RunningSlot = Arc::default();
        let slot = running.clone();
        let task = tokio::task::spawn_blocking(move || {
            // Released when the work ends, however its caller fared.
            let _permit = permit;
            let idle = inner.idle.lock().ok().and_then(|mut idle| idle.pop());
            let mut store = match idle {
                Some(store) => store,
                None => {
                    let store = Store::open(&inner.path).map_err(ApiError::from)?;
                    match inner.autocheckpoint.load(Ordering::Relaxed) {
                        0 => {}
                        pages => store.set_autocheckpoint(pages).map_err(ApiError::from)?,
                    }
                    store
                }
            };
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(store.interrupt_handle());
            }
            let result = f(&mut store);
            let interrupted = slot
                .lock()
                .map(|mut slot| slot.take().is_none())
                .unwrap_or(true);
            // An interrupted connection is closed rather than reused: nothing of the
            // interruption can then reach the next call.
            if !interrupted && let Ok(mut idle) = inner.idle.lock() {
                idle.push(store);
            }
            inner.touch();
            result
        });
        let guard = InterruptOnDrop(running);
        let joined = match deadline {
            Some(deadline) => match tokio::time::timeout(deadline, task).await {
                Ok(joined) => joined,
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
            None => task.await,
        };
        drop(guard);
        // A panic in core loses that connection only; the next call opens a new one.
        joined.map_err(ApiError::internal)?
    }
}

impl Inner {
    fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn touch(&self) {
        self.last_call.store(self.elapsed_ms(), Ordering::Relaxed);
        self.released.store(false, Ordering::Relaxed);
    }

    /// Gives memory back when no call is running and none came for [`IDLE_AFTER`].
    fn release_if_idle(&self) {
        let quiet = self
            .elapsed_ms()
            .saturating_sub(self.last_call.load(Ordering::Relaxed));
        if self.released.load(Ordering::Relaxed)
            || quiet < IDLE_AFTER.as_millis() as u64
            || self.permits.available_permits() < self.size
        {
            return;
        }
        if let Ok(idle) = self.idle.lock() {
            for store in idle.iter() {
                // Only a cache: failing to shrink it changes nothing else.
                let _ = store.release_memory();
            }
        }
        release_allocator_memory();
        self.released.store(true, Ordering::Relaxed);
    }
}

fn keep_memory(pool: Weak<Inner>) {
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let Some(inner) = pool.upgrade() else {
            return;
        };
        inner.release_if_idle();
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
