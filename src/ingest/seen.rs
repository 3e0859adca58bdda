//! The items as the tokens seen: the first of two passes, when neither `--deck` nor
//! `--weights` names the items.
//!
//! Every line is checked as the second pass will check it (a valid name for every token;
//! for selections `k` distinct items), so that the items are exactly the tokens of the
//! lines that will be tallied: a line that `--skip-invalid` skips adds no item. Items are
//! numbered in the order they first appear. The number of distinct items is capped as
//! `--deck` is, so that a hostile input cannot make the pass hold more than that.

use std::collections::HashSet;

use super::deck::{shown, valid_name};
use super::lines::{Block, MAX_LINE_BYTES, is_skipped, lines, tokens};
use super::samples::Problem;

/// Lines of up to this many tokens are checked for repeats pair by pair, longer ones
/// through a set.
const FEW_TOKENS: usize = 16;

/// The distinct tokens of the good lines, in order of first appearance.
pub(super) struct SeenTokens {
    /// The items, named by their tokens.
    pub names: Vec<String>,
    /// Items per sample (selections): `--k`, or the first sample line's count.
    pub k: Option<usize>,
    known: HashSet<Vec<u8>>,
    selections: bool,
    skip_invalid: bool,
    most: usize,
    lines_read: u64,
    /// Where the tokens of the line being read start and end.
    spans: Vec<(usize, usize)>,
}

impl SeenTokens {
    /// A pass that reads selections of `k` items (`None`: the first line's count) when
    /// `selections`, or a stream's items, keeping at most `most` distinct items.
    pub fn new(selections: bool, k: Option<usize>, skip_invalid: bool, most: usize) -> Self {
        Self {
            names: Vec::new(),
            k,
            known: HashSet::new(),
            selections,
            skip_invalid,
            most,
            lines_read: 0,
            spans: Vec::new(),
        }
    }

    /// Reads one block of whole lines; `Err` is the message for the first line that
    /// stops the input (`line N: ...`).
    pub fn read(&mut self, block: &Block) -> Result<(), String> {
        for line in lines(&block.bytes) {
            self.lines_read += 1;
            let number = self.lines_read;
            if line.len() > MAX_LINE_BYTES {
                return Err(format!("line {number}: {}", too_long()));
            }
            if is_skipped(line) {
                continue;
            }
            match self.check(line) {
                Ok(()) => self.add_line(line, number)?,
                Err(_) if self.skip_invalid => {}
                Err(problem) => return Err(format!("line {number}: {problem}")),
            }
        }
        if block.long_line_follows {
            return Err(format!("line {}: {}", self.lines_read + 1, too_long()));
        }
        Ok(())
    }

    /// Whether `line` would be tallied, keeping where its tokens are for
    /// [`SeenTokens::add_line`].
    fn check(&mut self, line: &[u8]) -> Result<(), String> {
        self.spans.clear();
        for token in tokens(line)? {
            if !self.known.contains(token) {
                valid_name(token)?;
            }
            let start = token.as_ptr() as usize - line.as_ptr() as usize;
            self.spans.push((start, start + token.len()));
        }
        if self.selections {
            let expected = *self.k.get_or_insert(self.spans.len());
            if self.spans.len() != expected {
                return Err(Problem::Count {
                    expected,
                    found: self.spans.len(),
                }
                .message_with(String::new));
            }
            let token = |i: usize| &line[self.spans[i].0..self.spans[i].1];
            let repeated = if self.spans.len() <= FEW_TOKENS {
                (1..self.spans.len()).find(|&i| (0..i).any(|j| token(j) == token(i)))
            } else {
                let mut distinct = HashSet::with_capacity(self.spans.len());
                (0..self.spans.len()).find(|&i| !distinct.insert(token(i)))
            };
            if let Some(i) = repeated {
                return Err(Problem::Repeated(shown(token(i))).message_with(String::new));
            }
        }
        Ok(())
    }

    fn add_line(&mut self, line: &[u8], number: u64) -> Result<(), String> {
        for &(start, end) in &self.spans {
            let token = &line[start..end];
            if self.known.contains(token) {
                continue;
            }
            if self.names.len() == self.most {
                return Err(format!(
                    "line {number}: more than {} different items (at most {} are supported)",
                    self.most, self.most
                ));
            }
            self.names
                .push(String::from_utf8(token.to_vec()).expect("checked as a valid name"));
            self.known.insert(token.to_vec());
        }
        Ok(())
    }
}

fn too_long() -> String {
    Problem::TooLong.message_with(String::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(text: &str, selections: bool, skip: bool) -> Result<Vec<String>, String> {
        let mut pass = SeenTokens::new(selections, None, skip, 5);
        pass.read(&Block {
            bytes: text.as_bytes().to_vec(),
            long_line_follows: false,
        })?;
        Ok(pass.names)
    }

    #[test]
    fn items_are_numbered_in_order_of_first_appearance_from_good_lines_only() {
        assert_eq!(
            seen("# c\nC A\nB,A\n\nD C\n", true, false).unwrap(),
            ["C", "A", "B", "D"]
        );
        assert_eq!(seen("C A\nB\nE A\nA A\n", true, true).unwrap(), ["C", "A", "E"]);
        assert_eq!(seen("C\nA B A\n", false, false).unwrap(), ["C", "A", "B"]);
    }

    #[test]
    fn a_bad_line_is_named_and_too_many_items_are_refused() {
        assert_eq!(
            seen("A B\nA B C\n", true, false).unwrap_err(),
            "line 2: expected 2 items, found 3"
        );
        assert_eq!(
            seen("A B\nB B\n", true, false).unwrap_err(),
            "line 2: item 'B' appears twice"
        );
        assert!(
            seen("A \u{202E}B\n", false, false)
                .unwrap_err()
                .starts_with("line 1: item '\\u{202e}B' contains a bidirectional")
        );
        assert_eq!(
            seen("A B C\nD E F\n", false, false).unwrap_err(),
            "line 2: more than 5 different items (at most 5 are supported)"
        );
    }
}
