use super::*;
use crate::files::cleanup::tests::{nothing_pending, take_turn};

fn file(path: &Path) -> Destination {
    Destination::parse(path.to_str().unwrap())
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_replace_the_file_and_leave_no_temporary_behind() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("out.json");
    write_atomically(&path, |out| out.write_all(b"first")).unwrap();
    write_atomically(&path, |out| out.write_all(b"second")).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
    assert_eq!(listing(directory.path()), ["out.json"]);
    assert!(nothing_pending());
}

#[cfg(unix)]
#[test]
fn files_get_ordinary_permissions_and_replaced_files_keep_theirs() {
    let _turn = take_turn();
    use std::os::unix::fs::PermissionsExt;
    let directory = tempfile::tempdir().unwrap();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    let ordinary = directory.path().join("ordinary");
    std::fs::File::create(&ordinary).unwrap();
    let ours = directory.path().join("ours.json");
    write_atomically(&ours, |out| out.write_all(b"{}")).unwrap();
    assert_eq!(mode(&ours), mode(&ordinary), "same mode as File::create");
    std::fs::set_permissions(&ours, std::fs::Permissions::from_mode(0o640)).unwrap();
    write_atomically(&ours, |out| out.write_all(b"[]")).unwrap();
    assert_eq!(mode(&ours), 0o640);
}

#[test]
fn a_failed_write_leaves_the_old_file_and_no_temporary() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("out.json");
    write_atomically(&path, |out| out.write_all(b"complete")).unwrap();
    let failure = write_atomically(&path, |out| {
        out.write_all(b"half")?;
        Err(std::io::Error::other("interrupted"))
    });
    assert!(failure.is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "complete");
    assert_eq!(listing(directory.path()), ["out.json"]);
}

#[test]
fn pending_temporaries_can_be_removed_by_an_interrupt_handler() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("out.json");
    write_atomically(&path, |out| {
        out.write_all(b"partial")?;
        // What the signal handler does while a write is under way.
        drop(crate::files::remove_pending_temporaries());
        Ok(())
    })
    .unwrap_err();
    assert_eq!(listing(directory.path()), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn links_are_written_through_and_special_files_in_place() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let real = directory.path().join("real.json");
    let link = directory.path().join("link.json");
    std::fs::write(&real, "old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    file(&link).write("new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link stays"
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    // /dev/null is a character device: written in place, never renamed over.
    let null = Destination::parse("/dev/null");
    null.check().unwrap();
    null.write("discarded").unwrap();
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
}

#[cfg(unix)]
#[test]
fn a_dangling_chain_of_links_creates_its_final_target_and_keeps_the_links() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let (l1, l2) = (directory.path().join("l1"), directory.path().join("l2"));
    // l1 -> l2 -> missing (relative links, read from the directory that holds them).
    std::os::unix::fs::symlink("l2", &l1).unwrap();
    std::os::unix::fs::symlink("missing", &l2).unwrap();
    file(&l1).check().unwrap();
    file(&l1).write("{}").unwrap();
    for link in [&l1, &l2] {
        assert!(std::fs::symlink_metadata(link).unwrap().file_type().is_symlink());
    }
    assert_eq!(
        std::fs::read_to_string(directory.path().join("missing")).unwrap(),
        "{}"
    );
    // A loop is refused with a message, not followed forever.
    let (a, b) = (directory.path().join("a"), directory.path().join("b"));
    std::os::unix::fs::symlink("b", &a).unwrap();
    std::os::unix::fs::symlink("a", &b).unwrap();
    let message = file(&a).check().unwrap_err().to_string();
    assert!(
        message.contains("chain of more than 40 symbolic links"),
        "{message}"
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_unless_forced() {
    let _turn = take_turn();
    use std::os::unix::fs::PermissionsExt;
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("kept.json");
    std::fs::write(&path, "precious").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let message = file(&path).check().unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "cannot write {}: it is read-only (mode 0444); give --force to replace it anyway",
            path.display()
        )
    );
    assert!(file(&path).write("new").is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    let forced = file(&path).forced(true);
    forced.check().unwrap();
    forced.write("new").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
}

#[cfg(unix)]
#[test]
fn write_errors_name_the_target_never_a_temporary() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("out.json");
    // A write that fails half-way: the message is against out.json.
    let message = write_atomically(&path, |_| Err(std::io::Error::from_raw_os_error(28)))
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        format!(
            "cannot write {}: No space left on device (os error 28)",
            path.display()
        )
    );
    assert!(!message.contains(".shuffle-audit-"), "{message}");
}

#[test]
fn impossible_targets_are_refused_before_any_work() {
    let _turn = take_turn();
    let directory = tempfile::tempdir().unwrap();
    let reason = |path: &str| Destination::parse(path).check().unwrap_err().to_string();
    let dir = directory.path().to_str().unwrap().to_string();
    assert_eq!(reason(&dir), format!("cannot write {dir}: it is a directory"));
    assert!(reason(".").ends_with("it is a directory"));
    assert!(reason("").ends_with("the file name is empty"));
    assert!(reason(&format!("{dir}/new/")).contains("ends with a separator"));
    assert_eq!(
        reason("/nonexistent/dir/out.json"),
        "cannot write /nonexistent/dir/out.json: the directory /nonexistent/dir does not exist"
    );
    assert!(Destination::parse("out.json").check().is_ok());
    assert!(Destination::Stdout.check().is_ok());
}

#[test]
fn the_same_file_is_recognised_under_different_spellings() {
    let same = |a: &str, b: &str| Destination::parse(a).same_file_as(&Destination::parse(b));
    assert!(same("same.out", "./same.out"));
    assert!(same("-", "-"));
    assert!(!same("a.json", "a.csv"));
    assert!(!same("-", "a.json"));
}

#[test]
fn dash_means_stdout() {
    assert_eq!(Destination::parse("-"), Destination::Stdout);
    assert_eq!(
        Destination::parse("a.json"),
        Destination::File {
            path: PathBuf::from("a.json"),
            replace_read_only: false
        }
    );
}
