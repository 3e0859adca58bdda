//! A run's event stream: the updates a watching page gets (the count about every
//! [`UPDATE_INTERVAL`], the charts and tests when a step is new and a view is affordable),
//! the exact view when it is ready, and the run stopped when the page goes.
//!
//! Apart from the routes because it is the one part of serving that runs for as long as
//! a run does, paced against the run's own cost: what it costs to watch is decided here.
//!
//! The order a page can rely on: the first update at once (the exact law of ten cards
//! takes seconds; it no longer holds the first update back), the `exact` event when the
//! law is ready and always before the last update (which says how the run ended, and
//! after which the page closes the stream), and nothing after the last update. A view
//! that cannot be made (a bug in the charts' code) ends the stream with an update whose
//! phase is `failed` and whose error says why, never with an empty one.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::response::Response;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Serialize;
use tokio::sync::watch;

use super::Served;
use super::jobs::Job;
use super::live::{LiveRun, Phase};
use super::replies::find;
use super::snapshot::{View, live_view};
use super::views::panic_message;

/// One update of a run for the page.
#[derive(Serialize)]
struct Snapshot {
    phase: Phase,
    /// Deals (samples, draws) the engine has finished so far.
    deals: u64,
    /// Deals (samples, draws) asked for.
    trials: u64,
    seconds: f64,
    rate: f64,
    error: Option<String>,
    /// The charts and tests of what was tallied by the last step, when they are new
    /// (`None` in an update that only moves the count).
    view: Option<View>,
    /// The processor time making the view took, in milliseconds (what watching costs;
    /// `scripts/bench_serve_views.sh` reads it).
    view_ms: Option<f64>,
}

/// An update: the count, and the view of the last step when `with_view`; and the
/// processor time making the view took (what it costs the run, which shares the cores:
/// not the time it waited for them, which on a loaded machine is most of its wall time).
fn snapshot(run: &LiveRun, phase: Phase, with_view: bool) -> (String, Duration) {
    let seconds = run.started.elapsed().as_secs_f64();
    let deals = run.counted();
    let (tallied, error) = run.tallied();
    // While the run runs, a shuffle with a summary of its order counts is drawn from the
    // summary (a 10-card deck's 10! counts are not read); the last view, from everything.
    // The step count is read first: a step added between the two reads below would
    // otherwise have its 10! counts read (a CPU-second) for a view before any summary.
    let viewing = thread_time();
    let stepped = run.version() > 0;
    let view = with_view.then(|| {
        let report = if phase == Phase::Running {
            run.summary_report()
                .or_else(|| stepped.then(|| run.report(false)).flatten())
        } else {
            run.report(false)
        };
        report.map(|report| live_view(&report)).unwrap_or_default()
    });
    let cost = thread_time().saturating_sub(viewing);
    let snapshot = Snapshot {
        phase,
        deals: if phase == Phase::Running { deals } else { tallied },
        trials: run.request.total(),
        seconds,
        rate: if seconds > 0.0 {
            deals as f64 / seconds
        } else {
            0.0
        },
        error,
        view_ms: view.is_some().then_some(cost.as_secs_f64() * 1e3),
        view,
    };
    (to_json(&snapshot), cost)
}

/// The update that ends a stream whose view could not be made: phase `failed`, and why.
fn failed(run: &LiveRun, why: &str) -> String {
    to_json(&Snapshot {
        phase: Phase::Failed,
        deals: run.tallied().0,
        trials: run.request.total(),
        seconds: run.started.elapsed().as_secs_f64(),
        rate: 0.0,
        error: Some(format!("the charts of this run could not be made: {why}")),
        view: None,
        view_ms: None,
    })
}

fn to_json(snapshot: &Snapshot) -> String {
    serde_json::to_string(snapshot).unwrap_or_else(|error| {
        format!(
            r#"{{"phase":"failed","deals":0,"trials":0,"seconds":0,"rate":0,"error":{},"view":null,"view_ms":null}}"#,
            serde_json::Value::from(format!("the update could not be written: {error}"))
        )
    })
}

/// How an update is made: [`snapshot`] (a test makes one that fails).
type MakeUpdate = fn(&LiveRun, Phase, bool) -> (String, Duration);

/// Makes an update with `make` on a blocking thread: its data and cost, or, when making it
/// panicked (or the runtime is going away), the failed update that ends the stream.
async fn update(
    run: &Arc<LiveRun>,
    phase: Phase,
    with_view: bool,
    make: MakeUpdate,
) -> Result<(String, Duration), String> {
    let making = run.clone();
    match tokio::task::spawn_blocking(move || make(&making, phase, with_view)).await {
        Ok(made) => Ok(made),
        Err(error) if error.is_panic() => Err(failed(run, &panic_message(&*error.into_panic()))),
        Err(_) => Err(failed(run, "the server is stopping")),
    }
}

/// The processor time the calling thread has used (on Unix; elsewhere the time since the
/// first call, which counts waiting too).
fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec, which `time` is.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) } == 0 {
            return Duration::new(time.tv_sec as u64, time.tv_nsec as u32);
        }
    }
    static FIRST: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    FIRST.get_or_init(Instant::now).elapsed()
}

/// The time between two updates while a run runs: 10 a second (a view that takes long
/// to make delays its update by as much).
pub const UPDATE_INTERVAL: Duration = Duration::from_millis(100);

/// A view (charts and tests) may take at most this share of the time (it shares the
/// cores with the run): one that costs more comes less often, and the updates between
/// move the count. A shuffle's views, made from the summary of its counts, cost a few
/// milliseconds whatever the deck, so each update that has a new step carries one.
const VIEW_SHARE: u32 = 20;

/// A page watching a run: its updates as server-sent events. When the page goes (the
/// tab closed, the stream dropped), the run stops.
struct Watcher {
    job: Arc<Job>,
    make: MakeUpdate,
    /// The exact view, once computed.
    exact: watch::Receiver<Option<Arc<str>>>,
    sent_exact: bool,
    /// When the next update is due (the first: at once).
    due: Instant,
    /// The step whose view was sent last.
    drawn: Option<u64>,
    /// No view before this time.
    next_view: Instant,
    finished: bool,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.job.run.stop();
    }
}

impl Watcher {
    /// The exact view's data, if it is ready and not sent yet.
    fn exact_ready(&mut self) -> Option<Arc<str>> {
        if self.sent_exact {
            return None;
        }
        let ready = self.exact.borrow_and_update().clone()?;
        self.sent_exact = true;
        Some(ready)
    }

    /// Waits until the next update is due, the run has ended, or the exact view is ready.
    async fn wait(&mut self) {
        let run = self.job.run.clone();
        let mut changed = run.watch();
        while Instant::now() < self.due && run.phase() == Phase::Running {
            let sleep = tokio::time::sleep_until(self.due.into());
            tokio::select! {
                () = sleep => {}
                _ = changed.changed() => {}
                ready = self.exact.changed(), if !self.sent_exact => {
                    if ready.is_err() || self.exact.borrow().is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// The next event, or `None` once the last update is sent.
    async fn next(&mut self) -> Option<Event> {
        if self.finished {
            return None;
        }
        if let Some(exact) = self.exact_ready() {
            return Some(Event::default().event("exact").data(&*exact));
        }
        self.wait().await;
        if let Some(exact) = self.exact_ready() {
            return Some(Event::default().event("exact").data(&*exact));
        }
        let run = self.job.run.clone();
        // The phase is read before the update is made: a run that ends meanwhile then
        // gets one more, so that the stream's last update always says how it ended (and
        // carries the view of everything tallied).
        let phase = run.phase();
        if phase != Phase::Running {
            // The exact view comes before the last update (it is given up at once for a
            // stopped run, and takes at most a few seconds otherwise).
            if !self.sent_exact {
                let exact = self.exact.wait_for(Option::is_some).await.ok()?.clone()?;
                self.sent_exact = true;
                return Some(Event::default().event("exact").data(&*exact));
            }
            self.finished = true;
            let last = self
                .job
                .views
                .last(|| async {
                    match update(&run, phase, true, self.make).await {
                        Ok((data, _)) | Err(data) => Arc::from(data),
                    }
                })
                .await;
            return Some(Event::default().event("snapshot").data(&*last));
        }
        let started = Instant::now();
        let version = run.version();
        let with_view = self.drawn != Some(version) && started >= self.next_view;
        self.due = started + UPDATE_INTERVAL;
        match update(&run, phase, with_view, self.make).await {
            Ok((data, cost)) => {
                if with_view {
                    self.drawn = Some(version);
                    self.next_view = started + cost * VIEW_SHARE;
                }
                Some(Event::default().event("snapshot").data(data))
            }
            Err(failed) => {
                self.finished = true;
                Some(Event::default().event("snapshot").data(failed))
            }
        }
    }
}

pub(super) async fn watch_run(
    State(served): State<Arc<Served>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Response> {
    let job = find(&served, &id).map_err(|response| *response)?;
    // The page is watching (the run is not stopped as unwatched).
    drop(job.run.watch());
    let watcher = Watcher {
        exact: job.views.exact(),
        job,
        make: snapshot,
        sent_exact: false,
        due: Instant::now(),
        drawn: None,
        next_view: Instant::now(),
        finished: false,
    };
    let stream = futures_util::stream::unfold(watcher, |mut watcher| async move {
        let event = watcher.next().await?;
        Some((Ok(event), watcher))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::request::RunRequest;
    use crate::serve::views::RunViews;

    fn job(json: &str) -> Arc<Job> {
        let request = RunRequest::from_json(json.as_bytes())
            .unwrap()
            .resolve(1)
            .unwrap();
        let job = Arc::new(Job {
            run: LiveRun::new(request),
            views: RunViews::new(),
        });
        let runner = job.run.clone();
        std::thread::spawn(move || runner.run());
        job.start_exact();
        job
    }

    fn watcher(job: Arc<Job>, make: MakeUpdate) -> Watcher {
        Watcher {
            exact: job.views.exact(),
            job,
            make,
            sent_exact: false,
            due: Instant::now(),
            drawn: None,
            next_view: Instant::now(),
            finished: false,
        }
    }

    /// The text of an event as it is sent.
    async fn text(event: Event) -> String {
        use axum::response::IntoResponse;
        let response = Sse::new(futures_util::stream::iter([Ok::<_, Infallible>(event)])).into_response();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    }

    fn panics(_: &LiveRun, _: Phase, _: bool) -> (String, Duration) {
        panic!("a chart's scale had min > max\nsecond line")
    }

    /// A view that panics while the run runs ends the stream with an update of phase
    /// `failed` whose error says why in one line (never an empty update), and stops the run.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_view_that_fails_ends_the_stream_with_a_failed_update() {
        let job = job(r#"{"algorithm":"fisher-yates","n":"8","trials":"1e12","seed":"1"}"#);
        let run = job.run.clone();
        let mut watcher = watcher(job, panics);
        let mut updates = Vec::new();
        while let Some(event) = watcher.next().await {
            let event = text(event).await;
            if event.contains("event: snapshot") {
                updates.push(event);
            }
        }
        assert_eq!(updates.len(), 1, "{updates:?}");
        let data = updates[0]
            .lines()
            .find_map(|line| line.strip_prefix("data: "))
            .unwrap();
        let update: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(update["phase"], "failed");
        assert_eq!(
            update["error"],
            "the charts of this run could not be made: a chart's scale had min > max"
        );
        drop(watcher);
        assert!(run.should_stop(), "the watcher's end stops the run");
    }

    /// The last update of a run is made once: made by a view that fails, it is the failed
    /// update, for this watcher and every later one (not made again, not a panic each).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_last_view_that_fails_is_a_failed_update_for_every_watcher() {
        let job = job(r#"{"algorithm":"fisher-yates","n":"3","trials":"1000","seed":"1"}"#);
        while job.run.phase() == Phase::Running {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        for make in [panics as MakeUpdate, snapshot] {
            let mut watcher = watcher(job.clone(), make);
            let mut events = Vec::new();
            while let Some(event) = watcher.next().await {
                events.push(text(event).await);
            }
            assert_eq!(events.len(), 2, "{events:?}");
            assert!(events[0].starts_with("event: exact"), "{events:?}");
            assert!(events[1].contains(r#""phase":"failed""#), "{events:?}");
        }
    }
}
