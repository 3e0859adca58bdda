//! SIGINT, SIGTERM and SIGHUP: each removes the temporaries being written, kills the
//! programs a `check` case started, and exits with the shell's status for the signal
//! (130, 143, 129); a signal ignored when the program started stays ignored.

use std::sync::atomic::{AtomicBool, Ordering};

use shuffle_audit::files::remove_pending_temporaries;

/// A search that can stop cleanly asked for the first SIGINT ([`interrupt_stops_search`]).
static SEARCH_STOPS: AtomicBool = AtomicBool::new(false);
/// Set by the first SIGINT while [`SEARCH_STOPS`] is set.
static STOP_SEARCH: AtomicBool = AtomicBool::new(false);

/// The flag the first SIGINT sets, from now on, instead of ending the process: a seed
/// search stops at its next block and says which `--window` resumes it. A second SIGINT
/// (or SIGTERM, SIGHUP) still ends the process at once.
pub fn interrupt_stops_search() -> &'static AtomicBool {
    SEARCH_STOPS.store(true, Ordering::Relaxed);
    &STOP_SEARCH
}

/// SIGINT, SIGTERM and SIGHUP end the process at once, as they would without a handler,
/// but first remove the temporary files and directories being written (so the targets
/// keep their old contents and nothing is left beside them) and kill the programs a
/// `check` case started. The exit status is the shell's convention, 128 + the signal:
/// 130, 143, 129.
pub fn handle_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // A signal ignored when the program started stays ignored: `nohup` ignores SIGHUP
        // and a script's `cmd &` ignores SIGINT, and both mean "do not stop for it".
        let handled: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored_at_start(signal))
            .collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(handled) else {
            return;
        };
        std::thread::spawn(move || {
            for signal in signals.forever() {
                if signal == SIGINT
                    && SEARCH_STOPS.load(Ordering::Relaxed)
                    && !STOP_SEARCH.swap(true, Ordering::Relaxed)
                {
                    // The search ends at its next block and says where it got to.
                    continue;
                }
                // Held until the process exits: no writer renames anything into place after this.
                let _cleaned = remove_pending_temporaries();
                let what = match signal {
                    SIGINT => "interrupted",
                    SIGTERM => "terminated",
                    _ => "hung up",
                };
                say!("\nshuffle-audit: {what}; no output was left half written");
                std::process::exit(128 + signal);
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = ctrlc::set_handler(|| {
            let _cleaned = remove_pending_temporaries();
            say!("\nshuffle-audit: interrupted; no output was left half written");
            std::process::exit(130);
        });
    }
}

/// Whether `signal`'s disposition is "ignore" (as inherited from the parent).
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> bool {
    // SAFETY: sigaction with a null new action only reads the current one into `current`.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0 && current.sa_sigaction == libc::SIG_IGN
    }
}
