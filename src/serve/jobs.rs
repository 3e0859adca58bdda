//! The live runs the server holds: at most [`MAX_RUNNING`] at once, each known by a
//! number, the finished ones kept (a few) for their download.
//!
//! Why a limit: every run uses every core, and a page (or a script) that starts runs in a
//! loop must get a message, not a machine that no longer answers.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::live::{LiveRun, Phase};
use super::request::LiveRequest;

/// Runs that may be running at once.
pub const MAX_RUNNING: usize = 4;
/// Finished runs kept for their download; older ones are forgotten.
pub const KEPT_FINISHED: usize = 16;

/// Every run the server knows.
#[derive(Default)]
pub struct Jobs {
    runs: Mutex<BTreeMap<u64, Arc<LiveRun>>>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Jobs {
    /// Registers a run and starts it on a thread of its own, or says why not.
    pub fn start(&self, request: LiveRequest) -> Result<(u64, Arc<LiveRun>), String> {
        let mut runs = self.runs.lock().unwrap_or_else(|poison| poison.into_inner());
        let running = runs.values().filter(|run| run.phase() == Phase::Running).count();
        if running >= MAX_RUNNING {
            return Err(format!(
                "{running} runs are already running (at most {MAX_RUNNING} at once); stop one, or wait for one to end"
            ));
        }
        let finished: Vec<u64> = runs
            .iter()
            .filter(|(_, run)| run.phase() != Phase::Running)
            .map(|(&id, _)| id)
            .collect();
        for id in finished
            .iter()
            .take(finished.len().saturating_sub(KEPT_FINISHED - 1))
        {
            runs.remove(id);
        }
        let id = self.next_id.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let run = LiveRun::new(request);
        runs.insert(id, run.clone());
        let runner = run.clone();
        std::thread::Builder::new()
            .name(format!("live-run-{id}"))
            .spawn(move || runner.run())
            .map_err(|error| format!("could not start the run: {error}"))?;
        Ok((id, run))
    }

    /// The run numbered `id`.
    pub fn get(&self, id: u64) -> Option<Arc<LiveRun>> {
        self.runs
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(&id)
            .cloned()
    }

    /// How many runs are running.
    pub fn running(&self) -> usize {
        self.runs
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .values()
            .filter(|run| run.phase() == Phase::Running)
            .count()
    }

    /// Asks every run to stop (the server is stopping).
    pub fn stop_all(&self) {
        for run in self
            .runs
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .values()
        {
            run.stop();
        }
    }
}
