//! The exact law of a swap shuffle under the default source, walked by swapping.
//!
//! Why: the general walk ([`super::paths`]) reruns the shuffle from a fresh deck on every
//! path, replaying a list of answers: 387 million shuffles of 9 draws for a 9-card naive
//! swap, each also multiplying its bounds for the path's probability. A swap shuffle's
//! bounds are fixed by the deck size, every answer is one swap, and under the default
//! source every path has the same probability, `1 / Π bounds`. So the tree of draws is
//! walked depth first on one deck, each answer's swap made on the way down and undone on
//! the way up: a leaf costs its last swap, the rank of the deck and one count. The law is
//! the general walk's, cell for cell (a test compares the two for every swap shuffle on
//! up to 7 cards).
//!
//! The walk is split over the answers to the first two draws, as the general one is, and
//! each worker adds its parts into one table of `n!` counts: integers, so the result
//! does not depend on the thread count.

use super::*;
use crate::catalogue::shuffle::SwapShuffle;

/// Every path of `shuffle` on `n` cards (`cells` = `n!`), with each path's probability
/// `1 / Π bounds`; `None` for more paths than a table of `u32` counts holds (the caller
/// then walks the general way). The caller has checked that the paths are at most its
/// budget.
pub(super) fn walk_swaps(
    shuffle: SwapShuffle,
    n: usize,
    cells: usize,
    progress: &dyn Progress,
) -> Option<Result<ExactLaw>> {
    let table = shuffle.swap_table(n);
    let paths: u64 = table.iter().map(|answers| answers.len() as u64).product();
    if paths > u64::from(u32::MAX) {
        return None;
    }
    macro_rules! sized {
        ($($size:literal)*) => {
            match n {
                $($size => walk_sized::<$size>(&table, cells, progress),)*
                _ => return None,
            }
        };
    }
    let counts = match sized!(0 1 2 3 4 5 6 7 8 9 10) {
        Ok(counts) => counts,
        Err(error) => return Some(Err(error)),
    };
    Some(Ok(ExactLaw {
        paths,
        denominator: u128::from(paths),
        numerators: counts.into_iter().map(u128::from).collect(),
    }))
}

/// The walk on decks of exactly `N` cards: the deck an array, its rank unrolled. The
/// counts are `u32`: at most [`MAX_PATHS`] paths, and a 9-card table of them (9! cells
/// per worker, read at random) takes half the cache `u64`s did.
fn walk_sized<const N: usize>(
    table: &[Vec<(usize, usize)>],
    cells: usize,
    progress: &dyn Progress,
) -> Result<Vec<u32>> {
    // The parts: every answer to the first draw, and to the second while there are
    // [`MOST_PARTS`] at most, as for the general walk.
    let split_depth = match table {
        [] => 0,
        [_] => 1,
        [first, second, ..] if (first.len() * second.len()) as u64 <= MOST_PARTS => 2,
        _ => 1,
    };
    let mut prefixes: Vec<Vec<usize>> = vec![Vec::new()];
    for answers in &table[..split_depth] {
        prefixes = prefixes
            .into_iter()
            .flat_map(|prefix| {
                (0..answers.len()).map(move |answer| {
                    let mut longer = prefix.clone();
                    longer.push(answer);
                    longer
                })
            })
            .collect();
    }
    prefixes
        .par_iter()
        .try_fold(
            || vec![0u32; cells],
            |mut counts, prefix| {
                if progress.cancelled() {
                    return Err(Error::Cancelled);
                }
                let mut deck: [u16; N] = std::array::from_fn(|card| card as u16);
                for (answers, &answer) in table.iter().zip(prefix) {
                    let (a, b) = answers[answer];
                    deck.swap(a, b);
                }
                let leaves = descend(&table[prefix.len()..], &mut deck, &mut counts);
                progress.advance(leaves);
                Ok(counts)
            },
        )
        .try_reduce(
            || vec![0u32; cells],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, &y)| *x += y);
                Ok(a)
            },
        )
}

/// Every path below the deck as it stands, through the draws `steps` left: each leaf's
/// order counted in `counts`. Returns the leaves counted.
fn descend<const N: usize>(steps: &[Vec<(usize, usize)>], deck: &mut [u16; N], counts: &mut [u32]) -> u64 {
    match steps {
        [] => {
            counts[rank_of(deck)] += 1;
            1
        }
        [last] => {
            for &(a, b) in last {
                deck.swap(a, b);
                counts[rank_of(deck)] += 1;
                deck.swap(a, b);
            }
            last.len() as u64
        }
        [step, rest @ ..] => {
            let mut leaves = 0;
            for &(a, b) in step {
                deck.swap(a, b);
                leaves += descend(rest, deck, counts);
                deck.swap(a, b);
            }
            leaves
        }
    }
}

/// [`rank`] of a deck of `N` cards, unrolled: each card's count of smaller cards after it,
/// weighted by the factorial of the places after it, so the digits are added side by
/// side rather than folded one into the next.
#[inline(always)]
fn rank_of<const N: usize>(deck: &[u16; N]) -> usize {
    const fn weights<const N: usize>() -> [usize; N] {
        let mut weights = [1usize; N];
        let mut i = N;
        while i > 1 {
            i -= 1;
            weights[i - 1] = weights[i] * (N - i);
        }
        weights
    }
    let weights = const { weights::<N>() };
    let mut rank = 0;
    for i in 0..N {
        let smaller = deck[i + 1..].iter().filter(|&&later| later < deck[i]).count();
        rank += smaller * weights[i];
    }
    rank
}
