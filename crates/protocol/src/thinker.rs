//! Searching in the background while the protocol loop keeps reading
//! commands (`stop`, `?`, `isready`): the searcher moves into a scoped
//! thread for one search and comes back when it ends.

use quadrille_engine::Position;
use quadrille_search::{Limits, SearchResult, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{Scope, ScopedJoinHandle};

/// Stack for the search thread (deep lines recurse).
const STACK_BYTES: usize = 64 * 1024 * 1024;

/// The searcher, either idle here or busy in a thread.
pub struct Thinker<'scope> {
    idle: Option<Searcher>,
    busy: Option<ScopedJoinHandle<'scope, (Searcher, SearchResult)>>,
    stop: Arc<AtomicBool>,
    /// The result of the last search, until taken.
    last: Option<SearchResult>,
}

impl<'scope> Thinker<'scope> {
    pub fn new(searcher: Searcher) -> Thinker<'scope> {
        Thinker {
            idle: Some(searcher),
            busy: None,
            stop: Arc::new(AtomicBool::new(false)),
            last: None,
        }
    }

    pub fn is_busy(&self) -> bool {
        self.busy.is_some()
    }

    /// Starts a search; `report` is called after each iteration and `done`
    /// with the final result, both on the search thread. Waits for a
    /// search still running first. Fails only if no thread can be made.
    pub fn start<'env>(
        &mut self,
        scope: &'scope Scope<'scope, 'env>,
        pos: Position,
        limits: Limits,
        mut report: impl FnMut(&SearchResult) + Send + 'scope,
        done: impl FnOnce(&SearchResult) + Send + 'scope,
    ) -> std::io::Result<()> {
        let mut searcher = self.searcher();
        self.stop = Arc::new(AtomicBool::new(false));
        let limits = limits.with_stop(self.stop.clone());
        let work = move || {
            let result = searcher.search(&pos, &limits, &mut report);
            done(&result);
            (searcher, result)
        };
        let handle = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)?;
        self.busy = Some(handle);
        Ok(())
    }

    /// Asks a running search to stop and waits for it (its `done` runs).
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    /// Waits for a running search to end on its own.
    pub fn wait(&mut self) {
        if let Some(h) = self.busy.take() {
            // A search thread that panicked loses its tables, nothing more.
            match h.join() {
                Ok((searcher, result)) => {
                    self.idle = Some(searcher);
                    self.last = Some(result);
                }
                Err(_) => self.idle = Some(Searcher::default()),
            }
        }
    }

    /// Collects a search that has ended, without waiting for one that
    /// has not.
    pub fn poll(&mut self) {
        if self.busy.as_ref().is_some_and(|h| h.is_finished()) {
            self.wait();
        }
    }

    /// The result of the last finished search, once (waits for a running
    /// one).
    pub fn take_result(&mut self) -> Option<SearchResult> {
        self.wait();
        self.last.take()
    }

    /// The searcher, once no search runs (waits for one that does).
    pub fn searcher(&mut self) -> Searcher {
        self.wait();
        self.idle.take().unwrap_or_default()
    }

    /// Puts the searcher back after [`Thinker::searcher`].
    pub fn put_back(&mut self, searcher: Searcher) {
        self.idle = Some(searcher);
    }

    /// Runs `f` on the idle searcher (waiting for a running search).
    pub fn with<T>(&mut self, f: impl FnOnce(&mut Searcher) -> T) -> T {
        let mut s = self.searcher();
        let t = f(&mut s);
        self.put_back(s);
        t
    }
}
