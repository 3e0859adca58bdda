//! The live runs the server holds: at most [`MAX_RUNNING`] at once, each known by an
//! unguessable id ([`super::new_id`]), the finished ones kept (a few) for their download,
//! each with its views made once ([`super::views`]).
//!
//! Why a limit: every run uses every core, and a page (or a script) that starts runs in a
//! loop must get a message, not a machine that no longer answers. Why unguessable ids:
//! whoever knows a run's id can stop it (a stream opened and dropped stops its run), so
//! the id is the run's only key, and only the page that started the run learns it.

use std::sync::{Arc, Mutex};

use super::exact::{ExactView, Unit, exact_view};
use super::live::{LiveRun, Phase};
use super::request::LiveRequest;
use super::views::{RunViews, UntilStopped, panic_message};

/// Runs that may be running at once.
pub const MAX_RUNNING: usize = 4;
/// Finished runs kept for their download; older ones are forgotten.
pub const KEPT_FINISHED: usize = 16;

/// A run and what is made of it once for every watcher.
pub struct Job {
    pub run: Arc<LiveRun>,
    pub views: RunViews,
}

impl Job {
    /// Starts computing `job`'s exact view on a thread of its own.
    pub fn start_exact(self: &Arc<Self>) {
        let job = self;
        let computing = job.clone();
        let spawned = std::thread::Builder::new()
            .name("exact-view".to_string())
            .spawn(move || {
                let job = computing;
                let run = &job.run;
                let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    exact_view(&run.request, &UntilStopped(run))
                }));
                let view = made.unwrap_or_else(|panic| {
                    ExactView::unknown(
                        Unit::Deals,
                        format!(
                            "The exact law could not be computed ({}).",
                            panic_message(&*panic)
                        ),
                    )
                });
                job.views.set_exact(&view);
            });
        if let Err(error) = spawned {
            let view = ExactView::unknown(
                Unit::Deals,
                format!("The exact law could not be computed (no thread: {error})."),
            );
            job.views.set_exact(&view);
        }
    }
}

/// Every run the server knows, by id, in the order they were started.
#[derive(Default)]
pub struct Jobs {
    runs: Mutex<Vec<(String, Arc<Job>)>>,
}

impl Jobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(String, Arc<Job>)>> {
        self.runs.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// Registers a run and starts it on a thread of its own (and its exact view on
    /// another), or says why not.
    pub fn start(&self, request: LiveRequest) -> Result<(String, Arc<Job>), String> {
        let mut runs = self.lock();
        let running = runs
            .iter()
            .filter(|(_, job)| job.run.phase() == Phase::Running)
            .count();
        if running >= MAX_RUNNING {
            return Err(format!(
                "{running} runs are already running (at most {MAX_RUNNING} at once); stop one, or wait for one to end"
            ));
        }
        let id = super::new_id()?;
        let finished = runs
            .iter()
            .filter(|(_, job)| job.run.phase() != Phase::Running)
            .count();
        let mut forget = finished.saturating_sub(KEPT_FINISHED - 1);
        runs.retain(|(_, job)| {
            let old = forget > 0 && job.run.phase() != Phase::Running;
            forget -= usize::from(old);
            !old
        });
        let run = LiveRun::new(request);
        let job = Arc::new(Job {
            views: RunViews::new(),
            run: run.clone(),
        });
        let runner = run.clone();
        std::thread::Builder::new()
            .name("live-run".to_string())
            .spawn(move || runner.run())
            .map_err(|error| format!("could not start the run: {error}"))?;
        job.start_exact();
        runs.push((id.clone(), job.clone()));
        Ok((id, job))
    }

    /// The run whose id is `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Job>> {
        self.lock()
            .iter()
            .find(|(known, _)| known.as_str() == id)
            .map(|(_, job)| job.clone())
    }

    /// How many runs are running.
    pub fn running(&self) -> usize {
        self.lock()
            .iter()
            .filter(|(_, job)| job.run.phase() == Phase::Running)
            .count()
    }

    /// Asks every run to stop (the server is stopping).
    pub fn stop_all(&self) {
        for (_, job) in self.lock().iter() {
            job.run.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_last_finished_runs_are_kept() {
        let jobs = Jobs::default();
        let request = crate::serve::request::RunRequest::from_json(
            br#"{"algorithm":"fisher-yates","n":"3","trials":"1000","seed":"1"}"#,
        )
        .unwrap()
        .resolve(1)
        .unwrap();
        let mut ids = Vec::new();
        for _ in 0..KEPT_FINISHED + 3 {
            let (id, job) = jobs.start(request.clone()).unwrap();
            while job.run.phase() == Phase::Running {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            ids.push(id);
        }
        assert!(jobs.get(&ids[0]).is_none() && jobs.get(&ids[2]).is_none());
        assert!(ids[3..].iter().all(|id| jobs.get(id).is_some()));
        assert_eq!(
            ids.iter().collect::<std::collections::BTreeSet<_>>().len(),
            ids.len()
        );
    }
}
