//! The walk itself: the odometer over the tree of draws, split over the first two draws
//! for the worker threads, with a budget that refuses an overlong path before it is
//! followed, and the exact sum of the leaves' fractions. Apart from the callers above it,
//! which only say what an experiment is and which cell its outcome falls in.

use super::*;

/// Walks every path of the experiment `make()` builds (one per worker), each run
/// returning the outcome's cell in `0..cells`, its draws answered by `law`.
pub(super) fn walk<E>(
    cells: usize,
    law: DrawLaw,
    max_paths: u64,
    make: impl Fn() -> E + Sync,
    progress: &dyn Progress,
) -> Result<ExactLaw>
where
    E: FnMut(&mut Replay) -> usize,
{
    let prefixes = split(&mut make(), law)?;
    let walked = AtomicU64::new(0);
    let budget = Budget {
        walked: &walked,
        max_paths,
    };
    // Each worker adds its parts into one table (10! cells of 16 bytes for 10 cards):
    // a table per part would allocate and clear one for each of up to 4096 parts.
    let counts = prefixes
        .par_iter()
        .try_fold(Counts::default, |counts, prefix| {
            walk_from(prefix, &mut make(), counts, cells, law, &budget, progress)
        })
        .try_reduce(Counts::default, |a, b| Ok(a.merge(b)))?;
    combine(counts, law)
}

/// The possible answers of a draw from `0..bound` under `law`, in order.
fn answers(law: DrawLaw, bound: u64) -> impl Iterator<Item = u64> {
    std::iter::successors(Some(0), move |&answer| law.next_answer(answer, bound))
}

/// The prefixes that split the walk into parts: every answer to the first draw, and to
/// the second as well while that makes at most [`MOST_PARTS`] parts.
fn split<E: FnMut(&mut Replay) -> usize>(experiment: &mut E, law: DrawLaw) -> Result<Vec<Vec<u64>>> {
    let mut prefixes = vec![Vec::new()];
    for level in 0..2 {
        let bounds = prefixes
            .iter()
            .map(|prefix| Ok(run(experiment, prefix, law)?.1.get(level).copied()))
            .collect::<Result<Vec<Option<u64>>>>()?;
        // A path that ends before the level is a part of its own.
        let parts: u64 = bounds
            .iter()
            .map(|bound| bound.map_or(1, |bound| answers(law, bound).count() as u64))
            .sum();
        if level > 0 && parts > MOST_PARTS {
            break;
        }
        prefixes = prefixes
            .into_iter()
            .zip(bounds)
            .flat_map(|(prefix, bound)| match bound {
                Some(bound) => answers(law, bound)
                    .map(|answer| {
                        let mut longer = prefix.clone();
                        longer.push(answer);
                        longer
                    })
                    .collect(),
                None => vec![prefix],
            })
            .collect();
    }
    Ok(prefixes)
}

/// Runs `experiment` on `answers` (extended with zeros): its outcome and the bounds asked.
fn run<E: FnMut(&mut Replay) -> usize>(
    experiment: &mut E,
    answers: &[u64],
    law: DrawLaw,
) -> Result<(usize, Vec<u64>)> {
    let mut replay = Replay {
        answers: answers.to_vec(),
        ..Replay::default()
    };
    let outcome = experiment(&mut replay);
    match replay.unenumerable {
        Some(reason) => Err(refused(reason, law)),
        None => Ok((outcome, replay.bounds)),
    }
}

/// Every leaf below `prefix`, depth first, added to `counts`.
fn walk_from<E: FnMut(&mut Replay) -> usize>(
    prefix: &[u64],
    experiment: &mut E,
    mut counts: Counts,
    cells: usize,
    law: DrawLaw,
    budget: &Budget<'_>,
    progress: &dyn Progress,
) -> Result<Counts> {
    const REPORT_EVERY: u64 = 1 << 12;
    let mut replay = Replay {
        answers: prefix.to_vec(),
        ..Replay::default()
    };
    let mut unreported = 0;
    loop {
        replay.bounds.clear();
        let outcome = experiment(&mut replay);
        if let Some(reason) = replay.unenumerable {
            return Err(refused(reason, law));
        }
        let depth = replay.bounds.len();
        replay.answers.truncate(depth);
        counts.add(path_probability(&replay, law)?, outcome, cells);
        unreported += 1;
        if unreported == REPORT_EVERY {
            budget.spend(unreported)?;
            progress.advance(unreported);
            unreported = 0;
            if progress.cancelled() {
                return Err(Error::Cancelled);
            }
        }
        // The odometer: raise the deepest answer that can still grow, drop what follows.
        loop {
            if replay.answers.len() <= prefix.len() {
                budget.spend(unreported)?;
                progress.advance(unreported);
                return Ok(counts);
            }
            let last = replay.answers.len() - 1;
            if let Some(next) = law.next_answer(replay.answers[last], replay.bounds[last]) {
                replay.answers[last] = next;
                break;
            }
            replay.answers.pop();
            replay.bounds.pop();
        }
    }
}

/// The paths all parts of a walk may take together: an algorithm whose paths are not
/// known in advance is given up on as soon as they pass the limit, in every part at once.
struct Budget<'a> {
    walked: &'a AtomicU64,
    max_paths: u64,
}

impl Budget<'_> {
    fn spend(&self, paths: u64) -> Result<()> {
        let walked = self.walked.fetch_add(paths, Ordering::Relaxed) + paths;
        if walked > self.max_paths {
            return Err(Error::Usage(format!(
                "cannot enumerate this algorithm here: it has more than {} random paths",
                self.max_paths
            )));
        }
        Ok(())
    }
}

/// The probability of the path `replay` took, as `(numerator, denominator)`: the product
/// of its answers' probabilities, each a fraction whose denominator depends on its bound
/// alone ([`DrawLaw::fraction`]), so that paths share few denominators.
fn path_probability(replay: &Replay, law: DrawLaw) -> Result<(u128, u128)> {
    let product = match law {
        // The default source, on every path of the walk: 1 over the product of the bounds.
        // In 64 bits while it fits (every path of a 9-card naive swap: 9^9), which is a
        // multiply a bound; in 128 beyond.
        DrawLaw::Uniform => match replay
            .bounds
            .iter()
            .try_fold(1u64, |d, &bound| d.checked_mul(bound))
        {
            Some(denominator) => Some(u128::from(denominator)),
            None => replay
                .bounds
                .iter()
                .try_fold(1u128, |d, &bound| d.checked_mul(u128::from(bound))),
        }
        .map(|denominator| (1, denominator)),
        _ => replay.answers.iter().zip(&replay.bounds).try_fold(
            (1u128, 1u128),
            |(numerator, denominator), (&answer, &bound)| {
                let (p, q) = law.fraction(answer, bound);
                Some((numerator.checked_mul(p)?, denominator.checked_mul(q)?))
            },
        ),
    };
    product.ok_or_else(|| overflow("a path's probability", law))
}

/// Puts the sums of every denominator over their least common multiple.
fn combine(counts: Counts, law: DrawLaw) -> Result<ExactLaw> {
    let unit_paths = counts.unit_paths.iter().map(|(d, cells)| {
        (
            *d,
            cells.iter().map(|&count| u128::from(count)).collect::<Vec<_>>(),
        )
    });
    let tables: Vec<(u128, Vec<u128>)> = counts.by_denominator.into_iter().chain(unit_paths).collect();
    let denominator = tables
        .iter()
        .try_fold(1u128, |l, &(d, _)| lcm(l, d))
        .ok_or_else(|| overflow("the common denominator", law))?;
    let cells = tables.first().map_or(0, |(_, c)| c.len());
    let mut numerators = vec![0u128; cells];
    for (d, cell_counts) in &tables {
        let scale = denominator / d;
        for (numerator, &sum) in numerators.iter_mut().zip(cell_counts) {
            *numerator = sum
                .checked_mul(scale)
                .and_then(|term| numerator.checked_add(term))
                .ok_or_else(|| overflow("a probability's numerator", law))?;
        }
    }
    Ok(ExactLaw {
        paths: counts.paths,
        denominator,
        numerators,
    })
}

fn overflow(what: &str, law: DrawLaw) -> Error {
    let hint = match law.denominator_bits() {
        Some(bits) => format!(
            " (under this source one draw's probability is a fraction over as much as 2^{bits}, \
             and 128 bits are sure to hold only {} of those; try fewer cards, or --positions \
             for the exact position matrix)",
            127 / bits
        ),
        None => String::new(),
    };
    Error::Usage(format!(
        "cannot enumerate this algorithm exactly: {what} does not fit in 128 bits{hint}"
    ))
}

pub(super) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u128, b: u128) -> Option<u128> {
    (a / gcd(a, b)).checked_mul(b)
}
