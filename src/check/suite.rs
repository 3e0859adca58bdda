//! The default suite of `check` (no `--config`): every catalogue shuffle, sampler and
//! stream generator, at a size where its known bias shows, with fixed seeds. The
//! shuffles and samplers declare their cases in their own files (`SHUFFLE_CHECKS`,
//! `SAMPLER_CHECKS`).
//!
//! Each expectation comes from the catalogue (`expected_at(n)`, `GeneratorSpec::expected`),
//! not from this file, so the suite checks the catalogue's claims. Trials are chosen from
//! the exact samples-needed figures (`shuffle-audit exact ALG --n N`: the trials at which
//! the permutation test catches the bias at α = 1e-6 with 99 % power), taken at least ten
//! times over so that a biased case fails by a wide margin, and, for fair ones, with
//! plenty of expected counts per χ² cell (at least ~20; sparse cells inflate χ² tails).
//! The comment beside each case gives its figure; what was measured at these seeds is in
//! README.md ("Gate a build: `check`").

use super::config::{algorithm_case_name, generator_case_name};
use super::{Case, CaseKind};
use crate::catalogue::generators::GeneratorSpec;
use crate::catalogue::items::Items;
use crate::catalogue::{AlgorithmSpec, SAMPLER_CHECKS, SHUFFLE_CHECKS};

/// Unequal weights, for the generators whose bias (or fairness) depends on them.
const WEIGHTED_ITEMS: &str = "A:50,B:25,C:20,D:5";

/// The default suite.
pub fn default_suite() -> Vec<Case> {
    // The shuffles' cases are in their own files (`Shuffle::CHECKS`), each with why its
    // size and count; they run in the order of their seeds, the order they were added in.
    let mut shuffles: Vec<_> = SHUFFLE_CHECKS.iter().collect();
    shuffles.sort_by_key(|case| case.seed);
    let shuffles = shuffles
        .into_iter()
        .map(|case| (case.name, case.n, None, case.trials, case.seed));
    // The samplers' likewise (`Sampler::CHECKS`).
    let mut samplers: Vec<_> = SAMPLER_CHECKS.iter().collect();
    samplers.sort_by_key(|case| case.seed);
    let samplers = samplers
        .into_iter()
        .map(|case| (case.name, case.n, Some(case.k), case.trials, case.seed));
    // (generator, items, length, streams, seed): 1 M draws each unless said otherwise.
    let generators: &[(&str, &str, u64, u64, u64)] = &[
        ("iid", WEIGHTED_ITEMS, 10_000, 100, 21),
        ("if-else", WEIGHTED_ITEMS, 10_000, 100, 22),
        ("refill-list", WEIGHTED_ITEMS, 10_000, 100, 23),
        ("shuffle-bag", WEIGHTED_ITEMS, 10_000, 100, 24),
        // Biased: the cursor slot is never dealt; exact (--items 4): 31 cycles needed.
        ("shuffle-bag-csharp", WEIGHTED_ITEMS, 10_000, 100, 25),
        ("tetris-7-bag", "7", 10_000, 100, 26),
        // Biased for unequal weights (the weights are pulled towards equal).
        ("unrandomness", WEIGHTED_ITEMS, 10_000, 100, 27),
        ("double-bag-half", WEIGHTED_ITEMS, 10_000, 100, 28),
        // Biased: V, K, J, X, Q and Z (weights below 1) get no copies at all.
        ("boggle-truncated", "boggle", 10_000, 100, 29),
        // Fair: whole copies in the intended proportions.
        ("boggle-rounded", "boggle", 10_000, 100, 30),
    ];
    let algorithms = shuffles.chain(samplers);
    let algorithm_cases = algorithms.map(|(name, n, k, trials, seed)| {
        let spec = AlgorithmSpec::parse(name).expect("the default suite names catalogue algorithms");
        Case {
            name: algorithm_case_name(&spec, n, k),
            kind: CaseKind::Algorithm { spec, n, k, trials },
            seed,
            expect: spec.expected_at(n),
            source: None,
            allow_underpowered: false,
        }
    });
    let generator_cases = generators.iter().map(|&(name, items, length, streams, seed)| {
        let spec = GeneratorSpec::parse(name).expect("the default suite names catalogue generators");
        let items = Items::parse(items).expect("the default suite's items parse");
        Case {
            name: generator_case_name(&spec, &items),
            expect: spec.expected(&items),
            kind: CaseKind::Generator {
                spec,
                items,
                length,
                streams,
            },
            seed,
            source: None,
            allow_underpowered: false,
        }
    });
    algorithm_cases.chain(generator_cases).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::entries;
    use crate::catalogue::generators::GENERATORS;
    use crate::catalogue::{Expectation, Kind};

    #[test]
    fn covers_every_catalogue_entry_fair_and_biased() {
        let suite = default_suite();
        for entry in entries() {
            assert!(
                suite.iter().any(|case| matches!(&case.kind,
                    CaseKind::Algorithm { spec, .. } if spec.entry.name == entry.name)),
                "{} is not in the default suite",
                entry.name
            );
        }
        for entry in GENERATORS {
            assert!(
                suite.iter().any(|case| matches!(&case.kind,
                    CaseKind::Generator { spec, .. } if spec.entry.name == entry.name)),
                "{} is not in the default suite",
                entry.name
            );
        }
        // Every entry the catalogue calls biased is run where its bias shows.
        for case in &suite {
            if let CaseKind::Algorithm { spec, n, .. } = &case.kind
                && spec.entry.biased_from.is_some()
            {
                assert_eq!(case.expect, Expectation::Biased, "{}", case.name);
                assert!(spec.kind() == Kind::Sampler || *n >= spec.entry.biased_from.unwrap());
            }
        }
        let names: std::collections::HashSet<&str> = suite.iter().map(|case| case.name.as_str()).collect();
        assert_eq!(names.len(), suite.len(), "case names are unique");
        let seeds: std::collections::HashSet<u64> = suite.iter().map(|case| case.seed).collect();
        assert_eq!(seeds.len(), suite.len(), "case seeds are unique");
    }
}
