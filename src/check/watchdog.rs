//! A time limit on the program of a `command` case.
//!
//! A gate that waits forever is worse than one that fails: a program that never stops
//! printing, never prints, or leaves a background child holding its output open would
//! hold a CI job until the job's own limit, with nothing said about which case hung. The
//! watchdog kills the program's whole process group when its time is up (the program is
//! started as the leader of a group of its own, so its children go with it and the pipe
//! closes), and the case is then an error that says so.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Kills process group `group` when `limit` passes before [`Watchdog::stop`].
pub struct Watchdog {
    stop: mpsc::Sender<()>,
    fired: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Watchdog {
    /// Starts the clock for the process group led by `leader` (a child started with
    /// [`own_process_group`]).
    pub fn start(leader: u32, limit: Duration) -> Self {
        let (stop, stopped) = mpsc::channel::<()>();
        let fired = Arc::new(AtomicBool::new(false));
        let fired_here = Arc::clone(&fired);
        let thread = std::thread::spawn(move || {
            if stopped.recv_timeout(limit) == Err(RecvTimeoutError::Timeout) {
                fired_here.store(true, Ordering::SeqCst);
                crate::files::kill_process_group(leader);
            }
        });
        Self { stop, fired, thread }
    }

    /// Stops the clock; `true` when the time had run out and the program was killed.
    pub fn stop(self) -> bool {
        drop(self.stop);
        let _ = self.thread.join();
        self.fired.load(Ordering::SeqCst)
    }
}

/// Makes the child the leader of a process group of its own, so that [`Watchdog`] can
/// kill it with everything it started.
pub fn own_process_group(command: &mut std::process::Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = command;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_program_that_outlives_its_limit_is_killed_with_its_children() {
        let mut command = std::process::Command::new("sh");
        // The background sleep would keep running (and any pipe open) if only sh died.
        command.args(["-c", "sleep 30 & sleep 30"]);
        own_process_group(&mut command);
        let mut child = command.spawn().unwrap();
        let watchdog = Watchdog::start(child.id(), Duration::from_millis(200));
        let status = child.wait().unwrap();
        assert!(watchdog.stop(), "the limit passed");
        assert!(!status.success());

        let mut quick = std::process::Command::new("true");
        own_process_group(&mut quick);
        let mut child = quick.spawn().unwrap();
        let watchdog = Watchdog::start(child.id(), Duration::from_secs(30));
        assert!(child.wait().unwrap().success());
        assert!(!watchdog.stop(), "stopped before the limit");
    }
}
