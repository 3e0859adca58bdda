//! The deck: which token is which card, and how a token is shown in a message.
//!
//! Cards are numbered in the order their tokens were given (the first line's order, or
//! `--deck`'s). Tokens are checked as `stream --items` checks item names (at most 64
//! characters, printable, no bidirectional controls), since they end up in tables, charts
//! and web pages. Finding a token's card is the hot loop of `ingest`: a table indexed by
//! the byte when every token is one byte (`0 1 2 3`, `A,B,C`), a comparison of byte
//! slices for other small decks, a hash map only for large ones.

use std::collections::HashMap;

use crate::catalogue::items::{MAX_NAME_CHARS, name_problem};
use crate::format::escaped_for_terminals;

/// Decks up to this size are searched token by token; larger ones through a hash map.
const LINEAR_UP_TO: usize = 16;

/// Tokens shown in a message are cut to this many characters.
const SHOWN_CHARS: usize = 40;

/// Deck tokens named in full in a message about an unknown item; more are elided.
const NAMED_IN_MESSAGES: usize = 12;

/// A deck of named cards.
#[derive(Clone, Debug)]
pub struct Deck {
    names: Vec<String>,
    lookup: Lookup,
    /// Where the deck came from, for messages: `line 1`, `--deck`.
    pub from: String,
    /// The items of a stream rather than the cards of a deck (said so in messages).
    items: bool,
}

#[derive(Clone, Debug)]
enum Lookup {
    /// Every token is one byte: its card, or `u16::MAX`.
    Bytes(Box<[u16; 256]>),
    /// Every token is a decimal number written plainly (no sign, no leading zero) below
    /// [`MAX_NUMBERED`], as most programs print their cards: entry `v` is the card
    /// written `v`, or `u16::MAX`. Parsing the digits is several times faster than
    /// hashing the token.
    Numbers(Vec<u16>),
    Linear,
    Hashed(HashMap<Vec<u8>, u16>),
}

/// The largest number a numbered deck's table is made for.
const MAX_NUMBERED: usize = 1 << 16;

/// `token` as a plain decimal number (`0`, `17`; not `017`, `+1`, `1.0`), if it is one
/// below [`MAX_NUMBERED`].
#[inline]
fn plain_number(token: &[u8]) -> Option<usize> {
    if token.is_empty() || token.len() > 5 || (token.len() > 1 && token[0] == b'0') {
        return None;
    }
    let mut value = 0usize;
    for &byte in token {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value * 10 + usize::from(byte - b'0');
    }
    (value < MAX_NUMBERED).then_some(value)
}

impl Deck {
    /// A deck of `tokens`, in order, from `from`; or why they cannot be a deck (each
    /// token must be a valid name, and told apart from every other).
    pub fn new(tokens: &[&[u8]], from: String) -> Result<Self, String> {
        let mut names: Vec<String> = Vec::with_capacity(tokens.len());
        let mut seen = std::collections::HashSet::with_capacity(tokens.len());
        for &token in tokens {
            let name = valid_name(token)?;
            if !seen.insert(token) {
                return Err(format!(
                    "item '{name}' appears twice: the cards of a deck must be told apart, so every \
                     item of {from} must be different"
                ));
            }
            names.push(name);
        }
        let lookup = if names.iter().all(|name| name.len() == 1) {
            let mut table = Box::new([u16::MAX; 256]);
            for (card, name) in names.iter().enumerate() {
                table[usize::from(name.as_bytes()[0])] = card as u16;
            }
            Lookup::Bytes(table)
        } else if let Some(numbers) = names
            .iter()
            .map(|name| plain_number(name.as_bytes()))
            .collect::<Option<Vec<usize>>>()
        {
            let mut table = vec![u16::MAX; numbers.iter().max().map_or(0, |&most| most + 1)];
            for (card, &number) in numbers.iter().enumerate() {
                table[number] = card as u16;
            }
            Lookup::Numbers(table)
        } else if names.len() <= LINEAR_UP_TO {
            Lookup::Linear
        } else {
            Lookup::Hashed(
                names
                    .iter()
                    .enumerate()
                    .map(|(card, name)| (name.as_bytes().to_vec(), card as u16))
                    .collect(),
            )
        };
        Ok(Self {
            names,
            lookup,
            from,
            items: false,
        })
    }

    /// The same tokens as a stream's items: messages say `the items from --weights are`.
    pub fn as_items(self) -> Self {
        Self { items: true, ..self }
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the deck has no card.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The cards' names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The card `token` names, if any.
    #[inline]
    pub fn card(&self, token: &[u8]) -> Option<u16> {
        match &self.lookup {
            Lookup::Bytes(table) => match token {
                [byte] => Some(table[usize::from(*byte)]).filter(|&card| card != u16::MAX),
                _ => None,
            },
            Lookup::Numbers(table) => plain_number(token)
                .and_then(|number| table.get(number).copied())
                .filter(|&card| card != u16::MAX),
            Lookup::Linear => self
                .names
                .iter()
                .position(|name| name.as_bytes() == token)
                .map(|card| card as u16),
            Lookup::Hashed(map) => map.get(token).copied(),
        }
    }

    /// `the deck from line 1 is A B C D` (the first dozen names, for large decks).
    pub fn describe(&self) -> String {
        let shown: Vec<&str> = self
            .names
            .iter()
            .take(NAMED_IN_MESSAGES)
            .map(String::as_str)
            .collect();
        let more = self.names.len().saturating_sub(NAMED_IN_MESSAGES);
        let rest = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let (what, are) = if self.items {
            ("items", "are")
        } else {
            ("deck", "is")
        };
        format!("the {what} from {} {are} {}{rest}", self.from, shown.join(" "))
    }
}

/// `token` as a name, or why it cannot be one.
pub fn valid_name(token: &[u8]) -> Result<String, String> {
    let Ok(name) = std::str::from_utf8(token) else {
        return Err(format!("item '{}' is not valid UTF-8", shown(token)));
    };
    match name_problem(name).or_else(|| list_syntax_problem(name)) {
        Some(problem) => Err(format!("item '{}' {problem}", shown(token))),
        None => Ok(name.to_string()),
    }
}

/// Why a card's name looks like a piece of a list (see [`super::list`]): a quote that a
/// plain line does not read as one, or a bracket that the line leaves open. Checked on the
/// names of a deck, which every later line is read against, so that `'A' 'B'` or `3, 1, 2]`
/// is refused where the deck is made instead of becoming cards named `'A'` or `2]`.
fn list_syntax_problem(name: &str) -> Option<String> {
    if name.starts_with(['\'', '"']) {
        return Some(
            "starts with a quote: quotes are read only in a line written as a list (['A', 'B']); \
             write the line with brackets, or without quotes"
                .to_string(),
        );
    }
    let count = |c: char| name.matches(c).count();
    [('[', ']'), ('(', ')')]
        .into_iter()
        .find(|&(open, close)| count(open) != count(close))
        .map(|(open, close)| {
            format!("has unbalanced brackets ('{open}' and '{close}' do not pair up): a list is read only when the whole line is one")
        })
}

/// A token as a message can show it: invalid UTF-8 replaced, control and bidirectional
/// characters escaped, cut to [`SHOWN_CHARS`] characters.
pub fn shown(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let head: String = text.chars().take(SHOWN_CHARS).collect();
    let mut out = escaped_for_terminals(&head);
    if text.chars().nth(SHOWN_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// The longest name accepted, in characters (as for `stream --items`).
pub const MAX_TOKEN_CHARS: usize = MAX_NAME_CHARS;

#[cfg(test)]
mod tests {
    #[test]
    fn numbered_decks_look_cards_up_by_their_number_and_nothing_else() {
        let tokens: Vec<String> = (0..52).rev().map(|card| card.to_string()).collect();
        let tokens: Vec<&[u8]> = tokens.iter().map(|token| token.as_bytes()).collect();
        let deck = super::Deck::new(&tokens, "line 1".to_string()).unwrap();
        assert!(matches!(deck.lookup, super::Lookup::Numbers(_)));
        assert_eq!(deck.card(b"51"), Some(0));
        assert_eq!(deck.card(b"0"), Some(51));
        for foreign in [&b"52"[..], b"051", b"+1", b"1.0", b"", b"99999", b"100000"] {
            assert_eq!(deck.card(foreign), None, "{}", String::from_utf8_lossy(foreign));
        }
    }

    use super::*;

    fn deck(tokens: &[&str]) -> Result<Deck, String> {
        let bytes: Vec<&[u8]> = tokens.iter().map(|t| t.as_bytes()).collect();
        Deck::new(&bytes, "line 1".to_string())
    }

    #[test]
    fn every_lookup_finds_every_card_and_nothing_else() {
        let many: Vec<String> = (0..40).map(|i| format!("c{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        for tokens in [vec!["0", "1", "2", "3"], vec!["♠K", "♥3", "A"], many] {
            let deck = deck(&tokens).unwrap();
            for (card, token) in tokens.iter().enumerate() {
                assert_eq!(deck.card(token.as_bytes()), Some(card as u16));
            }
            assert_eq!(deck.card(b"Z"), None);
            assert_eq!(deck.card(b"00"), None);
        }
    }

    #[test]
    fn hostile_tokens_are_refused_and_shown_harmlessly() {
        assert!(
            deck(&["A", "B", "A"])
                .unwrap_err()
                .contains("item 'A' appears twice")
        );
        let bidi = deck(&["a\u{202E}b", "c"]).unwrap_err();
        assert!(
            bidi.contains("bidirectional control character (U+202E)"),
            "{bidi}"
        );
        assert!(
            !bidi.contains('\u{202E}'),
            "the message must not carry the override itself"
        );
        assert!(
            deck(&["a\0b", "c"])
                .unwrap_err()
                .contains("control character (U+0000)")
        );
        let long = "W".repeat(MAX_TOKEN_CHARS + 1);
        assert!(deck(&[&long, "c"]).unwrap_err().contains("65 characters long"));
        let invalid = Deck::new(&[b"\xff\xfe", b"c"], "line 1".to_string()).unwrap_err();
        assert!(invalid.contains("is not valid UTF-8"), "{invalid}");
        assert!(
            deck(&["<script>alert(1)</script>", "&\"'<b>"]).is_ok(),
            "escaped where shown"
        );
    }

    #[test]
    fn pieces_of_lists_are_not_card_names() {
        for (tokens, problem) in [
            (["'A'", "'B'"], "item ''A'' starts with a quote"),
            (["\"A\"", "B"], "item '\"A\"' starts with a quote"),
            (["1", "2]"], "item '2]' has unbalanced brackets"),
            (["(1", "2"], "item '(1' has unbalanced brackets"),
        ] {
            let refused = deck(&tokens).unwrap_err();
            assert!(refused.contains(problem), "{refused}");
        }
        // Brackets that pair up, and quotes inside a name, are a name's own.
        assert!(deck(&["x[1]", "f(x)", "it's", "A'"]).is_ok());
    }

    #[test]
    fn large_decks_are_described_in_part() {
        let names: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(
            deck(&names).unwrap().describe(),
            "the deck from line 1 is 1 2 3 4 5 6 7 8 9 10 11 12 and 8 more"
        );
    }
}
