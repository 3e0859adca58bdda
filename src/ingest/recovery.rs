//! Deals read for a generator's recovery (`seeds recover`, and `ingest`'s check that its
//! deals are not predictable): each deal numbered by the places of its cards in the
//! unshuffled deck, and the deck's labels to name predicted deals by.
//!
//! Why a reader of its own: `ingest` numbers cards by the first line, which is a deal, not
//! the deck before any shuffle; a generator is recovered from what each draw did to the
//! unshuffled deck, so its order must be known: `--deck`, or numbers in ascending order.
//! Lines are read as `ingest` reads them ([`super::lines::tokens`]: plain, or written as
//! a Python or JSON list).

use std::collections::HashMap;
use std::io::BufRead;

use super::lines::{is_skipped, tokens};
use crate::error::{Error, Result};
use crate::seeds::recover::{Observed, Recovery};

/// Deals numbered by the places of their cards in the unshuffled deck, and its labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledDeals {
    pub observed: Observed,
    /// The unshuffled deck's labels, in its order.
    pub labels: Vec<String>,
}

impl LabelledDeals {
    /// A deal in the input's labels.
    pub fn labelled(&self, deal: &[u16]) -> Vec<String> {
        labelled(&self.labels, deal)
    }
}

/// `seeds recover`'s answer, with what it was asked.
pub struct RecoverReport {
    pub recovery: Recovery,
    /// The unshuffled deck's labels, in its order.
    pub labels: Vec<String>,
    /// The input, for people (`deals.txt`, `standard input`).
    pub source: String,
    /// The command that repeats it.
    pub command: String,
}

impl RecoverReport {
    /// A deal in the input's labels.
    pub fn labelled(&self, deal: &[u16]) -> Vec<String> {
        labelled(&self.labels, deal)
    }
}

/// `deal` (places in the unshuffled deck) in the deck's `labels`.
fn labelled(labels: &[String], deal: &[u16]) -> Vec<String> {
    deal.iter()
        .map(|&card| labels[usize::from(card)].clone())
        .collect()
}

/// The unshuffled order of a deck whose cards are `labels` (a deal's, in any order):
/// `deck` when given (it must hold the same labels), else the labels in ascending
/// numeric order when every one is an integer; otherwise the one-line reason.
pub fn unshuffled_order(
    labels: &[String],
    deck: Option<&[String]>,
) -> std::result::Result<Vec<String>, String> {
    if let Some(deck) = deck {
        return Ok(deck.to_vec());
    }
    let mut numbers = Vec::with_capacity(labels.len());
    for label in labels {
        match label.parse::<i64>() {
            Ok(number) => numbers.push((number, label.clone())),
            Err(_) => {
                return Err(format!(
                    "the unshuffled order of the deck is not known: card '{}' is not a number; give it \
                     with --deck \"ITEMS\" in the order before any shuffle",
                    crate::format::escaped_for_terminals(label)
                ));
            }
        }
    }
    numbers.sort();
    if let Some(pair) = numbers.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(format!(
            "cards '{}' and '{}' are the same number: give the unshuffled order with --deck",
            pair[0].1, pair[1].1
        ));
    }
    Ok(numbers.into_iter().map(|(_, label)| label).collect())
}

/// Reads every deal of `input` (named `source` in messages): one whole deck per line, in
/// the order dealt; blank lines and comments skipped. `deck` is the unshuffled order
/// (`--deck`); `carried` says each deal shuffled the one before.
pub fn read_deals(
    input: impl BufRead,
    source: &str,
    deck: Option<&[String]>,
    carried: bool,
) -> Result<LabelledDeals> {
    let mut places: HashMap<String, u16> = HashMap::new();
    let mut labels: Vec<String> = Vec::new();
    let mut deals: Vec<Vec<u16>> = Vec::new();
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let line = line.map_err(|error| Error::Input(format!("cannot read {source}: {error}")))?;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        if is_skipped(line) {
            continue;
        }
        let at_line = |problem: String| Error::Input(format!("{source}, line {number}: {problem}"));
        let cards: Vec<String> = tokens(line)
            .map_err(at_line)?
            .map(|token| String::from_utf8_lossy(token).into_owned())
            .collect();
        if labels.is_empty() {
            labels = unshuffled_order(&cards, deck).map_err(|problem| match deck {
                Some(_) => Error::Usage(problem),
                None => at_line(problem),
            })?;
            if labels.len() > usize::from(u16::MAX) {
                return Err(at_line(format!(
                    "{} cards: decks of at most 65,535 are read",
                    labels.len()
                )));
            }
            for (place, label) in labels.iter().enumerate() {
                if places.insert(label.clone(), place as u16).is_some() {
                    return Err(Error::BadOption {
                        option: "--deck",
                        problem: format!("'{label}' is named twice"),
                    });
                }
            }
        }
        deals.push(deal(&cards, &places, labels.len()).map_err(at_line)?);
    }
    if deals.is_empty() {
        return Err(Error::Input(format!(
            "no deals in {source}: every line is blank or a comment"
        )));
    }
    Ok(LabelledDeals {
        observed: Observed { deals, carried },
        labels,
    })
}

/// A line's cards as places in the unshuffled deck, each card of the deck once.
fn deal(cards: &[String], places: &HashMap<String, u16>, n: usize) -> std::result::Result<Vec<u16>, String> {
    let mut seen = vec![false; n];
    let mut deal = Vec::with_capacity(n);
    for card in cards {
        let Some(&place) = places.get(card) else {
            return Err(format!(
                "card '{}' is not in the deck (the deck is --deck, or the cards of the first deal)",
                crate::format::escaped_for_terminals(card)
            ));
        };
        if std::mem::replace(&mut seen[usize::from(place)], true) {
            return Err(format!(
                "card '{}' is dealt twice",
                crate::format::escaped_for_terminals(card)
            ));
        }
        deal.push(place);
    }
    if deal.len() != n {
        return Err(format!(
            "{} cards, but the deck has {n}: every line is one whole deck",
            deal.len()
        ));
    }
    Ok(deal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, deck: Option<&[&str]>) -> Result<LabelledDeals> {
        let deck: Option<Vec<String>> = deck.map(|deck| deck.iter().map(|label| label.to_string()).collect());
        read_deals(text.as_bytes(), "deals.txt", deck.as_deref(), false)
    }

    #[test]
    fn numbers_are_taken_in_ascending_order_and_lists_read_as_lines() {
        let deals = read("# dealt by Java\n3 1 2 10\n[10, 2, 1, 3]\n", None).unwrap();
        assert_eq!(deals.labels, ["1", "2", "3", "10"]);
        assert_eq!(deals.observed.deals, [vec![2, 0, 1, 3], vec![3, 1, 0, 2]]);
        assert_eq!(deals.labelled(&[3, 2, 1, 0]), ["10", "3", "2", "1"]);
    }

    #[test]
    fn names_need_the_deck_and_bad_deals_name_their_line() {
        let message = read("A B C\n", None).unwrap_err().to_string();
        assert!(
            message.contains("line 1") && message.contains("--deck"),
            "{message}"
        );
        let deals = read("C A B\n", Some(&["A", "B", "C"])).unwrap();
        assert_eq!(deals.observed.deals, [vec![2, 0, 1]]);
        for (text, wanted) in [
            ("1 2 3\n1 2 2\n", "line 2: card '2' is dealt twice"),
            ("1 2 3\n1 2\n", "line 2: 2 cards, but the deck has 3"),
            ("1 2 3\n\n1 2 4\n", "line 3: card '4' is not in the deck"),
            ("1 2 3\n[1, 2\n", "line 2:"),
            ("\n# nothing\n", "no deals in deals.txt"),
            ("1 01 2\n", "the same number"),
        ] {
            let message = read(text, None).unwrap_err().to_string();
            assert!(message.contains(wanted), "{text:?}: {message}");
        }
    }
}
