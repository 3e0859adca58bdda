//! `--window START..END`: the stretch of seeds a search covers, written as seed values
//! (`0..86400000`) or, for a generator seeded from the clock, as times of day
//! (`13:59:00..14:01:00`).
//!
//! Times are there because that is how the attack is thought about: Delphi's `Randomize`
//! sets `RandSeed` to the milliseconds since midnight, so an observer who knows the
//! server's clock to within a minute searches the 120,000 milliseconds around the deal,
//! not "seeds 50,340,000 to 50,460,000". A time `HH:MM:SS.mmm` is that number of
//! milliseconds since midnight, nothing more.
//!
//! `A..B` leaves `B` out, as Rust's ranges do (so `13:59:00..14:01:00` is exactly two
//! minutes, and `00:00:00..24:00:00` exactly a day); `A..=B` takes it in. A window must
//! lie inside the source's seed space ([`super::seed_space`]) and is refused, not
//! wrapped or clipped, when it does not: a search that silently covered other seeds than
//! the ones asked for would answer another question.

use crate::error::{Error, Result};
use crate::format::escaped_for_terminals;
use crate::parse::parse_count;
use crate::randomness::{MILLISECONDS_PER_DAY, SourceKind};

use super::{check_seed, seed_space};

/// The most seeds one window may hold: 2^40, more than ten hours of searching at the
/// 20 M seeds a second of two cores. The 32-bit sources' whole seed space (2^32) is far
/// inside it; a wider search of the default source's 2^64 seeds is hopeless anyway.
pub const MAX_WINDOW_SEEDS: u64 = 1 << 40;

/// A non-empty range of seeds, inside the seed space of the source it was parsed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedWindow {
    first: u64,
    /// The number of seeds, at least 1 and at most [`MAX_WINDOW_SEEDS`].
    len: u64,
    /// Whether it was written in times of day, and so is shown that way.
    in_times: bool,
}

impl SeedWindow {
    /// Parses `--window` for a search of `kind`'s seeds.
    pub fn parse(text: &str, kind: SourceKind) -> Result<Self> {
        let bad = |problem: String| Error::BadOption {
            option: "--window",
            problem,
        };
        let shown = escaped_for_terminals(text);
        let (start, end, inclusive) = if let Some((start, end)) = text.split_once("..=") {
            (start, end, true)
        } else if let Some((start, end)) = text.split_once("..") {
            (start, end, false)
        } else {
            return Err(bad(format!(
                "'{shown}' is not a range: write START..END (END left out) or START..=END, with \
                 seeds (0..86400000) or times of day (13:59:00..14:01:00)"
            )));
        };
        let start_point = Endpoint::parse(start, false).map_err(&bad)?;
        let end_point = Endpoint::parse(end, !inclusive).map_err(&bad)?;
        let first = start_point.value;
        let end = end_point.value + u128::from(inclusive);
        if end <= first {
            let midnight = if start_point.is_time && end_point.is_time {
                " (a window across midnight is two searches: START..24:00:00 and 00:00:00..END)"
            } else {
                ""
            };
            return Err(bad(format!(
                "'{shown}' holds no seed: its end is not after its start{midnight}"
            )));
        }
        check_seed(kind, first, "--window")?;
        if end > seed_space(kind) {
            check_seed(kind, end - 1, "--window")?;
        }
        let len = end - first;
        if len > u128::from(MAX_WINDOW_SEEDS) {
            return Err(bad(format!(
                "'{shown}' holds {len} seeds, more than the {MAX_WINDOW_SEEDS} (2^40) a search takes at \
                 once; search it in parts"
            )));
        }
        Ok(Self {
            first: first as u64,
            len: len as u64,
            in_times: start_point.is_time || end_point.is_time,
        })
    }

    /// The window of `len` seeds from `first` (tests, library callers).
    ///
    /// # Panics
    /// When `len` is 0 or more than [`MAX_WINDOW_SEEDS`], or the window runs past 2^64.
    pub fn from_seeds(first: u64, len: u64) -> Self {
        assert!(
            (1..=MAX_WINDOW_SEEDS).contains(&len) && first.checked_add(len - 1).is_some(),
            "a window holds 1 to 2^40 seeds below 2^64"
        );
        Self {
            first,
            len,
            in_times: false,
        }
    }

    /// Its first seed.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// Its last seed.
    pub fn last(&self) -> u64 {
        self.first + (self.len - 1)
    }

    /// How many seeds it holds (at least 1).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Never: a window holds at least one seed. (For clippy's `len_without_is_empty`.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether its seeds are best shown as times of day: it was written in times, and
    /// every seed in it is one.
    pub fn in_times(&self) -> bool {
        self.in_times && self.last() < MILLISECONDS_PER_DAY
    }

    /// `13:59:00.000..14:01:00.000` for a window written in times, `1000..2000` for one
    /// written in seeds (the end left out either way).
    pub fn describe(&self) -> String {
        let end = u128::from(self.last()) + 1;
        match (self.in_times(), time_of_day(self.first)) {
            (true, Some(start)) => {
                let end = time_of_day(end as u64).unwrap_or_else(|| "24:00:00.000".to_string());
                format!("{start}..{end}")
            }
            _ => format!("{}..{end}", self.first),
        }
    }
}

/// Parses one seed of `kind` for `option` (`--seed`), written as a window's ends are:
/// a number (`50412345`, `5.0412345e7`) or a time of day (`14:00:12.345`).
pub fn parse_seed(text: &str, kind: SourceKind, option: &'static str) -> Result<u64> {
    let seed = Endpoint::parse(text, false)
        .map_err(|problem| Error::BadOption { option, problem })?
        .value;
    check_seed(kind, seed, option)?;
    Ok(seed as u64)
}

/// `ms` milliseconds after midnight as `HH:MM:SS.mmm`; `None` for a value that is not a
/// time of day (a day or more).
pub fn time_of_day(ms: u64) -> Option<String> {
    (ms < MILLISECONDS_PER_DAY).then(|| {
        let seconds = ms / 1000;
        format!(
            "{:02}:{:02}:{:02}.{:03}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60,
            ms % 1000
        )
    })
}

/// One end of a window.
struct Endpoint {
    value: u128,
    is_time: bool,
}

impl Endpoint {
    /// A seed (`50400000`, `50_400_000`, `5.04e7`) or a time of day (`14:00`,
    /// `14:00:00`, `14:00:00.250`). `24:00:00` is the end of the day, so it is accepted
    /// only where an end is left out (`..24:00:00`).
    fn parse(text: &str, leaves_out: bool) -> std::result::Result<Self, String> {
        let text = text.trim();
        if !text.contains(':') {
            return parse_count(text)
                .map(|seed| Self {
                    value: u128::from(seed),
                    is_time: false,
                })
                .map_err(|problem| format!("{problem}; a window's ends are seeds or times HH:MM:SS[.mmm]"));
        }
        let ms = parse_time(text).ok_or_else(|| {
            format!(
                "'{}' is not a time of day: write HH:MM, HH:MM:SS or HH:MM:SS.mmm (00:00:00.000 to \
                 23:59:59.999)",
                escaped_for_terminals(text)
            )
        })?;
        if ms == MILLISECONDS_PER_DAY && !leaves_out {
            return Err(format!(
                "'{text}' is the end of the day, not a time in it (it can only close a window, as in \
                 START..24:00:00)"
            ));
        }
        Ok(Self {
            value: u128::from(ms),
            is_time: true,
        })
    }
}

/// `HH:MM[:SS[.m[m[m]]]]` in milliseconds since midnight, up to `24:00:00.000`.
fn parse_time(text: &str) -> Option<u64> {
    let (clock, fraction) = text.split_once('.').unwrap_or((text, ""));
    let fields: Vec<&str> = clock.split(':').collect();
    // Hours take one or two digits; minutes and seconds two, so that `12:5` is not
    // silently read as 12:05.
    let number = |field: &str, most: u64| {
        let widths = if most == 24 { 1..=2 } else { 2..=2 };
        let plain = widths.contains(&field.len()) && field.bytes().all(|byte| byte.is_ascii_digit());
        plain
            .then(|| field.parse::<u64>().ok())
            .flatten()
            .filter(|&value| value <= most)
    };
    let (hours, minutes, seconds) = match fields[..] {
        [hours, minutes] if fraction.is_empty() => (number(hours, 24)?, number(minutes, 59)?, 0),
        [hours, minutes, seconds] => (number(hours, 24)?, number(minutes, 59)?, number(seconds, 59)?),
        _ => return None,
    };
    let fraction_digits = text.contains('.').then_some(fraction);
    let milliseconds = match fraction_digits {
        None => 0,
        Some(digits) if (1..=3).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{digits:0<3}").parse().ok()?
        }
        Some(_) => return None,
    };
    let ms = ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds;
    (ms <= MILLISECONDS_PER_DAY).then_some(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(text: &str) -> SeedWindow {
        SeedWindow::parse(text, SourceKind::Delphi).unwrap()
    }

    fn refusal(text: &str, kind: SourceKind) -> String {
        SeedWindow::parse(text, kind).unwrap_err().to_string()
    }

    #[test]
    fn seed_ranges_leave_out_their_end_unless_told_otherwise() {
        let plain = window("1000..2000");
        assert_eq!((plain.first(), plain.last(), plain.len()), (1000, 1999, 1000));
        let inclusive = window("1000..=2000");
        assert_eq!(
            (inclusive.first(), inclusive.last(), inclusive.len()),
            (1000, 2000, 1001)
        );
        assert_eq!(window("5..6").len(), 1);
        assert_eq!(window("7..=7").len(), 1);
        assert_eq!(window("0..4_294_967_296").len(), 1 << 32);
        assert_eq!(window("0..=4294967295").len(), 1 << 32);
        assert_eq!(window("1e3..2e3"), plain);
        assert!(!plain.in_times());
        assert_eq!(plain.describe(), "1000..2000");
    }

    #[test]
    fn times_of_day_are_milliseconds_since_midnight() {
        // Text 001: a minute either way of the server's clock, 120,000 seeds.
        let synced = window("13:59:00..14:01:00");
        assert_eq!(synced.first(), (13 * 3600 + 59 * 60) * 1000);
        assert_eq!(synced.len(), 120_000);
        assert!(synced.in_times());
        assert_eq!(synced.describe(), "13:59:00.000..14:01:00.000");
        let day = window("00:00..24:00");
        assert_eq!((day.first(), day.len()), (0, MILLISECONDS_PER_DAY));
        assert_eq!(day.describe(), "00:00:00.000..24:00:00.000");
        let fine = window("14:00:12.5..=14:00:12.502");
        assert_eq!(fine.first(), 50_412_500);
        assert_eq!(fine.len(), 3);
        assert_eq!(window("14:00:00..50400010").len(), 10);
    }

    #[test]
    fn times_print_back_as_written() {
        assert_eq!(time_of_day(0).unwrap(), "00:00:00.000");
        assert_eq!(time_of_day(50_412_345).unwrap(), "14:00:12.345");
        assert_eq!(time_of_day(MILLISECONDS_PER_DAY - 1).unwrap(), "23:59:59.999");
        assert_eq!(time_of_day(MILLISECONDS_PER_DAY), None);
    }

    #[test]
    fn windows_must_hold_seeds_of_the_source() {
        let delphi = SourceKind::Delphi;
        for (text, expected) in [
            ("1000", "is not a range"),
            ("", "is not a range"),
            ("2000..1000", "holds no seed"),
            ("1000..1000", "holds no seed"),
            ("23:59:00..00:01:00", "two searches"),
            ("a..5", "'a' is not a whole number"),
            ("-5..5", "'-5' is not a whole number"),
            ("1.5..3", "'1.5' is not a whole number"),
            ("..5", "is not a whole number"),
            ("25:00..26:00", "is not a time of day"),
            ("12:60..13:00", "is not a time of day"),
            ("12:00:00.1234..13:00", "is not a time of day"),
            ("12:00:00.x..13:00", "is not a time of day"),
            ("1:2:3:4..13:00", "is not a time of day"),
            ("12:5..13:00", "is not a time of day"),
            ("24:00..=24:00", "the end of the day"),
            ("23:00..24:00:00.001", "is not a time of day"),
            (
                "0..4294967297",
                "4294967296 is not a seed of delphi: its seeds are 0 to 4294967295",
            ),
            ("4294967296..=4294967296", "is not a seed of delphi"),
        ] {
            let error = refusal(text, delphi);
            assert!(error.starts_with("--window "), "{text}: {error}");
            assert!(error.contains(expected), "{text}: {error}");
        }
        let clock = SourceKind::ClockReseed(Default::default());
        assert!(refusal("0..86400001", clock).contains("the milliseconds of a day"));
        assert_eq!(
            SeedWindow::parse("00:00..24:00", clock).unwrap().len(),
            MILLISECONDS_PER_DAY
        );
        let wide = refusal("0..=18446744073709551615", SourceKind::Xoshiro);
        assert!(wide.contains("more than the 1099511627776 (2^40)"), "{wide}");
        let top =
            SeedWindow::parse("18446744073709551615..=18446744073709551615", SourceKind::Xoshiro).unwrap();
        assert_eq!((top.first(), top.last()), (u64::MAX, u64::MAX));
        assert_eq!(top.describe(), "18446744073709551615..18446744073709551616");
    }

    #[test]
    fn a_seed_is_a_number_or_a_time() {
        let delphi = SourceKind::Delphi;
        assert_eq!(parse_seed("50412345", delphi, "--seed").unwrap(), 50_412_345);
        assert_eq!(parse_seed("14:00:12.345", delphi, "--seed").unwrap(), 50_412_345);
        assert_eq!(
            parse_seed("4294967295", delphi, "--seed").unwrap(),
            u64::from(u32::MAX)
        );
        for (text, expected) in [
            ("4294967296", "--seed 4294967296 is not a seed of delphi"),
            ("24:00", "--seed '24:00' is the end of the day"),
            ("x", "--seed 'x' is not a whole number"),
        ] {
            let error = parse_seed(text, delphi, "--seed").unwrap_err().to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn a_window_of_seeds_past_midnight_is_not_shown_in_times() {
        let mixed = window("23:59:59..86400005");
        assert!(!mixed.in_times());
        assert_eq!(mixed.describe(), "86399000..86400005");
    }
}
