//! The default suite of `check` (no `--config`): every catalogue shuffle, sampler and
//! stream generator, at a size where its known bias shows, with fixed seeds.
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
use crate::catalogue::AlgorithmSpec;
use crate::catalogue::generators::GeneratorSpec;
use crate::catalogue::items::Items;

/// Unequal weights, for the generators whose bias (or fairness) depends on them.
const WEIGHTED_ITEMS: &str = "A:50,B:25,C:20,D:5";

/// The default suite.
pub fn default_suite() -> Vec<Case> {
    // (algorithm, n, k, trials, seed); why each size and count, beside it.
    let algorithms: &[(&str, usize, Option<usize>, u64, u64)] = &[
        // Biased from n = 3; exact: 5,222 shuffles needed at n = 3. 200,000 is 38x.
        ("naive-swap", 3, None, 200_000, 1),
        // Fair; 120 orders at n = 5: 1,667 expected per order.
        ("fisher-yates", 5, None, 200_000, 2),
        ("fisher-yates-forward", 5, None, 200_000, 3),
        // Biased (single cycles only); exact: 31 shuffles needed at n = 4. 20,000 is 645x.
        ("sattolo", 4, None, 20_000, 4),
        // Biased; exact: 31 shuffles needed at n = 4. 20,000 is 645x.
        ("roguelike-shuffle", 4, None, 20_000, 5),
        // Biased but slowly: one pass more than the naive swap. exact: 1,890,416 shuffles
        // needed at n = 4 (naive-repeated:n is not detectable at useful sizes). 20 M is 10.6x.
        ("naive-repeated:2", 4, None, 20_000_000, 6),
        // Fair; 1,667 expected per order at n = 5.
        ("sort-random-key", 5, None, 200_000, 7),
        // Biased by key ties (3 pairs in 256 at n = 3); exact: 1,408,078 shuffles needed at
        // n = 3 (n = 4 has 2^32 paths, too many to enumerate). 15 M is 10.7x.
        ("sort-random-key-u8", 3, None, 15_000_000, 8),
        // Biased; exact: 165 shuffles needed at n = 4. 20,000 is 121x.
        ("sort-comparator-insertion", 4, None, 20_000, 9),
        // Biased; exact: 721 shuffles needed at n = 4. 20,000 is 28x.
        ("sort-comparator-merge", 4, None, 20_000, 10),
        // Fair; 1,667 expected per order at n = 5.
        ("insert-with-retry", 5, None, 200_000, 11),
        // Biased (one riffle is far from random); exact: 26 shuffles needed at n = 4.
        ("riffle", 4, None, 20_000, 12),
        // Biased (naive swap that never targets the last card); exact: 258 shuffles
        // needed at n = 4. 20,000 is 78x.
        ("asf-poker", 4, None, 20_000, 17),
        // Biased, if barely: seven GSR riffles (Bayer & Diaconis's seven) still favour
        // orders with few rising sequences. The permutation test needs 198,901 shuffles
        // at n = 5 (its noncentrality from the closed-form law of `exact::riffles`, by
        // `stats::power`). 2 M is 10.1x; measured p = 1e-248.
        ("riffles", 5, None, 2_000_000, 18),
        // Biased (one overhand shuffle reaches 8 of the 24 orders); exact: 46 shuffles
        // needed at n = 4. 20,000 is 435x.
        ("overhand", 4, None, 20_000, 19),
        // Biased through its order: each deal alone is all but uniform (permutations
        // adjusted p 0.85 here), but each follows from the one before (3 riffles of the
        // previous deck): the serial tests fail it at p < 1e-300 with 20,000 deals.
        ("dealer-riffles", 5, None, 20_000, 20),
        // Biased (one pass of Diaconis, Fulman & Holmes's 10-shelf machine); exact: 228,801
        // shuffles needed at n = 5 (3.2 M paths). 2.5 M is 10.9x.
        ("shelf:10", 5, None, 2_500_000, 31),
        // Biased (two passes of a 2-shelf machine: two passes of 10 shelves need about
        // 2e11 shuffles at n = 3, and n = 4 has 2.6e10 paths to walk); exact: 184,525
        // shuffles needed at n = 4. 2 M is 10.8x.
        ("shelf-passes:2,2", 4, None, 2_000_000, 32),
        // Fair; C(6, 3) = 20 subsets: 5,000 expected per subset.
        ("bag-pick", 6, Some(3), 100_000, 13),
        // Biased for any k; exact: 5 samples needed at n = 6, k = 3. 10,000 is 2,000x.
        ("bag-pick-c", 6, Some(3), 10_000, 14),
        // Fair, in order too; 6!/3! = 120 ordered selections: 1,667 expected per cell.
        ("partial-fisher-yates", 6, Some(3), 200_000, 15),
        // Fair; 5,000 expected per subset.
        ("reservoir", 6, Some(3), 100_000, 16),
    ];
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
    let algorithm_cases = algorithms.iter().map(|&(name, n, k, trials, seed)| {
        let spec = AlgorithmSpec::parse(name).expect("the default suite names catalogue algorithms");
        Case {
            name: algorithm_case_name(&spec, n, k),
            kind: CaseKind::Algorithm { spec, n, k, trials },
            seed,
            expect: spec.entry.expected_at(n),
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
    }
}
