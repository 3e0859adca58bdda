//! What an installer uses: `completions SHELL` (sourced by a real bash, which then
//! completes a subcommand and a flag) and `man` (rendered by a real man page formatter:
//! `man -l`, else `groff` or `mandoc`; CI installs man-db and groff, so there it never
//! skips).

mod binary;

use std::process::Command as Process;

use binary::{command, shuffle_audit};

/// What bash's completion offers for `words`, the cursor on the last word, after sourcing
/// the script `completions bash` prints. The function clap names `_shuffle__audit` is
/// called as bash calls it: the command, the current word and the one before.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let script = command("completions bash").output().unwrap();
    assert!(script.status.success());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shuffle-audit.bash");
    std::fs::write(&path, &script.stdout).unwrap();
    let quoted: Vec<String> = words.iter().map(|word| format!("'{word}'")).collect();
    let cword = words.len() - 1;
    let previous = if cword == 0 { "" } else { words[cword - 1] };
    let line = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _shuffle__audit shuffle-audit '{}' '{previous}'; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        path.display(),
        quoted.join(" "),
        words[cword],
    );
    let output = Process::new("bash")
        .args(["-c", &line])
        .output()
        .expect("bash runs");
    assert!(
        output.status.success(),
        "bash failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_a_subcommand_from_its_first_letters() {
    assert_eq!(bash_completes(&["shuffle-audit", "ru"]), ["run"]);
    let all = bash_completes(&["shuffle-audit", ""]);
    for subcommand in ["run", "ingest", "check", "completions", "man"] {
        assert!(
            all.iter().any(|word| word == subcommand),
            "{subcommand} not offered: {all:?}"
        );
    }
}

#[test]
fn bash_completes_a_flag_of_a_subcommand() {
    let offered = bash_completes(&["shuffle-audit", "run", "--tri"]);
    assert_eq!(offered, ["--trials"]);
}

#[test]
fn every_shell_gets_a_script_that_names_the_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let output = command(&format!("completions {shell}")).output().unwrap();
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8(output.stdout).unwrap();
        assert!(script.contains("shuffle-audit"), "{shell}: {script}");
        assert!(script.contains("trials"), "{shell} does not complete run's flags");
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    command("completions tcsh")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("invalid value 'tcsh'"));
}

/// The page rendered as plain text by the first formatter found: `man -l`, `groff -man`,
/// `mandoc`. None when none is installed.
fn rendered(page: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.1");
    std::fs::write(&path, page).unwrap();
    let path = path.to_str().unwrap();
    let formatters: [(&str, Vec<&str>); 3] = [
        ("man", vec!["-l", "-P", "cat", path]),
        ("groff", vec!["-man", "-Tutf8", path]),
        ("mandoc", vec!["-Tutf8", path]),
    ];
    for (program, args) in formatters {
        let Ok(output) = Process::new(program).args(&args).env("MANWIDTH", "100").output() else {
            continue;
        };
        assert!(
            output.status.success(),
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = String::from_utf8_lossy(&output.stdout);
        // Formatters embolden with backspaces when writing to a pipe: strip them.
        let mut plain = String::new();
        for c in text.chars() {
            if c == '\u{8}' {
                plain.pop();
            } else {
                plain.push(c);
            }
        }
        return Some(plain);
    }
    None
}

#[test]
fn the_man_page_renders() {
    let output = command("man").output().unwrap();
    assert!(output.status.success());
    assert!(output.stdout.starts_with(b".ie"), "not roff");
    let Some(text) = rendered(&output.stdout) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no man page formatter (man, groff, mandoc) in CI: .ci/run installs them"
        );
        eprintln!("note: no man, groff or mandoc: the page was not rendered");
        return;
    };
    for section in ["NAME", "SYNOPSIS", "SUBCOMMANDS", "VERSION"] {
        assert!(text.contains(section), "no {section} in:\n{text}");
    }
    assert!(
        text.contains("shuffle-audit-run(1)"),
        "subcommands not listed:\n{text}"
    );
    assert!(text.contains(env!("CARGO_PKG_VERSION")), "no version:\n{text}");
}

#[test]
fn man_out_dir_writes_a_page_per_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    shuffle_audit()
        .args(["man", "--out-dir"])
        .arg(dir.path())
        .assert()
        .success();
    let run = std::fs::read(dir.path().join("shuffle-audit-run.1")).unwrap();
    for page in [
        "shuffle-audit.1",
        "shuffle-audit-seeds-crack.1",
        "shuffle-audit-ingest.1",
    ] {
        assert!(dir.path().join(page).is_file(), "{page} not written");
    }
    if let Some(text) = rendered(&run) {
        assert!(text.contains("--trials"), "run's page lacks --trials:\n{text}");
    }
}

#[test]
fn man_out_dir_that_does_not_exist_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    shuffle_audit()
        .args(["man", "--out-dir"])
        .arg(dir.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("does not exist"));
}
