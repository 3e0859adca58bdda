//! The terminal report of `seeds crack`: what was searched and seen, how many seeds deal
//! it against how many would by chance, and each recovered deck with the cards seen in
//! brackets, so the reader checks at a glance that the deck shows them, then reads off
//! the others.
//!
//! Seeds are printed without thousands separators, so that one can be pasted into
//! `seeds deal --seed`. Decks are printed thirteen cards to a row, each row headed by the
//! position of its first card.

use crate::seeds::crack::{CrackReport, MAX_LISTED, Recovered};

use crate::format::{compact, counted, group_thousands};

/// How many recovered decks the terminal shows; the JSON lists up to [`MAX_LISTED`].
pub const SHOWN: usize = 20;

/// Cards per row of a deck.
const ROW: usize = 13;

/// The whole report: [`render_findings`] and the time the search took.
pub fn render(report: &CrackReport) -> String {
    let settings = &report.settings;
    let window = &settings.window;
    let mut text = render_findings(report);
    text.push_str(&format!(
        "\n{} searched in {:.2} s ({} seeds/s, {} thread{})\n",
        counted(window.len(), "seed"),
        report.elapsed.as_secs_f64(),
        compact(report.seeds_per_second()),
        settings.threads,
        if settings.threads == 1 { "" } else { "s" }
    ));
    text
}

/// What was searched and what was found, without the timing: the same text on every
/// run (the teaching report shows it).
pub fn render_findings(report: &CrackReport) -> String {
    let settings = &report.settings;
    let (dealer, window, seen) = (&settings.dealer, &settings.window, &settings.seen);
    let mut text = format!(
        "seeds crack: {} on {} cards, source {}, seeds {} ({})\n\
         each seed S deals: {}, then one {} shuffle of the deck 1..{} in order\n",
        dealer.algorithm_name(),
        dealer.n(),
        dealer.source(),
        window.describe(),
        counted(window.len(), "seed"),
        dealer.seeding(),
        dealer.algorithm_name(),
        dealer.n(),
    );
    let cards: Vec<String> = seen
        .cards()
        .iter()
        .map(|card| format!("{} at {}", card.card, card.position))
        .collect();
    text.push_str(&format!(
        "seen: {} ({}; a random deck shows {} in {})\n",
        cards.join(", "),
        counted(cards.len() as u64, "card"),
        if cards.len() == 1 { "it once" } else { "them once" },
        group_thousands((1.0 / seen.chance_of_match()).round().min(u64::MAX as f64) as u64),
    ));
    let chance = format!(
        "by chance alone, if every seed dealt a random deck, about {} would",
        small_number(report.chance_matches())
    );
    text.push_str(&match report.matches {
        0 => format!("\nno seed deals what was seen ({chance})\n"),
        1 => format!("\n1 seed deals what was seen ({chance}):\n"),
        matches => format!(
            "\n{} seeds deal what was seen ({chance}){}:\n",
            group_thousands(matches),
            if matches > SHOWN as u64 {
                format!(
                    "; the first {SHOWN} follow, --json lists {}",
                    if matches > MAX_LISTED as u64 {
                        format!("the first {MAX_LISTED}")
                    } else {
                        "them all".to_string()
                    }
                )
            } else {
                String::new()
            }
        ),
    });
    for recovered in report.recovered.iter().take(SHOWN) {
        text.push_str(&deck_lines(recovered, report));
    }
    text
}

/// `seed 50412345 (14:00:12.345)` and the deck it deals.
fn deck_lines(recovered: &Recovered, report: &CrackReport) -> String {
    let seen = report.settings.seen.cards();
    let time = report
        .time_of_day(recovered.seed)
        .map_or(String::new(), |time| format!(" ({time})"));
    let width = recovered.deck.len().to_string().len() + 2;
    let mut text = format!("  seed {}{time} deals:\n", recovered.seed);
    for (row, cards) in recovered.deck.chunks(ROW).enumerate() {
        let first = row * ROW + 1;
        text.push_str(&format!("    {first:>4}:"));
        for (offset, card) in cards.iter().enumerate() {
            let was_seen = seen.iter().any(|seen| seen.position == first + offset);
            let card = if was_seen {
                format!("[{card}]")
            } else {
                card.to_string()
            };
            text.push_str(&format!(" {card:>width$}"));
        }
        text.push('\n');
    }
    text
}

/// `0.00038` as `3.8e-4`, `2.5` as `2.5`, `12345.6` as `12,346`.
fn small_number(value: f64) -> String {
    match value {
        0.0 => "0".to_string(),
        v if v < 0.01 => format!("{v:.1e}"),
        v if v < 100.0 => format!("{v:.2}"),
        v => group_thousands(v.round() as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers_read_at_a_glance() {
        assert_eq!(small_number(0.0), "0");
        assert_eq!(small_number(0.000_384_8), "3.8e-4");
        assert_eq!(small_number(2.5), "2.50");
        assert_eq!(small_number(12_345.6), "12,346");
    }
}
