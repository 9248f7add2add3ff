//! The AI's own threads: a fixed number (at most the cores) fed by a
//! bounded queue. Searches never run on Tokio's blocking pool, where the
//! database writes of every request run, so a flood of AI seats slows
//! only the AI: a person's move is stored and answered as fast as ever.

use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

type Job = Box<dyn FnOnce() + Send>;

/// A pool of AI threads.
pub struct AiPool {
    jobs: mpsc::Sender<Job>,
    threads: usize,
}

impl AiPool {
    /// `threads` workers (at least one) and room for `queue` waiting jobs;
    /// when the queue is full, [`AiPool::run`] waits for room.
    pub fn new(threads: usize, queue: usize) -> AiPool {
        let threads = threads.max(1);
        let (tx, rx) = mpsc::channel::<Job>(queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("quadrille-ai-{i}"))
                .spawn(move || loop {
                    // One worker waits on the queue, the others on the lock.
                    let job = rx.lock().unwrap_or_else(|p| p.into_inner()).blocking_recv();
                    match job {
                        Some(job) => job(),
                        None => return,
                    }
                });
            if let Err(e) = spawned {
                eprintln!("warning: AI thread {i} not started: {e}");
            }
        }
        AiPool { jobs: tx, threads }
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` on an AI thread and returns its result (`None` if the
    /// job panicked or the pool is gone).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            if let Ok(v) = r {
                let _ = tx.send(v);
            }
        });
        self.jobs.send(job).await.ok()?;
        rx.await.ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_run_on_the_pool_and_panics_become_none() {
        let pool = AiPool::new(2, 4);
        let name = pool
            .run(|| std::thread::current().name().map(String::from))
            .await
            .flatten();
        assert!(name.unwrap().starts_with("quadrille-ai-"));
        let r: Option<u8> = pool.run(|| panic!("a failing search")).await;
        assert_eq!(r, None);
        // Still working after the panic.
        assert_eq!(pool.run(|| 7).await, Some(7));
    }
}
