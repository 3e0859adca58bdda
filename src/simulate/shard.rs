//! A shard: one machine's share of a run, so that a long run can be spread over a job
//! array and its tallies added up afterwards (`run --shard I/K`, then `merge`).
//!
//! Shard `I` of `K` (counted from 1, as `--shard=2/4` in jest or playwright) runs the
//! chunks `c` with `c % K == I - 1`, each seeded by `(seed, c)` exactly as in the whole
//! run. Every chunk belongs to exactly one shard and draws the same numbers there as it
//! would in the whole run, and tallies are sums of counts, so the shards' tallies add up
//! to the whole run's, bit for bit.
//!
//! Why every K-th chunk rather than K contiguous ranges: a shard's chunks are then a
//! formula of `(I, K)` alone (the `u`-th is `u·K + I − 1`), with no boundaries to round;
//! shards differ by at most one chunk; and only the shard holding the run's last chunk
//! (the one that may be partial) is short by the trials that chunk lacks.

use std::fmt;

use super::CHUNK_TRIALS;

/// One shard of a run: the `index`-th (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// Which shard, from 1 to `count`.
    pub index: u64,
    /// How many shards the run is cut into.
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, refused with a one-line reason unless
    /// `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Result<Self, String> {
        if count == 0 {
            Err(format!(
                "{index}/{count}: the number of shards must be at least 1"
            ))
        } else if index == 0 {
            Err(format!(
                "{index}/{count}: shards are numbered from 1 (1/{count} to {count}/{count})"
            ))
        } else if index > count {
            Err(format!(
                "{index}/{count}: there are only {count} shards (1/{count} to {count}/{count})"
            ))
        } else {
            Ok(Self { index, count })
        }
    }

    /// Parses `I/K`, e.g. `2/4`, the second of four shards.
    pub fn parse(text: &str) -> Result<Self, String> {
        let number = |part: &str| part.trim().parse::<u64>().ok();
        match text.split_once('/') {
            Some((index, count)) => match (number(index), number(count)) {
                (Some(index), Some(count)) => Self::new(index, count),
                _ => Err(format!(
                    "'{text}' is not I/K (e.g. 2/4, the second of four shards)"
                )),
            },
            None => Err(format!(
                "'{text}' is not I/K (e.g. 2/4, the second of four shards)"
            )),
        }
    }

    /// How many chunks of a run of `run_trials` trials this shard runs.
    pub fn chunk_count(&self, run_trials: u64) -> u64 {
        let chunks = run_trials.div_ceil(CHUNK_TRIALS);
        let first = self.index - 1;
        if chunks > first {
            (chunks - first).div_ceil(self.count)
        } else {
            0
        }
    }

    /// The run's chunk number of this shard's `unit`-th chunk (from 0).
    pub fn chunk(&self, unit: u64) -> u64 {
        unit * self.count + (self.index - 1)
    }

    /// How many of a run's `run_trials` trials this shard runs.
    pub fn trials(&self, run_trials: u64) -> u64 {
        let chunks = self.chunk_count(run_trials);
        if chunks == 0 {
            return 0;
        }
        let last = self.chunk(chunks - 1);
        // Every chunk is full but possibly the run's last one.
        (chunks - 1) * CHUNK_TRIALS + CHUNK_TRIALS.min(run_trials - last * CHUNK_TRIALS)
    }

    /// Whether this is the whole run (`1/1`).
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_accepts_i_of_k_and_refuses_the_rest_in_one_line() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        for (text, reason) in [
            ("0/4", "numbered from 1"),
            ("5/4", "only 4 shards"),
            ("1/0", "at least 1"),
            ("a/b", "is not I/K"),
            ("2", "is not I/K"),
            ("-1/4", "is not I/K"),
            ("2/4/8", "is not I/K"),
        ] {
            let message = Shard::parse(text).unwrap_err();
            assert!(message.contains(reason), "{text}: {message}");
            assert!(!message.contains('\n'));
        }
    }

    #[test]
    fn the_shards_share_out_every_chunk_and_every_trial_once() {
        for run_trials in [1, CHUNK_TRIALS, 3 * CHUNK_TRIALS + 5, 10 * CHUNK_TRIALS - 1] {
            let chunks = run_trials.div_ceil(CHUNK_TRIALS);
            for count in 1..=chunks {
                let mut seen = vec![0u32; chunks as usize];
                let mut trials = 0;
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let own = shard.chunk_count(run_trials);
                    assert!(own >= 1, "{shard} of {chunks} chunks");
                    for unit in 0..own {
                        seen[shard.chunk(unit) as usize] += 1;
                    }
                    trials += shard.trials(run_trials);
                }
                assert!(seen.iter().all(|&times| times == 1), "{count} shards: {seen:?}");
                assert_eq!(trials, run_trials, "{count} shards");
            }
        }
        // More shards than chunks leave the last ones empty.
        let shard = Shard::new(4, 4).unwrap();
        assert_eq!(
            (
                shard.chunk_count(3 * CHUNK_TRIALS),
                shard.trials(3 * CHUNK_TRIALS)
            ),
            (0, 0)
        );
        // Only the shard with the partial last chunk is short.
        let run_trials = 3 * CHUNK_TRIALS + 5;
        let trials: Vec<u64> = (1..=3)
            .map(|index| Shard::new(index, 3).unwrap().trials(run_trials))
            .collect();
        // Four chunks: shard 1 has chunks 0 and 3, the last of which holds 5 trials.
        assert_eq!(trials, [CHUNK_TRIALS + 5, CHUNK_TRIALS, CHUNK_TRIALS]);
    }
}
