//! Lines written as lists, as programs print them: Python's `print(deck)` (`['C', 'A',
//! 'B']`, `[3, 1, 2]`, a tuple `(3, 1, 2)`), JSON (`["A","B"]`), JavaScript's
//! `console.log` (`[ 'A', 'B' ]`) and numpy (`[3 1 2]`, `['C' 'A' 'B']`). Such a line is
//! the same sample as the plain line of its items (`C A B`).
//!
//! A line is a list when its first byte after any blanks is `[` or `(`; every other line
//! is plain and read as before (items separated by white space and commas, taken as they
//! are). A list is read strictly, because a half-printed list is a bug in the program
//! that printed it, and guessing would tally something else than what it dealt:
//! - it closes with the matching bracket at the end of the same line (JavaScript's
//!   `console.log` and numpy break long lists over several lines: the first of them is
//!   refused with a hint on printing one line per deal);
//! - its items are all quoted (`'A'` or `"A"`; the kind of quote may differ from item to
//!   item, as Python's `repr` picks `"it's"`) or all bare (`3`, `A`), and separated all by
//!   commas (Python, JSON, JavaScript) or all by white space only (numpy); no empty item,
//!   no list inside the list, no quote left open;
//! - a quoted item holds no white space or comma (they separate items, as in a plain
//!   line, so a deck named with them could not be written plainly) and no backslash
//!   (escapes are not decoded: `'\x41'` is not read as `A`);
//! - a one-item tuple may end with a comma (`('A',)`), as Python writes it.
//!
//! Checking costs one pass over a list line; plain lines, the common case, pay one
//! comparison.

/// Where a list line's items are, once checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListBody<'a> {
    /// The bytes between the brackets.
    pub inner: &'a [u8],
    /// Whether every item is quoted (its first and last byte are quotes to strip).
    pub quoted: bool,
}

/// Whether `line` is written as a list: its first byte after blanks opens one.
#[inline]
pub fn is_list(line: &[u8]) -> bool {
    matches!(
        line.iter().find(|byte| !byte.is_ascii_whitespace()),
        Some(b'[' | b'(')
    )
}

/// How items are separated in a list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Separator {
    Comma,
    Space,
}

/// The items of the list `line` (one [`is_list`] says is one), or what is wrong with it,
/// in words that follow `line N: `.
pub fn list_body(line: &[u8]) -> Result<ListBody<'_>, String> {
    let trimmed = line.trim_ascii();
    let (open, close) = match trimmed.first() {
        Some(b'(') => (b'(', b')'),
        _ => (b'[', b']'),
    };
    let (open, close) = (char::from(open), char::from(close));
    if trimmed.len() < 2 || !trimmed.ends_with(&[close as u8]) {
        return Err(format!(
            "'{open}' opens a list that this line does not close with '{close}' (a deal must be on one \
             line: JavaScript's console.log and numpy break long lists; print JSON.stringify(deck), or \
             deck.tolist() in numpy)"
        ));
    }
    let inner = &trimmed[1..trimmed.len() - 1];
    let mut quoted = None;
    let mut separator = None;
    let mut items = 0usize;
    let mut at = skip_blanks(inner, 0);
    while at < inner.len() {
        // One item.
        let start = at;
        let item_quoted = match inner[at] {
            quote @ (b'\'' | b'"') => {
                let Some(length) = inner[at + 1..].iter().position(|&byte| byte == quote) else {
                    return Err(format!(
                        "the {} quote before '{}' is never closed",
                        quote_name(quote),
                        super::deck::shown(&inner[at + 1..])
                    ));
                };
                let content = &inner[at + 1..at + 1 + length];
                check_quoted(content)?;
                at += length + 2;
                true
            }
            b',' => {
                return Err(if items == 0 {
                    "the list starts with a comma: an empty item before it"
                } else {
                    "two commas in a row: an empty item between them"
                }
                .to_string());
            }
            _ => {
                while at < inner.len() && !is_separator(inner[at]) {
                    match inner[at] {
                        b'[' | b'(' | b']' | b')' => {
                            return Err(format!(
                                "'{}' inside the list: a list of lists, an item printed as a call \
                                 (numpy's np.int64(3): print deck.tolist()) or an unpaired bracket is \
                                 not a deal",
                                char::from(inner[at])
                            ));
                        }
                        quote @ (b'\'' | b'"') => {
                            return Err(format!(
                                "a {} quote inside the item '{}': quote the whole item, or none",
                                quote_name(quote),
                                super::deck::shown(&inner[start..at])
                            ));
                        }
                        _ => at += 1,
                    }
                }
                false
            }
        };
        let item = &inner[start..at];
        let shown = || super::deck::shown(item);
        match quoted {
            None => quoted = Some(item_quoted),
            Some(earlier) if earlier != item_quoted => {
                return Err(format!(
                    "the list mixes quoted and bare items (at {}): quote every item, or none",
                    shown()
                ));
            }
            Some(_) => {}
        }
        items += 1;
        // What separates it from the next.
        let after_item = at;
        at = skip_blanks(inner, at);
        if at == inner.len() {
            break;
        }
        let this = if inner[at] == b',' {
            at = skip_blanks(inner, at + 1);
            if at == inner.len() {
                if open == '(' && items == 1 {
                    break; // Python's one-item tuple: ('A',)
                }
                return Err("the list ends with a comma: an empty item after it".to_string());
            }
            Separator::Comma
        } else if at > after_item {
            Separator::Space
        } else {
            return Err(format!(
                "nothing separates '{}' from the next item: separate items by commas or spaces",
                shown()
            ));
        };
        match separator {
            None => separator = Some(this),
            Some(earlier) if earlier != this => {
                return Err(
                    "the list separates some items by commas and others by spaces only: use one way"
                        .to_string(),
                );
            }
            Some(_) => {}
        }
    }
    Ok(ListBody {
        inner,
        quoted: quoted.unwrap_or(false),
    })
}

/// What a quoted item may not hold.
fn check_quoted(content: &[u8]) -> Result<(), String> {
    let shown = || super::deck::shown(content);
    if content.is_empty() {
        return Err("an empty item ('' or \"\")".to_string());
    }
    if content.iter().any(|&byte| is_separator(byte)) {
        return Err(format!(
            "the item '{}' holds a space or a comma, which separate items: name the items without them",
            shown()
        ));
    }
    if content.contains(&b'\\') {
        return Err(format!(
            "the item '{}' holds a backslash: escapes are not decoded; name the items without them",
            shown()
        ));
    }
    Ok(())
}

/// Whether `byte` separates tokens: the items of a list and of a plain line alike
/// ([`super::lines::tokens`] splits both with it).
#[inline]
pub fn is_separator(byte: u8) -> bool {
    byte == b',' || byte.is_ascii_whitespace()
}

fn skip_blanks(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

fn quote_name(quote: u8) -> &'static str {
    if quote == b'"' { "double" } else { "single" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_list_says_what_is_wrong() {
        for (line, expected) in [
            ("['A', 'B'", "'[' opens a list that this line does not close"),
            ("[", "'[' opens a list that this line does not close"),
            (
                "(3, 1, 2",
                "'(' opens a list that this line does not close with ')'",
            ),
            ("[3, 1, 2)", "does not close with ']'"),
            ("['A', 'B'] C", "does not close"),
            ("['A', 'B]", "the single quote before 'B' is never closed"),
            ("[\"A\", \"B]", "the double quote before 'B' is never closed"),
            ("['A', B]", "mixes quoted and bare items (at B)"),
            ("[A, 'B']", "mixes quoted and bare items (at 'B')"),
            ("[3, 1 2]", "some items by commas and others by spaces only"),
            ("[3 1, 2]", "some items by commas and others by spaces only"),
            ("[3,, 1]", "two commas in a row"),
            ("[, 3]", "starts with a comma"),
            ("[3, 1,]", "ends with a comma"),
            ("(3, 1,)", "ends with a comma"),
            ("[[1, 2], [3]]", "'[' inside the list"),
            ("[1, 2]]", "']' inside the list"),
            ("[np.int64(3), np.int64(1)]", "an item printed as a call"),
            ("['A''B']", "nothing separates ''A'' from the next item"),
            ("['A B', 'C']", "the item 'A B' holds a space or a comma"),
            ("['A,B', 'C']", "holds a space or a comma"),
            ("['a\\nb', 'C']", "holds a backslash"),
            ("['', 'C']", "an empty item"),
            ("[A', 'B]", "a single quote inside the item 'A'"),
        ] {
            let problem = list_body(line.as_bytes()).unwrap_err();
            assert!(problem.contains(expected), "{line}: {problem}");
        }
    }

    #[test]
    fn only_lines_that_open_with_a_bracket_are_lists() {
        assert!(is_list(b"  [3]") && is_list(b"(3, 1)") && is_list(b"\t['A']"));
        assert!(!is_list(b"3 1 2") && !is_list(b"A [B]") && !is_list(b"x[1] x[0]") && !is_list(b""));
    }
}
