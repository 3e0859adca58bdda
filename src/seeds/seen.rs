//! What a player saw: cards at known positions of the dealt deck, the evidence `seeds
//! crack` matches every seed's deal against.
//!
//! Cards are labelled `1..n` as in the original poker code (a card's label is its place
//! in the unshuffled deck, counted from 1), and positions are counted from 1 in dealing
//! order (`CurrentCard := 1`). `--seen "c1 c2 c3"` gives the top of the deck (positions
//! 1, 2, 3, ...); `--seen-at POS:CARD,...` gives cards elsewhere, e.g. a player's hole
//! cards at positions 3 and 8 when five players are dealt one card at a time.
//!
//! Everything is checked, because a typo here would not fail loudly later: a seed search
//! for an impossible deck (a card seen twice) simply finds nothing, and the user would
//! conclude the deal was not made from the window.

use crate::error::{Error, Result};
use crate::format::escaped_for_terminals;

/// One card seen at one position (both counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SeenCard {
    /// Its position in dealing order, from 1.
    pub position: usize,
    /// Its label, from 1 (its place in the unshuffled deck).
    pub card: usize,
}

/// The cards seen in a deal of `n` cards: at least one, each card and each position once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    n: usize,
    /// By position.
    cards: Vec<SeenCard>,
    /// `(position - 1, card - 1)` as `u16`: what a deck of labels `0..n` must hold.
    checks: Vec<(usize, u16)>,
}

impl Seen {
    /// Parses `--seen` (the top of the deck, in dealing order) and `--seen-at` (`POS:CARD`
    /// pairs) for a deck of `n` cards (at most 65,535). Cards and pairs are separated by
    /// spaces or commas.
    pub fn parse(top: Option<&str>, at: Option<&str>, n: usize) -> Result<Self> {
        if n > usize::from(u16::MAX) {
            return Err(bad("--n", format!("must be at most 65535 cards (got {n})")));
        }
        let mut cards = Vec::new();
        if let Some(top) = top {
            for (index, token) in tokens(top).enumerate() {
                let card = parse_card(token, n, "--seen")?;
                if index >= n {
                    return Err(bad("--seen", format!("lists more cards than the deck's {n}")));
                }
                cards.push((
                    SeenCard {
                        position: index + 1,
                        card,
                    },
                    "--seen",
                ));
            }
        }
        if let Some(at) = at {
            for token in tokens(at) {
                let shown = escaped_for_terminals(token);
                let (position, card) = token.split_once(':').ok_or_else(|| {
                    bad(
                        "--seen-at",
                        format!("'{shown}' is not POS:CARD (e.g. 3:17, card 17 at position 3)"),
                    )
                })?;
                let position = position
                    .parse::<usize>()
                    .ok()
                    .filter(|position| (1..=n).contains(position))
                    .ok_or_else(|| {
                        bad(
                            "--seen-at",
                            format!(
                                "'{shown}': '{}' is not a position of the deck (1 to {n})",
                                escaped_for_terminals(position)
                            ),
                        )
                    })?;
                let card = parse_card(card, n, "--seen-at")?;
                cards.push((SeenCard { position, card }, "--seen-at"));
            }
        }
        if cards.is_empty() {
            return Err(Error::Usage(
                "nothing seen: give the cards dealt with --seen \"C1 C2 ...\" (the top of the deck) \
                 and/or --seen-at POS:CARD,..."
                    .to_string(),
            ));
        }
        refuse_repeats(&cards)?;
        let mut cards: Vec<SeenCard> = cards.into_iter().map(|(card, _)| card).collect();
        cards.sort_by_key(|card| card.position);
        let checks = cards
            .iter()
            .map(|seen| (seen.position - 1, (seen.card - 1) as u16))
            .collect();
        Ok(Self { n, cards, checks })
    }

    /// The deck size the positions and labels are for.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The cards seen, by position.
    pub fn cards(&self) -> &[SeenCard] {
        &self.cards
    }

    /// Whether `deck` (labels `0..n`, in dealing order) shows every card seen where it
    /// was seen.
    #[inline]
    pub fn matches(&self, deck: &[u16]) -> bool {
        self.checks.iter().all(|&(position, card)| deck[position] == card)
    }

    /// The chance that a uniformly random deck matches: `(n-k)!/n!` for `k` cards seen,
    /// the expected number of matches per seed of a window if the seeds dealt random
    /// decks (a shuffle or source with a bias changes it a little, not its size).
    pub fn chance_of_match(&self) -> f64 {
        (0..self.cards.len()).map(|i| 1.0 / (self.n - i) as f64).product()
    }
}

fn bad(option: &'static str, problem: String) -> Error {
    Error::BadOption { option, problem }
}

/// Cards or pairs, separated by spaces and/or commas.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', ',', '\t', '\n'])
        .filter(|token| !token.is_empty())
}

fn parse_card(token: &str, n: usize, option: &'static str) -> Result<usize> {
    token
        .parse::<usize>()
        .ok()
        .filter(|card| (1..=n).contains(card))
        .ok_or_else(|| {
            bad(
                option,
                format!(
                    "'{}' is not a card: cards are labelled 1 to {n} (their places in the \
                     unshuffled deck)",
                    escaped_for_terminals(token)
                ),
            )
        })
}

/// A card at two positions, or a position given twice, each said as such.
fn refuse_repeats(cards: &[(SeenCard, &'static str)]) -> Result<()> {
    for (i, (seen, option)) in cards.iter().enumerate() {
        for (earlier, earlier_option) in &cards[..i] {
            let said = |option: &str| {
                if option == *earlier_option {
                    format!("in {option}")
                } else {
                    format!("in {earlier_option} and {option}")
                }
            };
            if earlier.position == seen.position {
                return Err(Error::Usage(if earlier.card == seen.card {
                    format!(
                        "position {} is given twice ({}); give each position once",
                        seen.position,
                        said(option)
                    )
                } else {
                    format!(
                        "position {} is given two cards, {} and {} ({}): a position holds one card",
                        seen.position,
                        earlier.card,
                        seen.card,
                        said(option)
                    )
                }));
            }
            if earlier.card == seen.card {
                return Err(Error::Usage(format!(
                    "card {} is seen twice, at positions {} and {} ({}): a deck holds each card once",
                    seen.card,
                    earlier.position,
                    seen.position,
                    said(option)
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(top: Option<&str>, at: Option<&str>) -> Result<Seen> {
        Seen::parse(top, at, 52)
    }

    fn error(top: Option<&str>, at: Option<&str>) -> String {
        seen(top, at).unwrap_err().to_string()
    }

    #[test]
    fn the_top_of_the_deck_and_known_positions_combine() {
        let parsed = seen(Some("17 40, 3"), Some("8:52,5:1")).unwrap();
        let pairs: Vec<(usize, usize)> = parsed.cards().iter().map(|c| (c.position, c.card)).collect();
        assert_eq!(pairs, [(1, 17), (2, 40), (3, 3), (5, 1), (8, 52)]);
        let mut deck: Vec<u16> = (0..52).collect();
        assert!(!parsed.matches(&deck));
        // Put label 17 at position 1, 40 at 2, 3 at 3, 1 at 5 and 52 at 8 (0-based
        // labels and positions one less).
        for (position, label) in [(0, 16), (1, 39), (2, 2), (4, 0), (7, 51)] {
            let from = deck.iter().position(|&card| card == label).unwrap();
            deck.swap(position, from);
        }
        assert!(parsed.matches(&deck));
        deck.swap(7, 8);
        assert!(!parsed.matches(&deck));
    }

    #[test]
    fn the_chance_of_a_match_is_one_over_the_deals_of_the_cards_seen() {
        let five = seen(Some("1 2 3 4 5"), None).unwrap();
        // 52 * 51 * 50 * 49 * 48 = 311,875,200 ways to deal five cards.
        assert!((five.chance_of_match() * 311_875_200.0 - 1.0).abs() < 1e-12);
        let one = seen(None, Some("9:9")).unwrap();
        assert!((one.chance_of_match() - 1.0 / 52.0).abs() < 1e-15);
    }

    #[test]
    fn every_mistake_is_named() {
        for (top, at, expected) in [
            (
                Some("0"),
                None,
                "--seen '0' is not a card: cards are labelled 1 to 52",
            ),
            (Some("53"), None, "'53' is not a card"),
            (Some("1 x"), None, "'x' is not a card"),
            (Some("-1"), None, "'-1' is not a card"),
            (None, Some("3"), "--seen-at '3' is not POS:CARD"),
            (None, Some("3-17"), "'3-17' is not POS:CARD"),
            (None, Some("0:17"), "'0' is not a position of the deck (1 to 52)"),
            (None, Some("53:17"), "'53' is not a position"),
            (None, Some("3:"), "--seen-at '' is not a card"),
            (None, Some("3:99"), "'99' is not a card"),
            (
                Some("5 9 5"),
                None,
                "card 5 is seen twice, at positions 1 and 3 (in --seen)",
            ),
            (
                Some("5 9"),
                Some("4:9"),
                "card 9 is seen twice, at positions 2 and 4 (in --seen and --seen-at)",
            ),
            (
                Some("5 9"),
                Some("1:5"),
                "position 1 is given twice (in --seen and --seen-at)",
            ),
            (
                None,
                Some("4:6 4:7"),
                "position 4 is given two cards, 6 and 7 (in --seen-at)",
            ),
            (Some(""), Some(" , "), "nothing seen"),
            (None, None, "nothing seen"),
        ] {
            let message = error(top, at);
            assert!(message.contains(expected), "{top:?} {at:?}: {message}");
            assert!(!message.contains('\n'), "{message}");
        }
        let too_many = Seen::parse(Some("1 2 3 4"), None, 3).unwrap_err().to_string();
        assert!(too_many.contains("'4' is not a card"), "{too_many}");
        let repeated = Seen::parse(Some("1 2 3 1"), None, 3).unwrap_err().to_string();
        assert!(
            repeated.contains("--seen lists more cards than the deck's 3"),
            "{repeated}"
        );
        let huge = Seen::parse(Some("1"), None, 70_000).unwrap_err().to_string();
        assert!(huge.contains("--n must be at most 65535"), "{huge}");
        let whole = Seen::parse(Some("3 1 2"), None, 3).unwrap();
        assert_eq!(whole.cards().len(), 3);
    }
}
