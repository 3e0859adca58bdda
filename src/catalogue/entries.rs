//! The samplers' entries, one record per algorithm with its summary, the text it comes
//! from and the size from which it is biased, and every entry of both families. The
//! shuffles' entries are in their own files, listed by the registry (`shuffles.rs`).

use super::*;

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
