//! What an interrupted run must undo, and what a killed run left behind.
//!
//! Two halves of one promise, "an interrupted run leaves nothing behind":
//!
//! - While this process writes, every temporary file and staging directory it creates,
//!   and every program a `check` case started, is registered here ([`Pending`]). The
//!   signal handler (SIGINT, SIGTERM, SIGHUP) calls [`remove_pending_temporaries`] and
//!   exits: the temporaries go, the programs' process groups are killed, and no target is
//!   touched.
//! - SIGKILL (or a power cut) cannot be handled. So every temporary is named after its
//!   writer: `.shuffle-audit-HOST-PID-START.N.tmp`, with a hash of the host name, the
//!   process id and the process's start time (in clock ticks since boot, from
//!   `/proc/PID/stat`). The next run that writes into the same directory removes the
//!   temporaries whose writer is gone ([`sweep_stale`]). A live writer's file is never
//!   removed: its process still runs with the same start time, and a process id that
//!   another program has taken since has another start time. Files of another host (a
//!   directory shared over a network) and files named as older versions named them
//!   (without a writer) are left alone: there is no way to tell whether their writer
//!   lives.
//!
//! Temporaries are created here, not by `tempfile`, for their names and because
//! `tempfile` adds the temporary's path to its error messages: a user who asked for
//! `out.json` must read "cannot write out.json", never a name they did not give.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use super::fnv::fnv1a;

/// Every temporary's name starts with this.
const PREFIX: &str = ".shuffle-audit-";

/// Every temporary's name ends with this.
const SUFFIX: &str = ".tmp";

/// What an interrupt must undo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cleanup {
    /// Remove this file.
    File(PathBuf),
    /// Remove this directory and everything in it.
    Directory(PathBuf),
    /// Kill this process group (a `check` case's program and everything it started).
    ProcessGroup(u32),
}

/// Work in progress that an interrupt would leave behind.
static PENDING: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// Held by a writer while it creates and registers a temporary, and while it renames
/// work into place; held by the interrupt handler from its cleanup until the process
/// exits. So the handler never removes a directory that is being renamed, and a writer
/// never renames anything after the handler has cleaned up.
static CRITICAL: Mutex<()> = Mutex::new(());

/// Holds off the interrupt handler (see [`CRITICAL`]).
pub(crate) fn critical_section() -> MutexGuard<'static, ()> {
    CRITICAL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn pending() -> MutexGuard<'static, Vec<Cleanup>> {
    PENDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers a cleanup for as long as this guard lives.
#[derive(Debug)]
pub(crate) struct Pending(Cleanup);

impl Pending {
    pub(crate) fn register(cleanup: Cleanup) -> Self {
        pending().push(cleanup.clone());
        Pending(cleanup)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        pending().retain(|cleanup| *cleanup != self.0);
    }
}

/// Undoes every registered piece of work in progress: removes the temporary files and
/// directories being written and kills the programs being run. For a signal handler: the
/// process is about to exit without running destructors, which would otherwise leave
/// them behind.
///
/// Returns a guard that keeps every writer from renaming anything into place: a signal
/// handler holds it until the process exits.
#[must_use = "a signal handler holds the guard until the process exits"]
pub fn remove_pending_temporaries() -> MutexGuard<'static, ()> {
    let critical = critical_section();
    let undo = std::mem::take(&mut *pending());
    for cleanup in undo {
        let _ = match cleanup {
            Cleanup::File(path) => std::fs::remove_file(path),
            Cleanup::Directory(path) => std::fs::remove_dir_all(path),
            Cleanup::ProcessGroup(leader) => {
                kill_process_group(leader);
                Ok(())
            }
        };
    }
    critical
}

/// Starts `command` (which must make its child the leader of a process group of its
/// own) and registers the group, in one step an interrupt cannot fall between: a `check`
/// stopped by Ctrl-C or a cancelled CI job must not leave a case's program running.
pub(crate) fn spawn_registered(
    command: &mut std::process::Command,
) -> io::Result<(std::process::Child, Pending)> {
    let _critical = critical_section();
    let child = command.spawn()?;
    let pending = Pending::register(Cleanup::ProcessGroup(child.id()));
    Ok((child, pending))
}

/// Kills the process group led by `leader` (SIGKILL: the program gets no say).
pub(crate) fn kill_process_group(leader: u32) {
    #[cfg(unix)]
    if let Ok(group) = i32::try_from(leader) {
        // SAFETY: kill(2) takes plain integers; a group that has already gone is ESRCH.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(windows)]
    let _ = std::process::Command::new("taskkill")
        .args(["/T", "/F", "/PID", &leader.to_string()])
        .status();
}

/// This process as a writer: host hash, process id, start time. Fixed for its life.
fn writer() -> &'static Writer {
    static WRITER: OnceLock<Writer> = OnceLock::new();
    WRITER.get_or_init(|| {
        let pid = std::process::id();
        Writer {
            host: host_hash(),
            pid,
            start: start_time(pid).unwrap_or(0),
        }
    })
}

/// Who wrote a temporary, as its name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Writer {
    host: u32,
    pid: u32,
    /// Clock ticks since boot when the process started (0 where unknown).
    start: u64,
}

impl Writer {
    /// `HOST-PID-START`, the part of a temporary's name that says who writes it.
    fn tag(&self) -> String {
        format!("{:08x}-{}-{}", self.host, self.pid, self.start)
    }

    /// Reads the writer back from a temporary's file name; `None` for any other name.
    fn of_name(name: &str) -> Option<Writer> {
        let middle = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
        let (tag, counter) = middle.split_once('.')?;
        counter.parse::<u64>().ok()?;
        let mut parts = tag.splitn(3, '-');
        let host = u32::from_str_radix(parts.next()?, 16).ok()?;
        let pid = parts.next()?.parse().ok()?;
        let start = parts.next()?.parse().ok()?;
        Some(Writer { host, pid, start })
    }

    /// Whether this writer may still be at work. Errs on the side of "yes": a file is
    /// only ever removed when its writer is known to be gone.
    fn may_be_alive(&self) -> bool {
        if self.host != writer().host {
            return true;
        }
        if self.pid == writer().pid {
            return self.start == writer().start || self.start == 0;
        }
        process_may_be_alive(self.pid, self.start)
    }
}

/// A hash of the host's name, so that a directory shared by several machines keeps the
/// others' temporaries.
fn host_hash() -> u32 {
    let name = std::fs::read("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("COMPUTERNAME").ok().map(String::into_bytes))
        .unwrap_or_default();
    let hash = fnv1a(name.trim_ascii());
    (hash ^ (hash >> 32)) as u32
}

/// The start time of process `pid` in clock ticks since boot (field 22 of
/// `/proc/PID/stat`), where the system says it.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces and parentheses:
    // the fields after the last `)` start with field 3.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(22 - 3)?.parse().ok()
}

/// Whether process `pid` (started at `start`, 0 if unknown) may still run.
fn process_may_be_alive(pid: u32, start: u64) -> bool {
    if Path::new("/proc/self/stat").exists() {
        // Gone, or the id now belongs to a process started at another time.
        return start_time(pid).is_some_and(|now| start == 0 || now == start);
    }
    #[cfg(unix)]
    {
        let Ok(pid) = i32::try_from(pid) else {
            return true;
        };
        // SAFETY: kill(2) with signal 0 only checks that the process exists.
        let status = unsafe { libc::kill(pid, 0) };
        status == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = (pid, start);
        true
    }
}

/// The name of this process's next temporary.
fn next_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let counter = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{PREFIX}{}.{counter}{SUFFIX}", writer().tag())
}

/// Creates a new temporary file in `directory`, with the permissions `File::create`
/// gives (0666 less the umask, so that the rename keeps ordinary permissions), and
/// registers it for removal on interrupt. Called inside [`critical_section`], so that an
/// interrupt cannot fall between the creation and the registration.
pub(crate) fn create_temporary_file(directory: &Path) -> io::Result<(File, PathBuf, Pending)> {
    loop {
        let path = directory.join(next_name());
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
        match options.open(&path) {
            Ok(file) => {
                let pending = Pending::register(Cleanup::File(path.clone()));
                return Ok((file, path, pending));
            }
            // Left by an earlier process of the same id, start time and counter: only
            // possible where the start time is unknown. Take the next name.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
}

/// Creates a new temporary directory in `directory` (permissions 0777 less the umask)
/// and registers it for removal on interrupt.
pub(crate) fn create_temporary_directory(directory: &Path) -> io::Result<(PathBuf, Pending)> {
    loop {
        let path = directory.join(next_name());
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o777);
        match builder.create(&path) {
            Ok(()) => {
                let pending = Pending::register(Cleanup::Directory(path.clone()));
                return Ok((path, pending));
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
    }
}

/// Removes the temporaries in `directory` whose writer is gone (killed before it could
/// clean up), and returns their names. Anything that cannot be read or removed is left
/// as it is: this is tidying, never a reason to fail a run.
pub fn sweep_stale(directory: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(writer) = Writer::of_name(name) else {
            continue;
        };
        if writer.may_be_alive() {
            continue;
        }
        let path = entry.path();
        let gone = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(error) => Err(error),
        };
        if gone.is_ok() {
            removed.push(name.to_string());
        }
    }
    removed.sort();
    removed
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The registry of pending work is global to the process, and one test empties it the
    /// way an interrupt would: tests that write take turns.
    static WRITING: Mutex<()> = Mutex::new(());

    pub(crate) fn take_turn() -> MutexGuard<'static, ()> {
        WRITING.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn nothing_pending() -> bool {
        pending().is_empty()
    }

    #[test]
    fn a_temporary_names_its_writer_and_reads_back() {
        let name = next_name();
        let read = Writer::of_name(&name).expect("our own name parses");
        assert_eq!(read, *writer());
        assert!(read.may_be_alive(), "this process is alive");
        for other in [
            ".shuffle-audit-AbC123.tmp",
            ".shuffle-audit-manifest.json",
            "out.json",
            ".shuffle-audit-zz-1-2.3.tmp",
            ".shuffle-audit-0000abcd-1-2.x.tmp",
        ] {
            assert_eq!(Writer::of_name(other), None, "{other}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn temporaries_of_gone_writers_are_swept_and_live_ones_kept() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        // A child that has exited: its process id names a writer that is gone.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead_pid = child.id();
        let dead_start = start_time(dead_pid).unwrap_or(1);
        child.wait().unwrap();
        let me = writer();
        let name_of =
            |pid: u32, start: u64, host: u32| format!("{PREFIX}{:08x}-{pid}-{start}.7{SUFFIX}", host);
        let dead = name_of(dead_pid, dead_start, me.host);
        // Our own process id with another start time: an earlier process that had it.
        let reused = name_of(me.pid, me.start + 1, me.host);
        let live = name_of(me.pid, me.start, me.host);
        // The init process is alive, but was not started at tick 1 after boot... unless
        // it was: use its real start time, so that it is certainly alive.
        let init_start = start_time(1).unwrap();
        let other_live = name_of(1, init_start, me.host);
        let other_host = name_of(dead_pid, dead_start, me.host ^ 1);
        let legacy = ".shuffle-audit-AbC123.tmp".to_string();
        for name in [&dead, &reused, &live, &other_live, &other_host, &legacy] {
            std::fs::write(directory.path().join(name), "partial").unwrap();
        }
        std::fs::create_dir(
            directory
                .path()
                .join(name_of(dead_pid, dead_start, me.host).replace(".7", ".8")),
        )
        .unwrap();
        let removed = sweep_stale(directory.path());
        let mut expected = vec![dead.clone(), dead.replace(".7", ".8"), reused.clone()];
        expected.sort();
        assert_eq!(removed, expected);
        let mut left: Vec<String> = std::fs::read_dir(directory.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        let mut kept = vec![live, other_live, other_host, legacy];
        kept.sort();
        assert_eq!(left, kept);
    }

    #[test]
    fn temporaries_are_registered_until_dropped() {
        let _turn = take_turn();
        let directory = tempfile::tempdir().unwrap();
        let (file, path, pending) = {
            let _critical = critical_section();
            create_temporary_file(directory.path()).unwrap()
        };
        drop(file);
        assert!(super::pending().contains(&Cleanup::File(path.clone())));
        drop(pending);
        assert!(nothing_pending());
        assert!(path.exists(), "dropping the guard only forgets the file");
    }
}
