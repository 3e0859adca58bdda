//! The names of the sources a run can draw from, what each one is exactly, and where it
//! comes from: the vocabulary of `--source`, and what the JSON records about a source.
//!
//! A source is one dimension of an audit, beside the algorithm: a perfect Fisher–Yates is
//! still unfair when the randomness under it is poor (texts 001 and 004). Each kind
//! states its definition in words precise enough to re-implement it, because a report
//! that blames a source must say which one.

use serde::Serialize;
use serde::ser::SerializeStruct;

use super::draw_law::DrawLaw;
use crate::error::{Error, Result};

/// Which randomness a simulation draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceKind {
    /// Xoshiro256++ with unbiased bounded draws: the default, and the fair reference.
    #[default]
    Xoshiro,
    /// The classic C library `rand()` (Microsoft's LCG, 15-bit `RAND_MAX`) bounded by
    /// `rand() % n`.
    MsvcRandMod,
    /// Delphi's `Random`: a 32-bit LCG, `Random(n) = (seed · n) >> 32`.
    Delphi,
    /// Delphi's `Random` re-seeded from a clock before every trial.
    ClockReseed(ClockStep),
}

/// Every source, in the order `list` and the docs give them.
pub const SOURCE_NAMES: [&str; 4] = ["xoshiro", "msvc-rand-mod", "delphi", "clock-reseed"];

impl SourceKind {
    /// Every source, in the order of [`SOURCE_NAMES`], `clock-reseed` with its default
    /// clock step.
    pub fn all() -> impl Iterator<Item = SourceKind> {
        SOURCE_NAMES
            .into_iter()
            .map(|name| SourceKind::parse(name, None).expect("the source names parse"))
    }

    /// Parses `--source NAME` with its `--clock-step`, which only `clock-reseed` takes.
    pub fn parse(name: &str, clock_step: Option<ClockStep>) -> Result<Self> {
        let kind = match name {
            "xoshiro" => SourceKind::Xoshiro,
            "msvc-rand-mod" => SourceKind::MsvcRandMod,
            "delphi" => SourceKind::Delphi,
            "clock-reseed" => return Ok(SourceKind::ClockReseed(clock_step.unwrap_or_default())),
            other => {
                return Err(Error::BadOption {
                    option: "--source",
                    problem: format!(
                        "unknown source '{}' (the sources are {})",
                        crate::format::escaped_for_terminals(other),
                        SOURCE_NAMES.join(", ")
                    ),
                });
            }
        };
        match clock_step {
            Some(_) => Err(Error::BadOption {
                option: "--clock-step",
                problem: format!("only applies to --source clock-reseed (the source is {name})"),
            }),
            None => Ok(kind),
        }
    }

    /// Its name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            SourceKind::Xoshiro => "xoshiro",
            SourceKind::MsvcRandMod => "msvc-rand-mod",
            SourceKind::Delphi => "delphi",
            SourceKind::ClockReseed(_) => "clock-reseed",
        }
    }

    /// The options that select it again on a command line: nothing for the default,
    /// ` --source NAME` otherwise (with ` --clock-step MS` for `clock-reseed`).
    pub fn command_flags(&self) -> String {
        match self {
            SourceKind::Xoshiro => String::new(),
            SourceKind::ClockReseed(step) => format!(" --source clock-reseed --clock-step {step}"),
            other => format!(" --source {}", other.name()),
        }
    }

    /// The line a text report shows about a flawed source; `None` for the default.
    pub fn report_line(&self) -> Option<String> {
        (!self.is_default()).then(|| format!("source: {self}: {}", self.definition()))
    }

    /// Whether this is the default, fair source (reports then need not mention it).
    pub fn is_default(&self) -> bool {
        *self == SourceKind::Xoshiro
    }

    /// Its exact definition, precise enough to re-implement it.
    pub fn definition(&self) -> String {
        match self {
            SourceKind::Xoshiro => "Xoshiro256++ (rand_xoshiro) with unbiased bounded draws (rand's \
                 random_range); each chunk of 16,384 trials (each stream, in `stream`) has its \
                 own stream derived from (seed, chunk)"
                .to_string(),
            SourceKind::MsvcRandMod => "the C library's rand() of Microsoft's CRT: state = state * 214013 + \
                 2531011 (mod 2^32), rand() = bits 16..30 of the state (RAND_MAX = 32767); a \
                 draw from 0..n is rand() % n, and a float is rand() / 32768; in a simulation each \
                 chunk of 16,384 trials (each stream, in `stream`) starts from its own 32-bit \
                 state derived from (seed, chunk), and the seeds commands srand() the seed itself"
                .to_string(),
            SourceKind::Delphi => "Delphi's Random: RandSeed = RandSeed * 134775813 + 1 (mod 2^32), \
                 Random(n) = (RandSeed * n) >> 32, and the float Random = RandSeed / 2^32; in a \
                 simulation each chunk of 16,384 trials (each stream, in `stream`) starts from its \
                 own 32-bit RandSeed derived from (seed, chunk), and the seeds commands set \
                 RandSeed to the seed itself"
                .to_string(),
            SourceKind::ClockReseed(step) => format!(
                "Delphi's Random with Randomize called before every shuffle (every selection, \
                 every stream item): RandSeed = the clock in milliseconds since midnight. The \
                 clock is modelled, so that runs repeat: it reads the seed (mod 86,400,000) at \
                 trial 0 and advances {step} ms per trial, so trial t gets RandSeed = (seed + \
                 floor(t * {step})) mod 86,400,000"
            ),
        }
    }

    /// Where it comes from.
    pub fn origin(&self) -> &'static str {
        match self {
            SourceKind::Xoshiro => "Blackman & Vigna's xoshiro256++; the tool's reference source",
            SourceKind::MsvcRandMod => {
                "text 004's comments (\"don't assume rand() is very random either\", and the \
                 rejection sampling offered against modulo bias); the constants are those of \
                 Microsoft's C runtime"
            }
            SourceKind::Delphi => "text 001 (Delphi's linear congruential Random, 2^32 seeds for 52! deals)",
            SourceKind::ClockReseed(_) => {
                "text 004's comments (\"moving the RANDOMIZE statement into the FOR loop\") and text \
                 001's online-poker case (Randomize from the time of day before every deal)"
            }
        }
    }

    /// Whether draws from it are independent and identically distributed given their
    /// bounds, which exact analysis needs (a source re-seeded from a clock is not).
    pub fn draws_are_independent(&self) -> bool {
        self.draw_law().is_ok()
    }

    /// The law of one bounded draw in the idealised model exact analysis uses (each raw
    /// output uniform and independent), or why the source has none.
    pub fn draw_law(&self) -> std::result::Result<DrawLaw, &'static str> {
        match self {
            SourceKind::Xoshiro => Ok(DrawLaw::Uniform),
            SourceKind::MsvcRandMod => Ok(DrawLaw::RandMod),
            SourceKind::Delphi => Ok(DrawLaw::MultiplyShift),
            SourceKind::ClockReseed(_) => Err(
                "its draws are not independent: the clock fixes every shuffle's seed, so a \
                 shuffle is a function of the clock reading, not of independent draws; \
                 simulate it with `run --source clock-reseed`, and count the decks its seeds \
                 can deal with `seeds reach`",
            ),
        }
    }
}

impl std::fmt::Display for SourceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceKind::ClockReseed(step) => write!(f, "clock-reseed (clock step {step} ms)"),
            other => f.write_str(other.name()),
        }
    }
}

impl Serialize for SourceKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let clock_step = match self {
            SourceKind::ClockReseed(step) => Some(step),
            _ => None,
        };
        let mut record = serializer.serialize_struct("Source", 4)?;
        record.serialize_field("name", self.name())?;
        if let Some(step) = clock_step {
            record.serialize_field("clock_step_ms", &step.milliseconds())?;
        }
        record.serialize_field("definition", &self.definition())?;
        record.serialize_field("origin", self.origin())?;
        record.end()
    }
}

/// The schema of the record [`SourceKind`]'s hand-written `Serialize` writes, kept beside
/// it so that the two change together (`tests/schemas.rs` validates real output against it).
impl schemars::JsonSchema for SourceKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Source".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The randomness under the algorithms, as every export records it.",
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "clock_step_ms": {
                    "description": "Only for `clock-reseed`: how far its clock advances per trial.",
                    "type": "number"
                },
                "definition": { "type": "string" },
                "origin": { "type": "string" }
            },
            "required": ["name", "definition", "origin"],
            "additionalProperties": false
        })
    }
}

/// How far the modelled clock of `clock-reseed` advances per trial, in whole microseconds
/// (the clock itself counts milliseconds, so steps below 1 ms give several trials the
/// same clock reading, as a fast loop under a coarse clock does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ClockStep {
    microseconds: u64,
}

impl ClockStep {
    /// The default step, 1 µs per trial (see [`ClockStep::default`]).
    pub const DEFAULT: ClockStep = ClockStep { microseconds: 1 };

    /// A day: a longer step would only wrap the clock round midnight.
    const MOST_MICROSECONDS: u64 = 86_400_000_000;

    /// A step of `microseconds` µs (1 µs to a day).
    pub fn from_microseconds(microseconds: u64) -> Result<Self> {
        if (1..=Self::MOST_MICROSECONDS).contains(&microseconds) {
            Ok(Self { microseconds })
        } else {
            Err(Error::BadOption {
                option: "--clock-step",
                problem: format!("must be between 0.001 and 86400000 ms (got {} µs)", microseconds),
            })
        }
    }

    /// The step in microseconds.
    pub fn microseconds(&self) -> u64 {
        self.microseconds
    }

    /// The step in milliseconds, for JSON.
    pub fn milliseconds(&self) -> f64 {
        self.microseconds as f64 / 1000.0
    }

    /// The clock's reading, in whole milliseconds, at trial `trial` of a run that started
    /// at `start_ms`: `start + floor(trial * step)`, wrapped at midnight.
    pub fn reading(&self, start_ms: u64, trial: u64) -> u64 {
        let advanced = (trial as u128 * self.microseconds as u128 / 1000) % MILLISECONDS_PER_DAY as u128;
        (start_ms % MILLISECONDS_PER_DAY + advanced as u64) % MILLISECONDS_PER_DAY
    }
}

/// The milliseconds in a day: the range of Delphi's `Randomize` seed, and of the
/// modelled clock.
pub const MILLISECONDS_PER_DAY: u64 = 86_400_000;

impl Default for ClockStep {
    /// 1 µs per trial: a loop that shuffles a small deck in about a microsecond under a
    /// millisecond clock re-seeds with the same value a thousand times in a row.
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl std::str::FromStr for ClockStep {
    type Err = Error;

    /// Milliseconds as a decimal with at most three places: `1`, `0.25`, `15.625`.
    fn from_str(text: &str) -> Result<Self> {
        let bad = |problem: String| Error::BadOption {
            option: "--clock-step",
            problem,
        };
        let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
        let digits_only = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
        if whole.is_empty() && fraction.is_empty() || !digits_only(whole) || !digits_only(fraction) {
            return Err(bad(format!(
                "expected milliseconds such as 1, 0.25 or 15.625 (got '{}')",
                crate::format::escaped_for_terminals(text)
            )));
        }
        if fraction.len() > 3 {
            return Err(bad(format!(
                "the modelled clock counts whole microseconds: at most three decimals (got {text})"
            )));
        }
        let whole: u64 = if whole.is_empty() {
            0
        } else {
            whole
                .parse()
                .map_err(|_| bad(format!("must be at most 86400000 ms (got {text})")))?
        };
        let fraction: u64 = format!("{fraction:0<3}").parse().unwrap_or(0);
        let microseconds = whole
            .checked_mul(1000)
            .and_then(|micros| micros.checked_add(fraction))
            .ok_or_else(|| bad(format!("must be at most 86400000 ms (got {text})")))?;
        Self::from_microseconds(microseconds)
    }
}

impl std::fmt::Display for ClockStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, fraction) = (self.microseconds / 1000, self.microseconds % 1000);
        if fraction == 0 {
            write!(f, "{whole}")
        } else {
            let digits = format!("{fraction:03}");
            write!(f, "{whole}.{}", digits.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_steps_parse_as_milliseconds_and_print_back() {
        for (text, micros, shown) in [
            ("1", 1000, "1"),
            ("0.001", 1, "0.001"),
            (".25", 250, "0.25"),
            ("15.625", 15_625, "15.625"),
            ("2.50", 2500, "2.5"),
        ] {
            let step: ClockStep = text.parse().unwrap();
            assert_eq!(step.microseconds(), micros, "{text}");
            assert_eq!(step.to_string(), shown, "{text}");
        }
        for bad in [
            "",
            ".",
            "0",
            "0.0001",
            "-1",
            "1e3",
            "abc",
            "86400000.001",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<ClockStep>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_clock_advances_by_the_step_and_wraps_at_midnight() {
        let step: ClockStep = "0.25".parse().unwrap();
        let readings: Vec<u64> = (0..9).map(|trial| step.reading(100, trial)).collect();
        assert_eq!(readings, [100, 100, 100, 100, 101, 101, 101, 101, 102]);
        let whole: ClockStep = "1".parse().unwrap();
        assert_eq!(whole.reading(MILLISECONDS_PER_DAY - 1, 1), 0);
        assert_eq!(whole.reading(MILLISECONDS_PER_DAY + 5, 0), 5);
    }

    #[test]
    fn only_clock_reseed_takes_a_clock_step() {
        let step = Some("2".parse().unwrap());
        assert_eq!(
            SourceKind::parse("clock-reseed", step).unwrap(),
            SourceKind::ClockReseed("2".parse().unwrap())
        );
        assert_eq!(
            SourceKind::parse("clock-reseed", None).unwrap(),
            SourceKind::ClockReseed(ClockStep::default())
        );
        let error = SourceKind::parse("delphi", step).unwrap_err().to_string();
        assert!(
            error.contains("--clock-step") && error.contains("clock-reseed"),
            "{error}"
        );
        let error = SourceKind::parse("rand", None).unwrap_err().to_string();
        assert!(
            error.contains("unknown source 'rand'") && error.contains("msvc-rand-mod"),
            "{error}"
        );
        for name in SOURCE_NAMES {
            assert_eq!(SourceKind::parse(name, None).unwrap().name(), name);
        }
    }
}
