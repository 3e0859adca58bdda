//! Text from outside (names a user typed, tokens another program wrote, error messages
//! quoting them) made safe to print: nothing in it may move the cursor, recolour or
//! reorder a terminal line or a CI log.
//!
//! At the bottom of the crate with the number formats: every layer quotes what the user
//! gave, from the sources' parser up to the command line's last error line.

/// The bidirectional controls (marks, embeddings, overrides, isolates): invisible, they
/// reorder the text around them in terminals, logs and web pages.
pub fn is_bidi_control(c: char) -> bool {
    matches!(u32::from(c), 0x200E | 0x200F | 0x202A..=0x202E | 0x2066..=0x2069)
}

/// Characters that would move the cursor, recolour or reorder a terminal line or a CI
/// log (escape sequences, newlines, bidirectional overrides).
pub fn reaches_terminals_badly(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// `text` with [`reaches_terminals_badly`] characters written as `\u{1b}`.
pub fn escaped_for_terminals(text: &str) -> String {
    text.chars()
        .map(|c| {
            if reaches_terminals_badly(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` as one shell word, for the commands that repeat a run: as it is when it holds
/// only characters no shell treats specially, single-quoted otherwise.
pub fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
