//! The progress bar on standard error: it appears only when a command has run for a
//! second and standard error is a terminal, so that quick runs and pipelines stay quiet.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use shuffle_audit::format::compact;
use shuffle_audit::simulate::Progress;

/// A progress bar on standard error that appears only when the run has lasted a second
/// and standard error is a terminal, so quick runs and pipelines stay quiet. A timer
/// shows it, not the trials, so that a run whose first shuffles are slow shows it too,
/// ticking.
pub struct TerminalProgress {
    bar: ProgressBar,
    finished: Option<std::sync::mpsc::Sender<()>>,
}

impl TerminalProgress {
    const DELAY: Duration = Duration::from_secs(1);

    /// A bar for `total` trials, counted in `unit` (`shuffles` or `samples`); without a
    /// total (random paths whose number is not known in advance) a counter.
    pub fn new(total: Option<u64>, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => format!(
                "{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{rate}}, {{eta}} left)"
            ),
            None => format!("{{spinner}} [{{elapsed_precise}}] {{human_pos}} {unit} ({{rate}})"),
        };
        bar.set_style(
            ProgressStyle::with_template(&template)
                .expect("the template is valid")
                .with_key("rate", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{}/s", compact(state.per_sec()));
                }),
        );
        let (finished, wait) = std::sync::mpsc::channel::<()>();
        if std::io::stderr().is_terminal() {
            let shown = bar.clone();
            std::thread::spawn(move || {
                if wait.recv_timeout(Self::DELAY) == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    shown.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
                    shown.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        Self {
            bar,
            finished: Some(finished),
        }
    }

    pub fn finish(&mut self) {
        drop(self.finished.take());
        self.bar.finish_and_clear();
    }
}

impl Progress for TerminalProgress {
    fn advance(&self, trials: u64) {
        self.bar.inc(trials);
    }
}
