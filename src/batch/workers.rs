//! The worker threads batches and enumerations play on: started once, each in room set aside
//! for it, or refused as a whole before any starts.
//!
//! Under a limit on address space (`ulimit -v`, which batch schedulers such as Grid Engine's
//! `h_vmem` set), threads started all at once race each other for what is left. One could map
//! its stack and then find no room for the signal stack Rust's runtime maps in every new
//! thread; that failure aborts the whole process ("memory allocation failed"), instead of
//! refusing the `--threads` asked for. So the room for every worker is reserved first (a refusal
//! then starts none), and each worker is given its share of it and is running before the next
//! is started.

use std::io;
use std::sync::mpsc::sync_channel;

use super::BatchError;

/// The stack of a worker: Rust's default for a new thread, stated so that the room set aside
/// for it is known (`RUST_MIN_STACK` does not change it).
const WORKER_STACK: usize = 2 << 20;

/// The room a starting worker takes beyond its stack: guard pages, its signal stack and thread
/// storage, and its first allocations.
const WORKER_EXTRA: usize = 256 << 10;

/// A pool of worker threads, started once and used for any number of batches (a sweep plays
/// every cell on the same threads, with no start-up cost between cells). The thread that runs a
/// batch writes its records: no thread of its own to wake, or to start, per batch.
pub struct Workers {
    pub(super) pool: rayon::ThreadPool,
}

impl Workers {
    /// Starts `threads` workers, or none: refused when the address space allowed has no room
    /// for them all, or when the system will not start another thread.
    pub fn new(threads: usize) -> Result<Workers, BatchError> {
        let refused = |source| BatchError::Pool { threads, source };
        let share = WORKER_STACK + WORKER_EXTRA;
        let mut room = Reserved::new(threads.saturating_mul(share)).map_err(refused)?;
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("warsim-worker-{i}"))
            .stack_size(WORKER_STACK)
            .spawn_handler(|thread| {
                room.give_back(share);
                start_and_wait(thread)
            })
            .build();
        // Given back before the error is told, which takes room of its own.
        drop(room);
        let pool = built.map_err(|error| refused(io::Error::other(error)))?;
        Ok(Workers { pool })
    }

    /// How many workers there are.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `task` once per worker, as tasks any worker may take, and collects what they
    /// return. Not `broadcast`: that waits for every worker in turn, so a sweep of many short
    /// cells on a busy machine waited a time slice per cell for a worker the system had paused;
    /// here the workers running take the tasks of those that are not (a task started late finds
    /// the work claimed and returns at once).
    pub fn each<T: Send>(&self, task: impl Fn() -> T + Sync) -> Vec<T> {
        use rayon::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
        self.pool.install(|| {
            (0..self.threads())
                .into_par_iter()
                .with_max_len(1)
                .map(|_| task())
                .collect()
        })
    }
}

/// Starts rayon's worker `thread`, and returns once it runs: by then it has mapped its stacks
/// and made its first allocation, within the share just given back for it.
fn start_and_wait(thread: rayon::ThreadBuilder) -> io::Result<()> {
    let mut builder = std::thread::Builder::new();
    if let Some(name) = thread.name() {
        builder = builder.name(name.to_string());
    }
    if let Some(size) = thread.stack_size() {
        builder = builder.stack_size(size);
    }
    let (running, started) = sync_channel(1);
    builder.spawn(move || {
        // The thread's first allocation settles where it allocates from, now rather than
        // while the next worker starts.
        std::hint::black_box(Box::new(0u64));
        // The pool is waiting on the other end, which stays open until this is received.
        let _ = running.send(());
        thread.run();
    })?;
    (started.recv()).map_err(|_| io::Error::other("a worker thread ended as it started"))
}

/// Address space reserved and not used (no access, no memory behind it), so that it counts
/// against the process's limit until given back.
struct Reserved {
    start: *mut libc::c_void,
    len: usize,
}

impl Reserved {
    /// Reserves `len` bytes (a multiple of the page size), or says why the system would not.
    fn new(len: usize) -> io::Result<Reserved> {
        if len == 0 {
            return Ok(Reserved {
                start: std::ptr::null_mut(),
                len,
            });
        }
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
        // SAFETY: a new anonymous mapping at an address the system chooses touches no memory
        // of the program's.
        let start = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_NONE, flags, -1, 0) };
        if start == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Reserved { start, len })
    }

    /// Gives back `bytes` (a multiple of the page size) of the room, or what is left of it.
    fn give_back(&mut self, bytes: usize) {
        let bytes = bytes.min(self.len);
        if bytes == 0 {
            return;
        }
        self.len -= bytes;
        // SAFETY: the range is the reservation's own tail, mapped by `new` and not yet given
        // back; nothing of the program's lives there.
        unsafe { libc::munmap(self.start.cast::<u8>().add(self.len).cast(), bytes) };
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        self.give_back(self.len);
    }
}
