//! A run's event stream: the updates a watching page gets (the count about every
//! [`UPDATE_INTERVAL`], the charts and tests when a step is new and a view is affordable,
//! the exact view first), and the run stopped when the page goes.
//!
//! Apart from the routes because it is the one part of serving that runs for as long as
//! a run does, paced against the run's own cost: what it costs to watch is decided here.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::response::Response;
use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::Serialize;

use super::Served;
use super::exact::{ExactView, exact_view};
use super::live::{LiveRun, Phase};
use super::routes::find;
use super::snapshot::{View, live_view};

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
    let viewing = thread_time();
    let view = with_view.then(|| {
        (phase == Phase::Running)
            .then(|| run.summary_report())
            .flatten()
            .or_else(|| run.report(false))
            .map(|report| live_view(&report))
            .unwrap_or_default()
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
    let json = serde_json::to_string(&snapshot).unwrap_or_else(|_| "{}".to_string());
    (json, cost)
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
    run: Arc<LiveRun>,
    /// The step whose view was sent last.
    drawn: Option<u64>,
    /// No view before this time.
    next_view: Instant,
    sent_exact: bool,
    finished: bool,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.run.stop();
    }
}

pub(super) async fn watch_run(
    State(served): State<Arc<Served>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Response> {
    let run = find(&served, &id).map_err(|response| *response)?;
    // The sender lives as long as the run, which the watcher holds; the page is watching.
    drop(run.watch());
    let watcher = Watcher {
        run,
        drawn: None,
        next_view: Instant::now(),
        sent_exact: false,
        finished: false,
    };
    let stream = futures_util::stream::unfold(watcher, |mut watcher| async move {
        if watcher.finished {
            return None;
        }
        if !watcher.sent_exact {
            watcher.sent_exact = true;
            let request = watcher.run.request.clone();
            let exact: Option<ExactView> = tokio::task::spawn_blocking(move || exact_view(&request))
                .await
                .ok();
            let data = serde_json::to_string(&exact).unwrap_or_else(|_| "null".to_string());
            return Some((Ok(Event::default().event("exact").data(data)), watcher));
        }
        // Wait for the next update's time, but not past the end of the run.
        let due = Instant::now() + UPDATE_INTERVAL;
        while Instant::now() < due && watcher.run.phase() == Phase::Running {
            tokio::time::sleep(Duration::from_millis(10).min(due - Instant::now())).await;
        }
        let run = watcher.run.clone();
        let started = Instant::now();
        // The phase is read before the update is made: a run that ends meanwhile then
        // gets one more, so that the stream's last update always says how it ended (and
        // carries the view of everything tallied).
        let phase = run.phase();
        let version = run.version();
        let with_view =
            phase != Phase::Running || (watcher.drawn != Some(version) && started >= watcher.next_view);
        let (data, cost) = tokio::task::spawn_blocking(move || snapshot(&run, phase, with_view))
            .await
            .unwrap_or_else(|_| ("{}".to_string(), Duration::ZERO));
        if with_view {
            watcher.drawn = Some(version);
            watcher.next_view = started + cost * VIEW_SHARE;
        }
        watcher.finished = phase != Phase::Running;
        Some((Ok(Event::default().event("snapshot").data(data)), watcher))
    });
    Ok(Sse::new(stream))
}
