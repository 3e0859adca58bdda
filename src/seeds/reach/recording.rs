//! What `seeds reach` does with each dealt deck: set its bit (up to 12 cards), or offer
//! it to the distinct sample and compare it with a few fixed candidate orders (beyond).
//!
//! Both recorders are shared by the worker threads, each of which keeps a little state
//! of its own ([`DealRecorder::Worker`]) and hands it back at the end. Everything they
//! record combines by union, so the result is the same for any number of threads.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::catalogue::fisher_yates;
use crate::randomness::XoshiroSource;

use super::distinct::{DistinctCount, DistinctSample, Fingerprint, check_hash, highest_kept, sampling_hash};
use super::order_bitset::OrderBitset;
use crate::tally::lehmer::rank;

/// Receives every deck dealt.
pub(super) trait DealRecorder: Sync {
    /// A worker thread's own state.
    type Worker: Send;
    /// A fresh worker state.
    fn worker(&self) -> Self::Worker;
    /// A batch of dealt decks of `n` cards, one after the other in `decks`.
    fn record(&self, worker: &mut Self::Worker, decks: &[u16], n: usize);
    /// A worker's state, when its thread has dealt its last deck.
    fn finish_worker(&self, worker: Self::Worker);
}

impl DealRecorder for OrderBitset {
    /// The batch's ranks, and the word of each as first read.
    type Worker = (Vec<usize>, Vec<u64>);

    fn worker(&self) -> Self::Worker {
        (Vec::new(), Vec::new())
    }

    /// Three passes: the ranks, then a read of each rank's word, then the bits set. The
    /// reads are a tight loop of independent loads, so the processor keeps many of their
    /// cache misses (the bitset is far larger than the caches) in flight at once, where
    /// reads interleaved with the long rank computation would wait one by one. A bit is
    /// then set only where its word showed it clear, the line already in cache.
    #[inline]
    fn record(&self, (ranks, words): &mut Self::Worker, decks: &[u16], n: usize) {
        ranks.clear();
        ranks.extend(decks.chunks_exact(n).map(rank));
        words.clear();
        words.extend(ranks.iter().map(|&rank| self.word_of(rank)));
        for (&rank, &word) in ranks.iter().zip(words.iter()) {
            self.insert_rank(rank, word);
        }
    }

    fn finish_worker(&self, _: Self::Worker) {}
}

/// How many fingerprints a worker collects before it takes the sample's lock.
const FLUSH_EVERY: usize = 4096;

/// The distinct sample, shared, and the candidate orders, for decks beyond the bitset.
pub(super) struct SampledOrders {
    sample: Mutex<DistinctSample>,
    /// The sample's level as last published, so that workers drop what it would drop
    /// without taking the lock (a stale, lower level only lets more through).
    level: AtomicU32,
    candidates: Vec<Candidate>,
    dealt: Mutex<Vec<bool>>,
}

/// A fixed order checked against every deal.
pub(super) struct Candidate {
    pub name: String,
    pub order: Vec<u16>,
    sampling: u64,
}

/// A worker's fingerprints not yet absorbed, and the candidates it has dealt.
pub(super) struct SampledWorker {
    pending: Vec<Fingerprint>,
    highest_kept: u64,
    dealt: Vec<bool>,
}

impl SampledOrders {
    /// An empty sample of at most `capacity` orders, with the candidate orders of `n`
    /// cards.
    pub(super) fn new(n: usize, capacity: usize) -> Self {
        let candidates = candidate_orders(n);
        Self {
            sample: Mutex::new(DistinctSample::new(capacity)),
            level: AtomicU32::new(0),
            dealt: Mutex::new(vec![false; candidates.len()]),
            candidates,
        }
    }

    /// Absorbs a worker's pending fingerprints and tells it the level now.
    fn flush(&self, worker: &mut SampledWorker) {
        let mut sample = unpoisoned(self.sample.lock());
        sample.absorb(worker.pending.drain(..));
        self.level.store(sample.level(), Ordering::Relaxed);
        worker.highest_kept = highest_kept(sample.level());
    }

    /// The distinct count, and each candidate with whether some seed dealt it.
    pub(super) fn finish(self) -> (DistinctCount, Vec<(Candidate, bool)>) {
        let count = unpoisoned(self.sample.into_inner()).finish();
        let dealt = unpoisoned(self.dealt.into_inner());
        (count, self.candidates.into_iter().zip(dealt).collect())
    }
}

impl DealRecorder for SampledOrders {
    type Worker = SampledWorker;

    fn worker(&self) -> SampledWorker {
        SampledWorker {
            pending: Vec::with_capacity(FLUSH_EVERY),
            highest_kept: highest_kept(self.level.load(Ordering::Relaxed)),
            dealt: vec![false; self.candidates.len()],
        }
    }

    #[inline]
    fn record(&self, worker: &mut SampledWorker, decks: &[u16], n: usize) {
        for deck in decks.chunks_exact(n) {
            self.record_one(worker, deck);
        }
    }

    fn finish_worker(&self, mut worker: SampledWorker) {
        self.flush(&mut worker);
        let mut dealt = unpoisoned(self.dealt.lock());
        for (total, mine) in dealt.iter_mut().zip(worker.dealt) {
            *total |= mine;
        }
    }
}

impl SampledOrders {
    #[inline]
    fn record_one(&self, worker: &mut SampledWorker, deck: &[u16]) {
        let sampling = sampling_hash(deck);
        if sampling <= worker.highest_kept {
            worker.pending.push(Fingerprint {
                sampling,
                check: check_hash(deck),
            });
            if worker.pending.len() == FLUSH_EVERY {
                self.flush(worker);
            }
        }
        for (candidate, dealt) in self.candidates.iter().zip(&mut worker.dealt) {
            if sampling == candidate.sampling && deck == candidate.order.as_slice() {
                *dealt = true;
            }
        }
    }
}

/// A lock's value even if a thread panicked holding it (a panic ends the run anyway).
fn unpoisoned<T>(result: Result<T, std::sync::PoisonError<T>>) -> T {
    result.unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The orders every deal is compared with: the deck as it started, reversed, and four
/// orders shuffled by Fisher–Yates from fixed Xoshiro seeds (the same on every run).
fn candidate_orders(n: usize) -> Vec<Candidate> {
    let identity: Vec<u16> = (0..n as u16).collect();
    let reversed: Vec<u16> = identity.iter().rev().copied().collect();
    let mut candidates = vec![
        ("identity".to_string(), identity.clone()),
        ("reversed".to_string(), reversed),
    ];
    for index in 1..=4u64 {
        let mut order = identity.clone();
        fisher_yates(&mut order, &mut XoshiroSource::from_seed(CANDIDATE_SEED + index));
        candidates.push((format!("pseudo-random {index}"), order));
    }
    candidates
        .into_iter()
        .map(|(name, order)| Candidate {
            name,
            sampling: sampling_hash(&order),
            order,
        })
        .collect()
}

/// The seeds of the pseudo-random candidates: `CANDIDATE_SEED + 1` to `+ 4`.
const CANDIDATE_SEED: u64 = 0x5EED_0000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_distinct_permutations_and_fixed() {
        let candidates = candidate_orders(13);
        assert_eq!(candidates.len(), 6);
        for (i, candidate) in candidates.iter().enumerate() {
            let mut sorted = candidate.order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..13).collect::<Vec<u16>>());
            assert!(candidates[..i].iter().all(|other| other.order != candidate.order));
        }
        assert_eq!(candidates[1].order[0], 12);
        let again = candidate_orders(13);
        assert!(candidates.iter().zip(&again).all(|(a, b)| a.order == b.order));
    }

    #[test]
    fn workers_flush_into_one_sample_and_report_dealt_candidates() {
        let recorder = SampledOrders::new(13, 1 << 10);
        let identity: Vec<u16> = (0..13).collect();
        let mut shifted = identity.clone();
        shifted.rotate_left(1);
        let mut one = recorder.worker();
        let mut two = recorder.worker();
        for _ in 0..3 {
            recorder.record(&mut one, &identity, 13);
            recorder.record(&mut two, &[shifted.clone(), shifted.clone()].concat(), 13);
        }
        recorder.finish_worker(one);
        recorder.finish_worker(two);
        let (count, candidates) = recorder.finish();
        assert_eq!(count.kept, 2);
        assert!(count.is_exact());
        let dealt: Vec<(&str, bool)> = candidates
            .iter()
            .map(|(candidate, dealt)| (candidate.name.as_str(), *dealt))
            .collect();
        assert_eq!(dealt[0], ("identity", true));
        assert!(dealt[1..].iter().all(|(_, dealt)| !dealt));
    }
}
