//! What is made of a run once, whoever watches it: its exact view, computed on a thread
//! of its own as the run starts ([`super::jobs::Job::start_exact`]), and its last update (the view of everything tallied),
//! made when the run has ended.
//!
//! Why once: every page that opens a run's events (a reload, a second tab, a script
//! opening eight at a time) used to enumerate the exact law again and finish the tally
//! again, about a CPU-second each for ten cards. Now the first to ask makes each, the
//! others wait for it, and later ones are sent the copy. Why on a thread of its own: the
//! first updates must not wait for the exact law (up to a few seconds for ten cards);
//! it is sent when it is ready. It is given up when the run is stopped (Stop, a closed
//! tab, nobody watching), so that no work of a run outlives the run by more than a few
//! milliseconds.

use std::sync::Arc;

use tokio::sync::{OnceCell, watch};

use super::exact::ExactView;
use super::live::LiveRun;
use crate::simulate::Progress;

/// A run's views, each made once.
pub struct RunViews {
    /// The `exact` event's data, once computed.
    exact: watch::Sender<Option<Arc<str>>>,
    /// The last update's data, once the run has ended.
    last: OnceCell<Arc<str>>,
}

impl Default for RunViews {
    fn default() -> Self {
        Self::new()
    }
}

impl RunViews {
    /// No view made yet.
    pub fn new() -> Self {
        Self {
            exact: watch::channel(None).0,
            last: OnceCell::new(),
        }
    }

    /// Sets the exact view, and sends it to whoever follows it.
    pub fn set_exact(&self, view: &ExactView) {
        let data = serde_json::to_string(view).unwrap_or_else(|_| "null".to_string());
        self.exact.send_replace(Some(data.into()));
    }

    /// Follows the exact view: `None` until it is computed.
    pub fn exact(&self) -> watch::Receiver<Option<Arc<str>>> {
        self.exact.subscribe()
    }

    /// The last update, made by `make` for the first watcher that asks (the others wait
    /// for it): call only once the run has ended.
    pub async fn last<F>(&self, make: impl FnOnce() -> F) -> Arc<str>
    where
        F: Future<Output = Arc<str>>,
    {
        self.last.get_or_init(make).await.clone()
    }
}

/// The progress of work done for a run (its exact view): cancelled when the run stops.
pub struct UntilStopped<'a>(pub &'a LiveRun);

impl Progress for UntilStopped<'_> {
    fn advance(&self, _trials: u64) {}

    fn cancelled(&self) -> bool {
        self.0.should_stop()
    }
}

/// What a panic said, in one line (its payload is text when it comes from `panic!`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an internal error".to_string());
    let line = text.lines().next().unwrap_or("").to_string();
    crate::format::escaped_for_terminals(&line)
}
