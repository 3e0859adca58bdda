//! Where outputs land, and the promise that nothing a user gave is lost on the way: a
//! file written atomically or standard output ([`Destination`]), a report directory
//! swapped in as a whole ([`write_directory`]), every input and output of a command
//! checked against each other before any work ([`Plan`]), and the temporaries (and a
//! `check` case's programs) removed when a signal ends the run
//! ([`remove_pending_temporaries`]).
//!
//! None of this renders anything: the renderers in [`crate::output`] and
//! [`crate::report`] build strings and bytes, and this module puts them in place. It sits
//! under every command (it imports only [`crate::error`]), so that `check`, which starts
//! programs that a signal must stop, need not reach up into the rendering.

mod cleanup;
mod destination;
mod directory;
mod fnv;
mod plan;

pub(crate) use cleanup::{kill_process_group, spawn_registered};
pub use cleanup::{remove_pending_temporaries, sweep_stale};
pub use destination::{Destination, stdout_reader_gone, write_atomically};
pub use directory::{MANIFEST, check_directory, write_directory};
pub use plan::{LegacyRule, Plan};
