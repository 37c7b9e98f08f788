//! A small pool of [`Store`] connections used from the blocking thread pool. Each call
//! takes a connection (opening one when none is idle), runs core on a blocking thread
//! and puts the connection back; SQLite's WAL mode lets the readers run side by side.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use carepath_core::store::Store;
use tokio::sync::Semaphore;

use crate::error::ApiError;

#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    idle: Mutex<Vec<Store>>,
    /// At most this many connections work at once; the rest wait their turn.
    permits: Semaphore,
}

impl Db {
    /// Opens one connection now, so a bad path or a too-new schema stops the server at
    /// start instead of at the first request.
    pub fn open(path: &Path, size: usize) -> carepath_core::Result<Self> {
        let first = Store::open(path)?;
        Ok(Self {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                idle: Mutex::new(vec![first]),
                permits: Semaphore::new(size.max(1)),
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` with a connection on the blocking pool.
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
        let _permit = self
            .inner
            .permits
            .acquire()
            .await
            .map_err(ApiError::internal)?;
        let inner = self.inner.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let idle = inner.idle.lock().ok().and_then(|mut idle| idle.pop());
            let mut store = match idle {
                Some(store) => store,
                None => Store::open(&inner.path).map_err(ApiError::from)?,
            };
            let result = f(&mut store);
            if let Ok(mut idle) = inner.idle.lock() {
                idle.push(store);
            }
            result
        })
        .await;
        // A panic in core loses that connection only; the next call opens a new one.
        joined.map_err(ApiError::internal)?
    }
}
