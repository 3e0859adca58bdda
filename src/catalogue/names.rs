//! Names as typed on the command line (`naive-repeated:3`, `riffles:7`) parsed against
//! the catalogue, with a suggestion for a near miss: the one place that turns user text
//! into an [`Algorithm`], so that `run`, `exact`, `check` and the report all accept the
//! same spellings and refuse the same mistakes in the same words.

use super::*;

/// An algorithm as named on the command line, parsed against the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmSpec {
    /// Its catalogue entry.
    pub entry: &'static CatalogueEntry,
    /// What runs, parameters filled in (possibly still defaulting to a function of `n`).
    pub algorithm: Algorithm,
}

impl AlgorithmSpec {
    /// Parses `name` or `name:parameter`.
    pub fn parse(text: &str) -> Result<Self> {
        let (name, parameter) = match text.split_once(':') {
            Some((name, parameter)) => (name, Some(parameter)),
            None => (text, None),
        };
        let entry = entries()
            .find(|entry| entry.name == name)
            .ok_or_else(|| Error::UnknownAlgorithm {
                name: name.to_string(),
                suggestion: suggestion_for(name),
            })?;
        let bad = |problem: String| Error::BadParameter {
            spec: text.to_string(),
            problem,
        };
        let algorithm = match (entry.algorithm, parameter, entry.parameter) {
            (algorithm, None, _) => algorithm,
            (Algorithm::Sampler(_), Some(_), None) => {
                return Err(bad(format!(
                    "{} takes no parameter (give the number of picks with --k)",
                    entry.name
                )));
            }
            (_, Some(_), None) | (Algorithm::Sampler(_), Some(_), Some(_)) => {
                return Err(bad(format!("{} takes no parameter", entry.name)));
            }
            (Algorithm::Permutation(shuffle), Some(value), Some(parameter)) => {
                Algorithm::Permutation(shuffle.with_parameter(entry, &parameter, value).map_err(bad)?)
            }
        };
        Ok(Self { entry, algorithm })
    }

    /// The name with its parameter as it will run on `n` cards, e.g. `naive-repeated:3`.
    pub fn display_name(&self, n: usize) -> String {
        let parameter = self.algorithm.as_permutation().and_then(|shuffle| {
            shuffle
                .resolve(n)
                .facts(|facts| facts.parameter_shown(self.entry))
        });
        match parameter {
            Some(parameter) => format!("{}:{parameter}", self.entry.name),
            None => self.entry.name.to_string(),
        }
    }

    /// The verdict it is known to get on `n` cards: its entry's, unless the shuffle's
    /// parameter moves the size from which it is biased ([`ShuffleFacts::biased_from`]).
    pub fn expected_at(&self, n: usize) -> Expectation {
        let biased_from = match self.algorithm.as_permutation() {
            Some(shuffle) => shuffle.facts(|facts| facts.biased_from(self.entry.biased_from)),
            None => self.entry.biased_from,
        };
        Expectation::on_deck_of(n, biased_from)
    }

    /// Its family.
    pub fn kind(&self) -> Kind {
        self.algorithm.kind()
    }
}

/// "; did you mean 'a' or 'b'?" for the catalogue entries closest to `typed`, or "".
fn suggestion_for(typed: &str) -> String {
    if generators::GENERATORS.iter().any(|entry| entry.name == typed) {
        return format!("; '{typed}' is a stream generator: shuffle-audit stream {typed} --items ...");
    }
    suggestion_among(typed, entries().map(|entry| entry.name))
}

/// "; did you mean 'a' or 'b'?" for the `names` closest to `typed`, or "" if none is close.
pub fn suggestion_among<'a>(typed: &str, names: impl Iterator<Item = &'a str>) -> String {
    if typed.contains(',') {
        return "; separate names with spaces, not commas".to_string();
    }
    let mut close: Vec<(usize, &str)> = names
        .map(|name| (edit_distance(typed, name), name))
        .filter(|&(distance, name)| {
            distance <= (typed.len() / 3).max(2)
                || (typed.len() >= 3 && name.contains(typed))
                || typed.contains(name)
        })
        .collect();
    close.sort();
    let names: Vec<String> = close
        .iter()
        .take(3)
        .map(|(_, name)| format!("'{name}'"))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => format!("; did you mean {}?", names[0]),
        _ => format!(
            "; did you mean {} or {}?",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Levenshtein distance, by the two-row dynamic programme.
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}
