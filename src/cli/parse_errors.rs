//! What clap says when it cannot parse a command line, made into the tool's one-line
//! errors: clap writes a paragraph, a usage block and tips, and colours them while it
//! parses; a user (and a CI log) gets one line naming what is wrong, with the tips and a
//! looser "did you mean" than clap's, and exit status 2 (`main.rs` prints it).

use clap::{ColorChoice, ValueEnum};

/// The `--color` the command line gives (`--color WHEN` or `--color=WHEN`, before any
/// `--`), read before parsing because clap colours its own help and errors while it
/// parses; `auto` when absent or not a choice (the parser then says what is wrong). Under
/// `auto` clap honours `NO_COLOR`, `CLICOLOR` and `CLICOLOR_FORCE`.
pub fn color_choice(args: impl IntoIterator<Item = std::ffi::OsString>) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut args = args.into_iter().skip(1);
    while let Some(arg) = args.next() {
        let Some(arg) = arg.to_str() else { continue };
        let value = match arg {
            "--" => break,
            "--color" => args.next().and_then(|value| value.into_string().ok()),
            _ => arg.strip_prefix("--color=").map(str::to_string),
        };
        if let Some(value) = value {
            choice = ColorChoice::from_str(&value, true).unwrap_or(ColorChoice::Auto);
        }
    }
    choice
}

/// A parser error as one line: its first paragraph and clap's tips (`a similar argument
/// exists: '--trials'`, `to pass '-x' as a value, use '-- -x'`), without the usage block.
/// `root` is the whole command line's parser, whose subcommands a mistyped one is
/// matched against.
pub fn one_line(error: &clap::Error, root: clap::Command) -> String {
    let text = error.to_string();
    let first_paragraph: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let tips: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("tip: "))
        .collect();
    let mut line = first_paragraph.join(" ");
    for tip in tips {
        line.push_str("; ");
        line.push_str(tip);
    }
    line.push_str(&subcommand_suggestion(error, &text, root).unwrap_or_default());
    format!("{line} (see --help)")
}

/// `; did you mean 'run'?` for a subcommand typed too far from any for clap's own tip
/// (which needs a close match: `chek`, not `rn`), with the looser rule the catalogue's
/// names are suggested by; `None` when clap gave a tip or nothing is close.
fn subcommand_suggestion(error: &clap::Error, text: &str, root: clap::Command) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidSubcommand || error.get(ContextKind::SuggestedSubcommand).is_some() {
        return None;
    }
    let Some(ContextValue::String(typed)) = error.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    // The command whose subcommand was mistyped, from the usage line: `shuffle-audit
    // seeds [OPTIONS] <COMMAND>` is `seeds`'s.
    let usage = text.lines().find_map(|line| line.strip_prefix("Usage: "))?;
    let mut command = root;
    for word in usage
        .split_whitespace()
        .skip(1)
        .take_while(|word| !word.starts_with(['[', '<']))
    {
        command = command.find_subcommand(word)?.clone();
    }
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    Some(shuffle_audit::catalogue::suggestion_among(
        typed,
        names.into_iter(),
    ))
    .filter(|tip| !tip.is_empty())
}

/// What to say when a command needs a subcommand and got none: that one is needed, and
/// the list of them with their summaries (the `Commands:` section of clap's help).
pub fn commands_needed(error: &clap::Error) -> String {
    let help = error.to_string();
    let usage = help
        .lines()
        .find_map(|line| line.strip_prefix("Usage: "))
        .unwrap_or("shuffle-audit <COMMAND>");
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|line| line.trim_end() != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .collect();
    format!(
        "shuffle-audit: error: a command is needed: {usage} (see --help)\nCommands:\n{}",
        commands.join("\n")
    )
}
