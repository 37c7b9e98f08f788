//! How the operating system schedules the server's threads.
//!
//! A request passes between threads twice: the runtime's thread that answers HTTP hands
//! its read to a database thread ([`crate::db`]) and is woken with the answer. Under
//! Linux's default policy the woken runtime thread took the core from the database
//! thread at once, for every answer, so on a busy core each answer cost two switches and
//! the database thread never ran the calls queued behind the first. The runtime's
//! threads run under `SCHED_BATCH` (sched(7): "without interactivity causing extra
//! preemptions (between the workload's tasks)"): woken, such a thread waits for the
//! running one to block or end its time slice, so the database thread runs its queue
//! through and the runtime then sends the answers together. On one core, 16
//! connections, the 100,000-client demo file: intake reads 17,300 → 22,200 a second,
//! timelines 14,400 → 17,200.
//!
//! Only the runtime's threads: with the database threads batched too, a write waited out
//! the readers' slices (the office day's p99 went from 12-13 to 16-20 ms), and the staff
//! screens in a browser on the same machine came 0.1-0.3 s later, the server's every
//! step waiting for the browser's slices. Batching the database threads alone gained
//! nothing.
//! The database threads are started from the thread that runs `serve` (not a runtime
//! thread), so they keep the policy the server was started with; Litestream, started
//! from a runtime thread, runs batched, as a background copier should. A server started
//! under another policy than the default (`chrt`, a unit's `CPUSchedulingPolicy=`)
//! keeps it everywhere. The nice value, and so the server's share of a core, is
//! unchanged.

/// On Linux, puts the calling thread under `SCHED_BATCH` when it runs under the default
/// policy; the runtime calls it as each of its threads starts. Failing (a system that
/// forbids it) leaves the policy as it was, with one warning: fewer answers a second on a
/// saturated core, nothing else.
pub fn batch_this_thread() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sched_getscheduler takes no pointer; pid 0 is the calling thread.
        if unsafe { libc::sched_getscheduler(0) } != libc::SCHED_OTHER {
            return;
        }
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: the pointer is to a live sched_param; pid 0 is the calling thread.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) } != 0 {
            let error = std::io::Error::last_os_error();
            // Blocking threads come and go; once is enough.
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                tracing::warn!(%error, "the runtime's threads keep the default scheduling policy");
            });
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Whether the calling thread runs under `SCHED_BATCH`.
    fn is_batch() -> bool {
        // SAFETY: sched_getscheduler takes no pointer; pid 0 is the calling thread.
        unsafe { libc::sched_getscheduler(0) == libc::SCHED_BATCH }
    }

    #[test]
    fn only_the_calling_thread_is_batched() {
        // On threads of their own, so the test harness's threads keep their policy.
        std::thread::spawn(|| {
            // A sibling that looks at its own policy only once the call has been made.
            let (made, wait) = std::sync::mpsc::channel::<()>();
            let sibling = std::thread::spawn(move || {
                wait.recv().unwrap();
                is_batch()
            });
            batch_this_thread();
            made.send(()).unwrap();
            assert!(is_batch());
            assert!(
                !sibling.join().unwrap(),
                "a thread running already was batched too"
            );
            // Again: already batched, it stays so.
            batch_this_thread();
            assert!(is_batch());
        })
        .join()
        .unwrap();
    }
}
