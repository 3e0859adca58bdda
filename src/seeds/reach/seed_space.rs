//! Which seeds `seeds reach` enumerates, and why each source has the default it has.
//!
//! A seed here is the source's initial state as it is, not a value fed through a hash:
//! `srand(seed)` for `msvc-rand-mod`, `RandSeed := seed` for `delphi`, a clock reading
//! `seed` ms for `clock-reseed`, `seed_from_u64(seed)` for `xoshiro`. That is what makes
//! the count mean something: the seeds a program can start from are all the decks it can
//! deal.
//!
//! The default is the whole seed space where it can be enumerated: every 32-bit state of
//! the two 32-bit generators, and a day of milliseconds for `clock-reseed`, whose clock
//! never reads more. Xoshiro's 64-bit seed space cannot be walked, so it has no default.

#![allow(
    clippy::single_range_in_vec_init,
    reason = "a list of seed ranges, often of one range"
)]

use std::ops::Range;

use crate::error::{Error, Result};
use crate::format::group_thousands;
use crate::randomness::{MILLISECONDS_PER_DAY, SourceKind};

/// The most seeds one run may enumerate: 2^40, about 1.1 × 10^12.
///
/// The fastest cases measured (`scripts/bench_reach.sh`, two cores) deal about 30
/// million 12-card decks and 15 million 52-card decks a second, so 2^40 seeds already
/// take ten hours or more there; a larger count is a typo (`--seed-bits 64`) rather
/// than a plan, and is refused before it starts instead of running for weeks.
pub const MAX_SEEDS: u64 = 1 << 40;

/// The seeds of one run: one or more disjoint ranges, in increasing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSpace {
    ranges: Vec<Range<u64>>,
    origin: SeedSpaceOrigin,
}

/// How the seed space was chosen, for the report's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedSpaceOrigin {
    /// Every state of a 32-bit generator (the default for `msvc-rand-mod` and `delphi`).
    WholeState,
    /// Every millisecond of a day (the default for `clock-reseed`).
    DayOfMilliseconds,
    /// `--seed-bits B`: the seeds `0..2^B`.
    Bits(u32),
    /// `--seed-range A..B`, given once or more.
    Ranges,
}

impl SeedSpace {
    /// The seeds of `source` a run enumerates: `0..2^bits`, the `ranges` given, or by
    /// default the whole seed space. Refuses both at once, an empty or reversed range,
    /// overlapping ranges, seeds the source cannot start from, and more than
    /// [`MAX_SEEDS`] seeds.
    pub fn resolve(source: SourceKind, bits: Option<u32>, ranges: &[Range<u64>]) -> Result<Self> {
        let limit = SeedLimit::of(source);
        let (ranges, origin) = match (bits, ranges) {
            (Some(_), [_, ..]) => {
                return Err(Error::Usage(
                    "give --seed-bits or --seed-range, not both".to_string(),
                ));
            }
            (Some(bits), []) => (vec![0..limit.check_bits(bits)?], SeedSpaceOrigin::Bits(bits)),
            (None, []) => limit.default_space(source)?,
            (None, ranges) => (checked_ranges(ranges, &limit)?, SeedSpaceOrigin::Ranges),
        };
        let space = Self { ranges, origin };
        if space.count() > MAX_SEEDS {
            return Err(Error::BadOption {
                option: "--seed-range",
                problem: format!(
                    "covers {} seeds; at most 2^40 = {} are enumerated in one run (2^40 already \
                     take ten hours or more)",
                    group_thousands(space.count()),
                    group_thousands(MAX_SEEDS)
                ),
            });
        }
        Ok(space)
    }

    /// The ranges, disjoint and in increasing order.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// How it was chosen.
    pub fn origin(&self) -> SeedSpaceOrigin {
        self.origin
    }

    /// The number of seeds.
    pub fn count(&self) -> u64 {
        self.ranges.iter().map(|range| range.end - range.start).sum()
    }

    /// The options that select it again (nothing for the default).
    pub fn command_flags(&self) -> String {
        match self.origin {
            SeedSpaceOrigin::WholeState | SeedSpaceOrigin::DayOfMilliseconds => String::new(),
            SeedSpaceOrigin::Bits(bits) => format!(" --seed-bits {bits}"),
            SeedSpaceOrigin::Ranges => self
                .ranges
                .iter()
                .map(|range| format!(" --seed-range {}..{}", range.start, range.end))
                .collect(),
        }
    }

    /// The seeds of unit `unit` when every range is cut into units of `unit_seeds` seeds
    /// (the last unit of a range may be shorter); `units` are numbered across the ranges
    /// in order. Empty past the last unit.
    pub(crate) fn unit(&self, unit: u64, unit_seeds: u64) -> Range<u64> {
        let mut unit = unit;
        for range in &self.ranges {
            let units = (range.end - range.start).div_ceil(unit_seeds);
            if unit < units {
                let start = range.start + unit * unit_seeds;
                // Saturating: a unit within `unit_seeds` of 2^64 must not wrap round to 0.
                return start..range.end.min(start.saturating_add(unit_seeds));
            }
            unit -= units;
        }
        0..0
    }

    /// How many units of `unit_seeds` seeds [`SeedSpace::unit`] numbers.
    pub(crate) fn unit_count(&self, unit_seeds: u64) -> u64 {
        self.ranges
            .iter()
            .map(|range| (range.end - range.start).div_ceil(unit_seeds))
            .sum()
    }
}

/// The seeds a source can start from: `0..end`.
struct SeedLimit {
    /// One past the largest seed; `None`: any 64-bit value.
    end: Option<u64>,
    /// Why, for error messages: `delphi's state has 32 bits`.
    why: String,
    /// `--seed-bits` may not exceed this.
    most_bits: u32,
}

impl SeedLimit {
    fn of(source: SourceKind) -> Self {
        match source {
            SourceKind::Xoshiro => Self {
                end: None,
                why: String::new(),
                // 2^40 seeds is MAX_SEEDS; the seed itself could be any 64-bit value.
                most_bits: MAX_SEEDS.trailing_zeros(),
            },
            SourceKind::ClockReseed(_) => Self {
                end: Some(MILLISECONDS_PER_DAY),
                why: "clock-reseed's clock reads 0 to 86,399,999 ms (a day)".to_string(),
                // 2^26 = 67,108,864 ms fit in a day; 2^27 do not.
                most_bits: MILLISECONDS_PER_DAY.ilog2(),
            },
            other => Self {
                end: Some(1 << 32),
                why: format!("{}'s state has 32 bits", other.name()),
                most_bits: 32,
            },
        }
    }

    /// `2^bits`, when it is a usable number of seeds.
    fn check_bits(&self, bits: u32) -> Result<u64> {
        let bad = |problem: String| Error::BadOption {
            option: "--seed-bits",
            problem,
        };
        if bits == 0 {
            return Err(bad(
                "must be at least 1 (got 0: a single seed deals a single order)".to_string(),
            ));
        }
        if bits > self.most_bits {
            let why = match self.end {
                Some(_) => self.why.clone(),
                None => "2^40 seeds is the most one run enumerates".to_string(),
            };
            return Err(bad(format!(
                "must be at most {} (got {bits}): {why}",
                self.most_bits
            )));
        }
        Ok(1 << bits)
    }

    /// The whole seed space of a source that has one small enough to walk.
    fn default_space(&self, source: SourceKind) -> Result<(Vec<Range<u64>>, SeedSpaceOrigin)> {
        match (self.end, source) {
            (None, _) => Err(Error::Usage(format!(
                "--source {} is seeded with a 64-bit value (seed_from_u64), far too many to enumerate: \
                 give --seed-bits B or --seed-range A..B",
                source.name()
            ))),
            (Some(end), SourceKind::ClockReseed(_)) => Ok((vec![0..end], SeedSpaceOrigin::DayOfMilliseconds)),
            (Some(end), _) => Ok((vec![0..end], SeedSpaceOrigin::WholeState)),
        }
    }
}

/// The ranges, sorted, each checked against the source's seeds, with no seed twice.
fn checked_ranges(ranges: &[Range<u64>], limit: &SeedLimit) -> Result<Vec<Range<u64>>> {
    let bad = |problem: String| Error::BadOption {
        option: "--seed-range",
        problem,
    };
    let mut sorted = ranges.to_vec();
    sorted.sort_by_key(|range| range.start);
    for range in &sorted {
        if range.start >= range.end {
            return Err(bad(format!(
                "{}..{} is empty: the end is excluded, so it must be larger than the start",
                range.start, range.end
            )));
        }
        if let Some(end) = limit.end
            && range.end > end
        {
            return Err(bad(format!(
                "{}..{} goes past {end}: {} (the last seed is {})",
                range.start,
                range.end,
                limit.why,
                end - 1
            )));
        }
    }
    for pair in sorted.windows(2) {
        if pair[1].start < pair[0].end {
            return Err(bad(format!(
                "{}..{} and {}..{} overlap: every seed is enumerated once",
                pair[0].start, pair[0].end, pair[1].start, pair[1].end
            )));
        }
    }
    Ok(sorted)
}

/// `--seed-range A..B`: the seeds `A` to `B - 1`, each written as `--trials` counts are
/// (`86400000`, `86_400_000`, `8.64e7`).
pub fn parse_seed_range(text: &str) -> std::result::Result<Range<u64>, String> {
    let shape = || {
        format!(
            "expected A..B, the seeds A to B-1, e.g. 0..86400000 (got '{}')",
            crate::format::escaped_for_terminals(text)
        )
    };
    let (start, end) = text.split_once("..").ok_or_else(shape)?;
    if end.starts_with('=') {
        return Err(format!("{} (the end is excluded; write A..B)", shape()));
    }
    let start =
        crate::parse::parse_count(start).map_err(|problem| format!("start of the range: {problem}"))?;
    let end = crate::parse::parse_count(end).map_err(|problem| format!("end of the range: {problem}"))?;
    Ok(start..end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delphi() -> SourceKind {
        SourceKind::Delphi
    }

    #[test]
    fn units_at_the_top_of_the_64_bit_space_do_not_wrap() {
        let top = u64::MAX - 15..u64::MAX;
        let space = SeedSpace::resolve(SourceKind::Xoshiro, None, std::slice::from_ref(&top)).unwrap();
        assert_eq!(space.unit_count(1 << 16), 1);
        assert_eq!(space.unit(0, 1 << 16), top);
    }

    #[test]
    fn defaults_are_the_whole_seed_space_where_it_can_be_walked() {
        let space = SeedSpace::resolve(delphi(), None, &[]).unwrap();
        assert_eq!(space.ranges(), &[0..1 << 32]);
        assert_eq!(space.origin(), SeedSpaceOrigin::WholeState);
        assert_eq!(space.command_flags(), "");
        let clock = SourceKind::ClockReseed(Default::default());
        let space = SeedSpace::resolve(clock, None, &[]).unwrap();
        assert_eq!(space.ranges(), &[0..86_400_000]);
        assert_eq!(space.origin(), SeedSpaceOrigin::DayOfMilliseconds);
        let error = SeedSpace::resolve(SourceKind::Xoshiro, None, &[])
            .unwrap_err()
            .to_string();
        assert!(error.contains("--seed-bits B or --seed-range A..B"), "{error}");
    }

    #[test]
    fn seed_bits_are_bounded_by_the_state() {
        let space = SeedSpace::resolve(SourceKind::MsvcRandMod, Some(10), &[]).unwrap();
        assert_eq!(space.ranges(), &[0..1024]);
        assert_eq!(space.command_flags(), " --seed-bits 10");
        assert_eq!(
            SeedSpace::resolve(delphi(), Some(32), &[]).unwrap().count(),
            1 << 32
        );
        let error = SeedSpace::resolve(delphi(), Some(33), &[])
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "--seed-bits must be at most 32 (got 33): delphi's state has 32 bits"
        );
        let clock = SourceKind::ClockReseed(Default::default());
        assert!(SeedSpace::resolve(clock, Some(26), &[]).is_ok());
        let error = SeedSpace::resolve(clock, Some(27), &[]).unwrap_err().to_string();
        assert!(error.contains("at most 26") && error.contains("a day"), "{error}");
        assert!(SeedSpace::resolve(SourceKind::Xoshiro, Some(40), &[]).is_ok());
        let error = SeedSpace::resolve(SourceKind::Xoshiro, Some(41), &[])
            .unwrap_err()
            .to_string();
        assert!(error.contains("at most 40"), "{error}");
        assert!(SeedSpace::resolve(delphi(), Some(0), &[]).is_err());
    }

    #[test]
    fn ranges_are_checked_sorted_and_numbered_in_units() {
        let error = SeedSpace::resolve(delphi(), Some(3), &[0..5])
            .unwrap_err()
            .to_string();
        assert!(error.contains("not both"), "{error}");
        for bad in [(5, 5), (6, 5)].map(|(start, end)| start..end) {
            let error = SeedSpace::resolve(delphi(), None, &[bad])
                .unwrap_err()
                .to_string();
            assert!(error.contains("is empty"), "{error}");
        }
        let error = SeedSpace::resolve(delphi(), None, &[0..(1 << 32) + 1])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("32 bits") && error.contains("4294967295"),
            "{error}"
        );
        let clock = SourceKind::ClockReseed(Default::default());
        assert!(SeedSpace::resolve(clock, None, &[0..86_400_001]).is_err());
        let error = SeedSpace::resolve(delphi(), None, &[10..20, 0..11])
            .unwrap_err()
            .to_string();
        assert!(error.contains("overlap"), "{error}");
        let error = SeedSpace::resolve(SourceKind::Xoshiro, None, &[5..(1 << 40) + 6])
            .unwrap_err()
            .to_string();
        assert!(error.contains("at most 2^40"), "{error}");

        let space = SeedSpace::resolve(delphi(), None, &[100..105, 0..10]).unwrap();
        assert_eq!(space.ranges(), &[0..10, 100..105]);
        assert_eq!(space.count(), 15);
        assert_eq!(space.command_flags(), " --seed-range 0..10 --seed-range 100..105");
        assert_eq!(space.unit_count(4), 3 + 2);
        let units: Vec<Range<u64>> = (0..6).map(|unit| space.unit(unit, 4)).collect();
        assert_eq!(units, [0..4, 4..8, 8..10, 100..104, 104..105, 0..0]);
    }

    #[test]
    fn range_syntax() {
        assert_eq!(parse_seed_range("0..86_400_000"), Ok(0..86_400_000));
        assert_eq!(parse_seed_range("1e3..2e3"), Ok(1000..2000));
        for bad in ["5", "1..=5", "a..5", "1..-5", ""] {
            assert!(parse_seed_range(bad).is_err(), "{bad:?}");
        }
    }
}
