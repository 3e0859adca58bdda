//! The exact law of each draw of a generator's stream, where it is known in closed form:
//! what the page's "frequencies" chart should show, exactly, and by how much a flawed
//! generator's draws miss the stated weights.
//!
//! Why a closed form and not an enumeration: a stream's draws are counted one by one, and
//! for the generators below the law of every single draw is known without walking any
//! path, for any number of items and copies:
//! - i.i.d. draws (`iid`, `if-else`, `unrandomness:0`) are each exactly the weights;
//! - a bag that deals a uniformly shuffled cycle (`refill-list`, `shuffle-bag`,
//!   `tetris-7-bag`, the Boggle bags) deals item `i` at every slot of a cycle with
//!   probability `copies_i / slots`, by symmetry of the uniform shuffle; `double-bag-half`
//!   draws half of a uniformly shuffled bag of twice the copies, so each of its draws is
//!   `2 copies_i / 2 slots`, the same;
//! - `unrandomness` from equal weights treats every item alike, so each draw is uniform
//!   (its draws are not independent, but each one's law is exactly `1/m`).
//!
//! All of this is for the fair source: a flawed one (`--source`) bends every bounded draw,
//! and its law of a stream's draws is not computed here.
//!
//! The C# bag (`random.Next(currentPosition)`) has no such form: its cycles depend on
//! the order the last one left (only its first cycle is enumerated, for a few items), and
//! `unrandomness` with unequal weights depends on the whole past. A cursor bag that
//! receives items in mid-sequence (`--add-every`) is left out too.

use crate::catalogue::generators::{GeneratorKind, GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::randomness::SourceKind;
use crate::report::chart::{self, Bars, Titles};

/// The exact law of one draw: a numerator per item over a common denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawLaw {
    pub numerators: Vec<u64>,
    pub denominator: u64,
    /// Why it is exact, in a few words (`i.i.d. by weight`, `a fair bag's every slot`).
    pub why: &'static str,
}

impl DrawLaw {
    /// Each item's probability.
    pub fn probabilities(&self) -> Vec<f64> {
        let denominator = self.denominator as f64;
        self.numerators.iter().map(|&x| x as f64 / denominator).collect()
    }

    /// Whether each draw's law is exactly the stated weights (compared as fractions).
    pub fn is_stated(&self, items: &Items) -> bool {
        let total = u128::from(items.total_units());
        self.numerators
            .iter()
            .zip(&items.units)
            .all(|(&x, &units)| u128::from(x) * total == u128::from(units) * u128::from(self.denominator))
    }

    /// The total variation distance of each draw's law from the stated weights.
    pub fn distance_from_stated(&self, items: &Items) -> f64 {
        self.probabilities()
            .iter()
            .zip(items.probabilities())
            .map(|(p, w)| (p - w).abs())
            .sum::<f64>()
            / 2.0
    }
}

/// The exact law of each draw of `spec` on `items`, or why it is not known (a sentence
/// the page shows as it is).
pub fn draw_law(
    spec: &GeneratorSpec,
    items: &Items,
    scenario: &StreamScenario,
    source: SourceKind,
) -> Result<DrawLaw, String> {
    if !source.is_default() {
        return Err(format!(
            "No exact law of the draws is computed here with --source {}: the closed forms are for \
             the fair source.",
            source.name()
        ));
    }
    let weights = || DrawLaw {
        numerators: items.units.clone(),
        denominator: items.total_units(),
        why: "each draw is independent and exactly the weights",
    };
    let equal = items.units.iter().all(|&units| units == items.units[0]);
    match spec.kind {
        GeneratorKind::Iid | GeneratorKind::IfElse => Ok(weights()),
        GeneratorKind::Unrandomness { step: 0.0 } => Ok(weights()),
        GeneratorKind::Unrandomness { .. } if equal => Ok(DrawLaw {
            why: "from equal weights every item is treated alike, so each draw is exactly uniform \
                  (the draws are not independent)",
            ..weights()
        }),
        GeneratorKind::Unrandomness { .. } => Err(format!(
            "No exact law is known for {}: with unequal weights each draw's law depends on every \
             draw before it; the charts' expectations are the stated weights and the tests' own laws.",
            spec.display_name()
        )),
        GeneratorKind::ShuffleBagCsharp => Err(format!(
            "No exact law of its draws is known for {}: each cycle depends on the order the last one \
             left (its first cycle is enumerated for up to 9 equal items).",
            spec.display_name()
        )),
        _ if scenario.add_every.is_some() && spec.takes_additions() => Err(format!(
            "No exact law is computed for {} with --add-every: the items added in mid-sequence break \
             its cycles.",
            spec.display_name()
        )),
        _ => {
            let copies = spec
                .bag_copies(items)
                .map_err(|error| error.to_string())?
                .ok_or_else(|| format!("{} is not a bag", spec.display_name()))?;
            Ok(DrawLaw {
                denominator: copies.iter().sum(),
                numerators: copies,
                why: "a fair bag deals each item at every slot of a cycle with probability copies / slots",
            })
        }
    }
}

/// The law as bars: each item's numerator against its stated weight on the same scale
/// (an exact law has no band, so a bar off its line is a real bias, as in `exact`'s charts).
pub fn draw_law_chart(title: String, items: &Items, law: &DrawLaw) -> String {
    let stated: Vec<f64> = items
        .probabilities()
        .iter()
        .map(|w| w * law.denominator as f64)
        .collect();
    chart::bars(&Bars {
        titles: Titles {
            title,
            subtitle: format!(
                "exact chance of each item at every draw, out of {}, against its weight",
                law.denominator
            ),
        },
        labels: items.names.clone(),
        observed: law.numerators.clone(),
        band: stated.iter().map(|&e| (e, e)).collect(),
        expected: stated,
        x_axis: "item".to_string(),
        y_axis: format!("chance (of {})", law.denominator),
        log_scale: false,
        reference: Some("the stated weights".to_string()),
    })
}
