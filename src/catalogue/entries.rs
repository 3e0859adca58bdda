//! The catalogue's entries: one record per algorithm, with its summary, the text it comes
//! from and the deck size from which it is biased. Kept apart from the algorithms' code
//! because it is read as a table (by `list`, the docs and the tests that check each
//! verdict), and kept as one list so that nothing can drift between two.

use super::*;

/// Every shuffle in the catalogue, in the order `list` prints them.
pub const SHUFFLES: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "naive-swap",
        summary: "for each i, swap a[i] with a[random(n)]",
        origin: "texts 001 (SimpleListShuffle) and 004 (the first listing)",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveSwap),
    },
    CatalogueEntry {
        name: "fisher-yates",
        summary: "Durstenfeld's Fisher-Yates: from the end, swap a[i] with a[random(i+1)]",
        origin: "texts 001 (ListShuffle) and 004 (Knuth-Fisher-Yates)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYates),
    },
    CatalogueEntry {
        name: "fisher-yates-forward",
        summary: "Fisher-Yates from the front: swap a[i] with a[i + random(n-i)]",
        origin: "text 004's comments (knuth1)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYatesForward),
    },
    CatalogueEntry {
        name: "sattolo",
        summary: "from the end, swap a[i] with a[random(i)]: the exclusive-bound off-by-one",
        origin: "text 003 (the shuffle bag's random.Next(position))",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Sattolo),
    },
    CatalogueEntry {
        name: "roguelike-shuffle",
        summary: "text 002's SHUFFLE as printed: swap a[f] with a[random(f)], random(0) = 0",
        origin: "text 002 (SHUFFLE pseudocode and C code)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::RoguelikeShuffle),
    },
    CatalogueEntry {
        name: "naive-repeated",
        summary: "the naive swap pass repeated K times",
        origin: "text 004's comments (\"shuffle more\")",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of naive passes",
            default: "n",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: None }),
    },
    CatalogueEntry {
        name: "sort-random-key",
        summary: "stable sort by a random f64 key per card",
        origin: "text 004's comments (sort_by { rand })",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKey),
    },
    CatalogueEntry {
        name: "sort-random-key-u8",
        summary: "stable sort by a random 8-bit key per card; ties keep the original order",
        origin: "text 004's comments (sort by random number, with small keys)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKeyU8),
    },
    CatalogueEntry {
        name: "sort-comparator-insertion",
        summary: "insertion sort with a comparator that returns a fair coin",
        origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorInsertion),
    },
    CatalogueEntry {
        name: "sort-comparator-merge",
        summary: "top-down merge sort with a comparator that returns a fair coin",
        origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorMerge),
    },
    CatalogueEntry {
        name: "insert-with-retry",
        summary: "put each card at a random index of a new array, drawing again if taken",
        origin: "text 004's comments (insert into a random array index)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::InsertWithRetry),
    },
    CatalogueEntry {
        name: "riffle",
        summary: "one riffle: split in half, merge taking from a half chosen by a coin",
        origin: "text 004's comments (split into two lists and merge at random)",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffle),
    },
    CatalogueEntry {
        name: "asf-poker",
        summary: "the 1999 online-poker shuffle: for each i, swap a[i] with a[random(n-1)] (card n never a target)",
        origin: "text 001 (the online-poker case) and text 004's comments (the link to it)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::AsfPoker),
    },
    CatalogueEntry {
        name: "riffles",
        summary: "K Gilbert-Shannon-Reeds riffles: a binomial cut, then cards dropped from the packets in proportion to their sizes",
        origin: "Gilbert (1955), Reeds (1981); Bayer & Diaconis, \"Trailing the dovetail shuffle to its lair\", Ann. Appl. Probab. 2 (1992) 294-313 (seven riffles for 52 cards)",
        biased_from: Some(2),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of riffles, 1 to 64",
            default: "7",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffles { times: 7 }),
    },
    CatalogueEntry {
        name: "dealer-riffles",
        summary: "a dealer who riffles the previous deal's deck K times (GSR) and deals it: each deal depends on the last",
        origin: "the card-room habit of riffling the last hand's cards a few times (\"most people shuffle cards three or four times\": Diaconis in G. Kolata, New York Times, 9 Jan 1990); riffles as in Bayer & Diaconis (1992)",
        biased_from: Some(2),
        parameter: Some(Parameter {
            name: "K",
            meaning: "riffles per deal, 1 to 64",
            default: "3",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::DealerRiffles { times: 3 }),
    },
    CatalogueEntry {
        name: "overhand",
        summary: "K overhand shuffles in Pemantle's model: each gap between cards a cut with probability 1/2, each packet reversed",
        origin: "R. Pemantle, \"An analysis of overhand shuffles\", J. Theoret. Probab. 2 (1989) 37-49, as stated by J. Jonasson, Ann. Appl. Probab. 16 (2006) 231-243 (n^2 log n shuffles needed)",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of overhand shuffles",
            default: "1",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Overhand { times: 1 }),
    },
    CatalogueEntry {
        name: "shelf",
        summary: "one pass of a casino shelf shuffler: each card, fed from the bottom, goes on top of or under the pile of a random one of S shelves; the piles are stacked",
        origin: "P. Diaconis, J. Fulman & S. Holmes, \"Analysis of casino shelf shuffling machines\", Ann. Appl. Probab. 23(4) (2013) 1692-1720 (10 shelves tested: about 9.5 of 52 cards guessed)",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "S",
            meaning: "number of shelves, 1 to 1000",
            default: "10",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Shelf {
            shelves: 10,
            passes: 1,
        }),
    },
    CatalogueEntry {
        name: "shelf-passes",
        summary: "P passes of the shelf shuffler with S shelves (the manufacturer's remedy: two passes)",
        origin: "P. Diaconis, J. Fulman & S. Holmes, \"Analysis of casino shelf shuffling machines\", Ann. Appl. Probab. 23(4) (2013) 1692-1720",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "S,P",
            meaning: "shelves (1 to 1000) and passes (1 to 64)",
            default: "10,2",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Shelf {
            shelves: 10,
            passes: 2,
        }),
    },
];

/// Every sampler in the catalogue, in the order `list` prints them.
pub const SAMPLERS: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "bag-pick",
        summary: "text 002's BAG-PICK: keep item i when random(items left) < picks left",
        origin: "text 002 (BAG-PICK pseudocode)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPick),
    },
    CatalogueEntry {
        name: "bag-pick-c",
        summary: "text 002's BagPick C code as printed: stores the picks left (x--), not the item (i)",
        origin: "text 002 (BagPick C code)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPickC),
    },
    CatalogueEntry {
        name: "partial-fisher-yates",
        summary: "the first k steps of Fisher-Yates from the end; the cards moved, in order",
        origin: "text 004's comments (\"run KFY for m steps and take the cards you've selected\")",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::PartialFisherYates),
    },
    CatalogueEntry {
        name: "reservoir",
        summary: "Algorithm R: keep items 0..k, then item i replaces slot random(i+1) if < k",
        origin: "Algorithm R (Vitter 1985; Knuth TAOCP 3.4.2), the streaming counterpart of text 002's BAG-PICK",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::Reservoir),
    },
];

/// Every entry of both families: shuffles first, then samplers.
pub fn entries() -> impl Iterator<Item = &'static CatalogueEntry> {
    SHUFFLES.iter().chain(SAMPLERS)
}
