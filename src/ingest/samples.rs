//! One block of lines into samples: each line checked (the right number of items, every
//! item in the deck, none twice) and handed to a tally, or its problem noted.
//!
//! A block knows only its own line numbers (from 1); the caller, which sees blocks in
//! file order, adds the lines before it, so that the first bad line of the input is the
//! one reported however the blocks were shared among threads.

use super::deck::{Deck, shown};
use super::lines::{MAX_LINE_BYTES, is_skipped, lines, tokens};

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not the number of items a sample holds.
    Count {
        /// Items a sample holds.
        expected: usize,
        /// Items on the line.
        found: usize,
    },
    /// An item that is not in the deck (shown harmlessly).
    Unknown(String),
    /// An item given twice.
    Repeated(String),
    /// Bytes that are not UTF-8 text.
    NotUtf8,
    /// A line written as a list, but not a well-formed one: what is wrong with it.
    List(String),
    /// Longer than [`MAX_LINE_BYTES`]: never skipped.
    TooLong,
}

/// The reasons a line is skipped for, in the order reports list them.
pub const REASONS: [&str; 5] = [
    "wrong number of items",
    "unknown item",
    "repeated item",
    "not valid UTF-8",
    "malformed list",
];

impl Problem {
    /// Which of [`REASONS`] it is; `None` for a problem that is never skipped.
    pub fn reason(&self) -> Option<usize> {
        match self {
            Problem::Count { .. } => Some(0),
            Problem::Unknown(_) => Some(1),
            Problem::Repeated(_) => Some(2),
            Problem::NotUtf8 => Some(3),
            Problem::List(_) => Some(4),
            Problem::TooLong => None,
        }
    }

    /// The message after `line N: `.
    pub fn message(&self, deck: &Deck) -> String {
        self.message_with(|| deck.describe())
    }

    /// The message after `line N: `, the deck (which only an unknown item's message
    /// names) described by `describe_deck`.
    pub fn message_with(&self, describe_deck: impl FnOnce() -> String) -> String {
        match self {
            Problem::Count { expected, found } => format!("expected {expected} items, found {found}"),
            Problem::Unknown(token) => format!("unknown item '{token}' ({})", describe_deck()),
            Problem::Repeated(token) => format!("item '{token}' appears twice"),
            Problem::NotUtf8 => "not valid UTF-8 text".to_string(),
            Problem::List(problem) => problem.clone(),
            Problem::TooLong => format!(
                "longer than {} MiB: not a line of samples (is the input one sample per line?)",
                MAX_LINE_BYTES >> 20
            ),
        }
    }
}

/// What one block held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockOutcome {
    /// Lines in the block, blank and comment lines included.
    pub lines: u64,
    /// Samples tallied.
    pub samples: u64,
    /// The first line (from 1 in the block) that stops the run, and why.
    pub stop: Option<(u64, Problem)>,
    /// Lines skipped for each of [`REASONS`]: how many, and the first (from 1).
    pub skipped: [(u64, u64); REASONS.len()],
}

/// Checks each line of `block` as a sample of `k` items of `deck`, hands each good one to
/// `record` (cards in the order given), and stops at the first bad one unless
/// `skip_invalid` (a line that is too long stops it anyway).
pub fn parse_block(
    block: &[u8],
    deck: &Deck,
    k: usize,
    skip_invalid: bool,
    mut record: impl FnMut(&[u16]),
) -> BlockOutcome {
    let mut outcome = BlockOutcome::default();
    let mut cards = vec![0u16; k];
    let mut seen = vec![0u64; deck.len().div_ceil(64)];
    for (index, line) in lines(block).enumerate() {
        let number = index as u64 + 1;
        outcome.lines = number;
        let problem = if line.len() > MAX_LINE_BYTES {
            Some(Problem::TooLong)
        } else if is_skipped(line) {
            continue;
        } else {
            check_line(line, deck, &mut cards, &mut seen)
        };
        match problem {
            None => {
                record(&cards);
                outcome.samples += 1;
            }
            Some(problem) => match problem.reason() {
                Some(reason) if skip_invalid => {
                    let (count, first) = &mut outcome.skipped[reason];
                    if *count == 0 {
                        *first = number;
                    }
                    *count += 1;
                }
                _ => {
                    outcome.stop = Some((number, problem));
                    return outcome;
                }
            },
        }
    }
    outcome
}

/// Fills `cards` from `line`, or says what is wrong with it. `seen` is a bit per card,
/// all clear before and after.
#[inline]
fn check_line(line: &[u8], deck: &Deck, cards: &mut [u16], seen: &mut [u64]) -> Option<Problem> {
    let k = cards.len();
    let mut found = 0;
    let mut placed = 0;
    let mut problem = None;
    let tokens = match tokens(line) {
        Ok(tokens) => tokens,
        Err(problem) => return Some(Problem::List(problem)),
    };
    for token in tokens {
        if found < k && problem.is_none() {
            match deck.card(token) {
                Some(card) => {
                    let (word, bit) = (usize::from(card) / 64, 1u64 << (card % 64));
                    if seen[word] & bit != 0 {
                        problem = Some(Problem::Repeated(shown(token)));
                    } else {
                        seen[word] |= bit;
                        cards[placed] = card;
                        placed += 1;
                    }
                }
                None if std::str::from_utf8(token).is_err() => problem = Some(Problem::NotUtf8),
                None => problem = Some(Problem::Unknown(shown(token))),
            }
        }
        found += 1;
    }
    for &card in &cards[..placed] {
        seen[usize::from(card) / 64] &= !(1u64 << (card % 64));
    }
    if found != k {
        Some(Problem::Count { expected: k, found })
    } else {
        problem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck() -> Deck {
        Deck::new(&[b"A", b"B", b"C", b"D"], "line 1".to_string()).unwrap()
    }

    fn parse(block: &str, k: usize, skip: bool) -> (BlockOutcome, Vec<Vec<u16>>) {
        let mut samples = Vec::new();
        let outcome = parse_block(block.as_bytes(), &deck(), k, skip, |cards| {
            samples.push(cards.to_vec())
        });
        (outcome, samples)
    }

    #[test]
    fn good_lines_are_recorded_in_the_order_given() {
        let (outcome, samples) = parse("# header\nD C B A\n\n B,A,C,D \n", 4, false);
        assert_eq!(samples, [vec![3, 2, 1, 0], vec![1, 0, 2, 3]]);
        assert_eq!((outcome.lines, outcome.samples, outcome.stop), (4, 2, None));
    }

    #[test]
    fn the_first_bad_line_stops_with_its_reason() {
        let cases = [
            (
                "A B C D\nA B C D E\n",
                Problem::Count {
                    expected: 4,
                    found: 5,
                },
            ),
            (
                "A B C\n",
                Problem::Count {
                    expected: 4,
                    found: 3,
                },
            ),
            ("A B Z D\n", Problem::Unknown("Z".to_string())),
            ("A B A D\n", Problem::Repeated("A".to_string())),
            ("A B \u{fffd} D\n", Problem::Unknown("\u{fffd}".to_string())),
        ];
        for (block, problem) in cases {
            let (outcome, _) = parse(block, 4, false);
            assert_eq!(outcome.stop.map(|stop| stop.1), Some(problem), "{block}");
        }
        let mut invalid = b"A B C \xff\n".to_vec();
        invalid.extend_from_slice(b"A B C D\n");
        let outcome = parse_block(&invalid, &deck(), 4, false, |_| {});
        assert_eq!(outcome.stop, Some((1, Problem::NotUtf8)));
        assert_eq!(
            Problem::Unknown("Z".to_string()).message(&deck()),
            "unknown item 'Z' (the deck from line 1 is A B C D)"
        );
    }

    #[test]
    fn skipped_lines_are_counted_by_reason_with_the_first_of_each() {
        let (outcome, samples) = parse("A B C D\nA B\nA A B C\nA B C D\nC D\nZ A B C\n", 4, true);
        assert_eq!(samples.len(), 2);
        assert_eq!(outcome.skipped, [(2, 2), (1, 6), (1, 3), (0, 0), (0, 0)]);
        assert_eq!(outcome.stop, None);
        // The seen-bits are cleared after a bad line: the next good line is not refused.
        let (_, samples) = parse("A A\nA B\n", 2, true);
        assert_eq!(samples, [vec![0, 1]]);
    }

    #[test]
    fn a_line_over_the_cap_stops_even_when_skipping() {
        let long = format!("A B C D\n{}\n", "A ".repeat(MAX_LINE_BYTES));
        let (outcome, _) = parse(&long, 4, true);
        assert_eq!(outcome.stop, Some((2, Problem::TooLong)));
    }
}
