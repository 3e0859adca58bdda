//! `--color auto|always|never` and `NO_COLOR`: only clap's help and errors are coloured
//! (the progress bar's template has no styles, and no report is), so these are what the
//! tests look at. `CLICOLOR_FORCE=1` stands in for a terminal under `auto`.

mod binary;

use binary::shuffle_audit;

const ESCAPE: &str = "\u{1b}[";

/// The help of `run` printed with `args` and environment variables `env`.
fn help(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = shuffle_audit();
    command
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    command.args(args).args(["run", "--help"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn always_colours_even_into_a_pipe() {
    assert!(help(&["--color", "always"], &[]).contains(ESCAPE));
    assert!(help(&["--color=always"], &[("NO_COLOR", "1")]).contains(ESCAPE));
}

#[test]
fn never_does_not_colour_even_when_forced() {
    assert!(!help(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]).contains(ESCAPE));
}

#[test]
fn auto_colours_a_terminal_unless_no_color_is_set() {
    // Into a pipe: plain.
    assert!(!help(&[], &[]).contains(ESCAPE));
    // As on a terminal (forced), coloured; NO_COLOR wins over it.
    assert!(help(&[], &[("CLICOLOR_FORCE", "1")]).contains(ESCAPE));
    assert!(!help(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains(ESCAPE));
}

#[test]
fn an_unknown_choice_is_a_usage_error() {
    shuffle_audit()
        .args(["--color", "sometimes", "list"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "invalid value 'sometimes' for '--color <WHEN>'",
        ));
}
