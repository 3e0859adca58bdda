//! Tallies of item streams: how often each item came out, the lengths of its runs and of
//! the gaps between its occurrences, where it fell within the bag's cycle, how often a
//! cycle repeated the item of the cycle before at the same place, and how far each
//! window of one bag length strayed from the counts the weights promise.
//!
//! Every table is plain counts (or maxima and sums), so the tallies of streams run on
//! different threads add up to the same total whatever the thread count. Runs are
//! counted only when they end inside the stream, so that theory (which describes complete
//! runs) applies; the longest run seen includes a run cut off by the end of the stream.

use std::collections::BTreeMap;

/// Values below this are counted in a dense vector, larger ones in a map.
const DENSE_VALUES: usize = 1 << 12;

/// A count per positive integer value (a run length, a gap), dense for small values and
/// sparse for the rare long ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl Histogram {
    /// Counts one occurrence of `value`.
    #[inline(always)]
    pub fn add(&mut self, value: u64) {
        match self.dense.get_mut(value as usize) {
            Some(count) => *count += 1,
            None => self.add_times(value, 1),
        }
    }

    /// Counts `times` occurrences of `value`.
    #[cold]
    pub fn add_times(&mut self, value: u64, times: u64) {
        let index = value as usize;
        if index < DENSE_VALUES {
            if index >= self.dense.len() {
                self.dense.resize(index + 1, 0);
            }
            self.dense[index] += times;
        } else {
            *self.sparse.entry(value).or_insert(0) += times;
        }
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: &Histogram) {
        for (value, count) in other.iter() {
            self.add_times(value, count);
        }
    }

    /// `(value, count)` for every value seen, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(value, &count)| (value as u64, count))
            .chain(self.sparse.iter().map(|(&value, &count)| (value, count)))
    }

    /// The number of values counted.
    pub fn total(&self) -> u64 {
        self.iter().map(|(_, count)| count).sum()
    }

    /// The largest value counted, 0 if none.
    pub fn max(&self) -> u64 {
        self.iter().last().map_or(0, |(value, _)| value)
    }

    /// The mean value, `None` if nothing was counted.
    pub fn mean(&self) -> Option<f64> {
        let total = self.total();
        (total > 0).then(|| {
            self.iter()
                .map(|(value, count)| value as f64 * count as f64)
                .sum::<f64>()
                / total as f64
        })
    }

    /// Counts for the values `1..=cells`, where the last cell also holds every larger value.
    pub fn folded(&self, cells: usize) -> Vec<u64> {
        let mut folded = vec![0u64; cells];
        for (value, count) in self.iter() {
            if value >= 1 {
                folded[(value as usize).min(cells) - 1] += count;
            }
        }
        folded
    }
}

/// Where the cycle positions of a bag are tallied: `bins` contiguous groups of positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleLayout {
    /// Draws per cycle.
    pub slots: u64,
    /// `bounds[b]..bounds[b + 1]` are the positions of bin `b`; `bounds.len() - 1` bins.
    pub bounds: Vec<u64>,
    /// Whether to count repeats of the previous cycle's item at the same position (whole
    /// bags only, see the cycle-repeats test).
    pub repeats: bool,
}

impl CycleLayout {
    /// `bins` near-equal contiguous bins over `slots` positions.
    pub fn new(slots: u64, bins: u64, repeats: bool) -> Self {
        let bins = bins.clamp(1, slots.max(1));
        let bounds = (0..=bins)
            .map(|b| (u128::from(b) * u128::from(slots)).div_ceil(u128::from(bins)) as u64)
            .collect();
        Self {
            slots,
            bounds,
            repeats,
        }
    }

    /// Number of bins.
    pub fn bins(&self) -> usize {
        self.bounds.len() - 1
    }
}

/// What to tally besides frequencies, runs and gaps.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamLayout {
    /// Items.
    pub items: usize,
    /// Draws per stream.
    pub length: u64,
    /// The bag's cycle, for bag generators.
    pub cycle: Option<CycleLayout>,
    /// Whether to count the gaps that end inside complete cycles apart (one-of-each bags,
    /// whose gap test needs whole pairs of cycles).
    pub cycle_gaps: bool,
    /// Window length, and each item's weight in units with their total: item `i`
    /// expects `length · units[i] / total` draws per window.
    pub window: Option<(u64, Vec<u64>)>,
}

/// Counts of windows of one bag length and how far they strayed.
///
/// Deviations are kept exactly, in units of `1 / total units` (an expected count such as
/// 88,000 × 12.702/99.965 is not a whole number), so that their sums do not depend on
/// the order in which threads add them.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowTally {
    /// Draws per window.
    pub length: u64,
    /// Each item's weight in units.
    pub units: Vec<u64>,
    /// Complete windows counted.
    pub windows: u64,
    /// Per item: the sum over windows of |count · total − length · units|.
    absolute_deviation_sum: Vec<u128>,
    /// Per item: the largest |count · total − length · units|.
    largest_deviation: Vec<u128>,
}

impl WindowTally {
    fn total_units(&self) -> f64 {
        self.units.iter().sum::<u64>() as f64
    }

    /// Item `item`'s expected count per window.
    pub fn expected(&self, item: usize) -> f64 {
        self.length as f64 * self.units[item] as f64 / self.total_units()
    }

    /// The mean over windows of |count − expected| for `item` (0 without windows).
    pub fn mean_absolute_deviation(&self, item: usize) -> f64 {
        self.absolute_deviation_sum[item] as f64 / self.total_units() / self.windows.max(1) as f64
    }

    /// The largest |count − expected| for `item`.
    pub fn largest_deviation(&self, item: usize) -> f64 {
        self.largest_deviation[item] as f64 / self.total_units()
    }

    /// Counts one complete window.
    fn record(&mut self, counts: &mut [u64]) {
        let total = u128::from(self.units.iter().sum::<u64>());
        self.windows += 1;
        for (item, count) in counts.iter_mut().enumerate() {
            let observed = u128::from(*count) * total;
            let expected = u128::from(self.length) * u128::from(self.units[item]);
            let deviation = observed.abs_diff(expected);
            self.absolute_deviation_sum[item] += deviation;
            self.largest_deviation[item] = self.largest_deviation[item].max(deviation);
            *count = 0;
        }
    }

    fn merge(&mut self, other: &WindowTally) {
        self.windows += other.windows;
        for item in 0..self.units.len() {
            self.absolute_deviation_sum[item] += other.absolute_deviation_sum[item];
            self.largest_deviation[item] = self.largest_deviation[item].max(other.largest_deviation[item]);
        }
    }
}

/// Per item, the number of draws that repeated the previous cycle's item at the same
/// position, over pairs of consecutive complete cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepeatTally {
    /// Pairs of consecutive complete cycles compared.
    pub cycle_pairs: u64,
    /// Positions where both cycles dealt the same item.
    pub matches: u64,
}

/// Everything counted over a set of streams.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamTally {
    /// Streams counted.
    pub streams: u64,
    /// Draws per stream.
    pub length: u64,
    /// Draws of each item.
    pub frequencies: Vec<u64>,
    /// Per item: lengths of its complete runs (ended by another item).
    pub runs: Vec<Histogram>,
    /// Per item: the longest run seen, including one cut off by the end of a stream.
    pub longest_run: Vec<u64>,
    /// Per item: distances between consecutive occurrences.
    pub gaps: Vec<Histogram>,
    /// Bins × items counts of complete cycles (row-major), for bags.
    pub cycle_positions: Option<Vec<u64>>,
    /// The layout those counts use.
    pub cycle: Option<CycleLayout>,
    /// Repeats of the previous cycle, for whole bags.
    pub repeats: Option<RepeatTally>,
    /// Gaps (index = gap) that end inside a complete cycle, when asked for.
    pub cycle_gaps: Option<Vec<u64>>,
    /// Windows of one bag length.
    pub windows: Option<WindowTally>,
    /// The guessing game on the first streams' first draws, once attached (not a count).
    pub guessing: Option<Box<super::item_game::ItemGameTally>>,
}

impl StreamTally {
    /// An empty tally.
    pub fn new(layout: &StreamLayout) -> Self {
        let items = layout.items;
        Self {
            streams: 0,
            length: layout.length,
            frequencies: vec![0; items],
            runs: vec![Histogram::default(); items],
            longest_run: vec![0; items],
            gaps: vec![Histogram::default(); items],
            cycle_positions: layout.cycle.as_ref().map(|cycle| vec![0; cycle.bins() * items]),
            cycle: layout.cycle.clone(),
            repeats: layout
                .cycle
                .as_ref()
                .filter(|cycle| cycle.repeats)
                .map(|_| RepeatTally::default()),
            cycle_gaps: match &layout.cycle {
                Some(cycle) if layout.cycle_gaps => Some(vec![0; 2 * cycle.slots as usize]),
                _ => None,
            },
            windows: layout.window.as_ref().map(|(length, units)| WindowTally {
                length: *length,
                units: units.clone(),
                windows: 0,
                absolute_deviation_sum: vec![0; items],
                largest_deviation: vec![0; items],
            }),
            guessing: None,
        }
    }

    /// Adds another tally of the same layout.
    pub fn merge(&mut self, other: &StreamTally) {
        self.streams += other.streams;
        add_into(&mut self.frequencies, &other.frequencies);
        for (mine, theirs) in self.runs.iter_mut().zip(&other.runs) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.gaps.iter_mut().zip(&other.gaps) {
            mine.merge(theirs);
        }
        for (mine, &theirs) in self.longest_run.iter_mut().zip(&other.longest_run) {
            *mine = (*mine).max(theirs);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.cycle_positions, &other.cycle_positions) {
            add_into(mine, theirs);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.repeats, &other.repeats) {
            mine.cycle_pairs += theirs.cycle_pairs;
            mine.matches += theirs.matches;
        }
        if let (Some(mine), Some(theirs)) = (&mut self.windows, &other.windows) {
            mine.merge(theirs);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.cycle_gaps, &other.cycle_gaps) {
            add_into(mine, theirs);
        }
        if self.guessing.is_none() {
            self.guessing.clone_from(&other.guessing);
        }
    }

    /// Total draws.
    pub fn draws(&self) -> u64 {
        self.frequencies.iter().sum()
    }

    /// All items' complete runs together.
    pub fn all_runs(&self) -> Histogram {
        merged_histograms(&self.runs)
    }

    /// All items' gaps together.
    pub fn all_gaps(&self) -> Histogram {
        merged_histograms(&self.gaps)
    }
}

fn merged_histograms(histograms: &[Histogram]) -> Histogram {
    let mut all = Histogram::default();
    for histogram in histograms {
        all.merge(histogram);
    }
    all
}

fn add_into(total: &mut [u64], part: &[u64]) {
    for (total, &part) in total.iter_mut().zip(part) {
        *total += part;
    }
}

/// Something that deals the items of one stream, handing each to a sink. Generic, so
/// that a generator's loop and the tally's bookkeeping compile into one loop.
pub trait Deal {
    /// Hands exactly `count` items to `sink`, in order (fewer only when the run is
    /// cancelled, its tally then thrown away).
    fn deal(&mut self, count: u64, sink: &mut impl FnMut(u16));
}

/// A recorded sequence deals itself (tests, and streams read from elsewhere).
impl Deal for std::slice::Iter<'_, u16> {
    fn deal(&mut self, count: u64, sink: &mut impl FnMut(u16)) {
        for _ in 0..count {
            sink(*self.next().expect("the sequence holds the whole stream"));
        }
    }
}

/// Draws dealt into a buffer before they are tallied.
const BATCH: usize = 4096;

/// Tallies one stream at a time into a [`StreamTally`], keeping the per-stream state
/// (last occurrence of each item, the current run, the previous cycle, the window).
///
/// The generator deals a batch of draws into a buffer and each table is then updated by
/// its own loop over the batch: one small loop per concern keeps the generator's loop
/// tight and lets each tally loop run without the others' branches (about three times
/// fewer instructions per draw than updating every table inside the generator's loop).
pub struct StreamRecorder {
    tally: StreamTally,
    last_seen: Vec<u64>,
    previous_cycle: Vec<u16>,
    window_counts: Vec<u64>,
    buffer: Vec<u16>,
    /// For cycles of up to [`LOOKED_UP_SLOTS`]: each position's row in the table.
    row_of_position: Vec<u32>,
    state: StreamState,
}

/// Cycles up to this long find a position's bin by lookup; longer ones (whose bins are
/// hundreds of positions wide) by spans.
const LOOKED_UP_SLOTS: u64 = 1 << 16;

/// Where the current stream stands.
#[derive(Clone, Copy, Debug, Default)]
struct StreamState {
    /// Index of the next draw.
    index: u64,
    /// The item of the current run and its length so far (0: no run yet).
    run_item: u16,
    run_length: u64,
    /// Position within the bag's cycle, and its bin.
    position: u64,
    bin: usize,
    /// Draws so far in the current window.
    in_window: u64,
}

/// Marks an item not yet seen in the current stream.
const NEVER: u64 = u64::MAX;

impl StreamRecorder {
    /// A recorder for streams of this layout.
    pub fn new(layout: &StreamLayout) -> Self {
        let tally = StreamTally::new(layout);
        let previous_cycle = match &tally.cycle {
            Some(cycle) if cycle.repeats => vec![0; cycle.slots as usize],
            _ => Vec::new(),
        };
        let row_of_position = match &tally.cycle {
            Some(cycle) if cycle.slots <= LOOKED_UP_SLOTS => (0..cycle.bins())
                .flat_map(|bin| {
                    let width = cycle.bounds[bin + 1] - cycle.bounds[bin];
                    std::iter::repeat_n((bin * layout.items) as u32, width as usize)
                })
                .collect(),
            _ => Vec::new(),
        };
        Self {
            last_seen: vec![NEVER; layout.items],
            window_counts: vec![0; layout.items],
            previous_cycle,
            buffer: vec![0; BATCH],
            row_of_position,
            state: StreamState::default(),
            tally,
        }
    }

    /// Tallies one whole stream of `length` items dealt by `source`.
    pub fn record_stream(&mut self, source: &mut impl Deal) {
        self.last_seen.fill(NEVER);
        self.window_counts.fill(0);
        self.state = StreamState::default();
        let mut buffer = std::mem::take(&mut self.buffer);
        let mut filled = 0;
        source.deal(self.tally.length, &mut |item| {
            buffer[filled] = item;
            filled += 1;
            if filled == BATCH {
                self.record_batch(&buffer);
                filled = 0;
            }
        });
        self.record_batch(&buffer[..filled]);
        self.buffer = buffer;
        // Shorter only when the run was cancelled, its tally then thrown away.
        debug_assert!(
            self.state.index <= self.tally.length,
            "a stream must deal at most its length"
        );
        self.end_stream();
    }

    /// A recorder of one stream whose length is known only when it ends: a stream read
    /// from another program ([`crate::ingest`]), handed over piece by piece with
    /// [`StreamRecorder::extend`] and closed by [`StreamRecorder::finish_open_stream`].
    /// Nothing but the bag's cycle needs the length before the end (its complete cycles
    /// are counted up to the last whole one), so `layout` must have no cycle; its
    /// `length` is ignored.
    pub fn open(layout: &StreamLayout) -> Self {
        assert!(
            layout.cycle.is_none(),
            "a stream of unknown length has no cycle tally"
        );
        Self::new(&StreamLayout {
            length: 0,
            ..layout.clone()
        })
    }

    /// Tallies the next draws of an open stream ([`StreamRecorder::open`]), in order:
    /// runs and gaps carry on from the draws before.
    pub fn extend(&mut self, draws: &[u16]) {
        for batch in draws.chunks(BATCH) {
            self.record_batch(batch);
        }
    }

    /// Ends an open stream: its length is the number of draws it was given, its last run
    /// counts for the longest, and a window longer than the whole stream is dropped (as
    /// it is for streams whose length is known).
    pub fn finish_open_stream(mut self) -> StreamTally {
        self.tally.length = self.state.index;
        if self
            .tally
            .windows
            .as_ref()
            .is_some_and(|windows| windows.length > self.tally.length)
        {
            self.tally.windows = None;
        }
        self.end_stream();
        self.tally
    }

    /// Closes the current stream: its last run (cut off by the end) counts for the
    /// longest, and its pairs of consecutive complete cycles for the repeats.
    fn end_stream(&mut self) {
        let tally = &mut self.tally;
        let state = &self.state;
        if state.run_length > 0 {
            let longest = &mut tally.longest_run[state.run_item as usize];
            *longest = (*longest).max(state.run_length);
        }
        if let (Some(repeats), Some(cycle)) = (&mut tally.repeats, &tally.cycle) {
            repeats.cycle_pairs += (tally.length / cycle.slots).saturating_sub(1);
        }
        tally.streams += 1;
    }

    /// Tallies the next draws of the current stream, one table at a time.
    #[inline(never)]
    fn record_batch(&mut self, draws: &[u16]) {
        let tally = &mut self.tally;
        let state = &mut self.state;
        let start = state.index;
        let complete_end = tally
            .cycle
            .as_ref()
            .map_or(0, |cycle| (tally.length / cycle.slots) * cycle.slots);
        for &item in draws {
            tally.frequencies[item as usize] += 1;
        }
        for (offset, &item) in draws.iter().enumerate() {
            let index = start + offset as u64;
            if state.run_length > 0 && item == state.run_item {
                state.run_length += 1;
            } else {
                if state.run_length > 0 {
                    let run_item = state.run_item as usize;
                    tally.runs[run_item].add(state.run_length);
                    tally.longest_run[run_item] = tally.longest_run[run_item].max(state.run_length);
                }
                state.run_item = item;
                state.run_length = 1;
            }
            let last = &mut self.last_seen[item as usize];
            if *last != NEVER {
                let gap = index - *last;
                tally.gaps[item as usize].add(gap);
                if index < complete_end
                    && let Some(cycle_gaps) = &mut tally.cycle_gaps
                    && let Some(count) = cycle_gaps.get_mut(gap as usize)
                {
                    *count += 1;
                }
            }
            *last = index;
        }
        if let (Some(cycle), Some(positions)) = (&tally.cycle, &mut tally.cycle_positions) {
            // Long cycles: spans of draws that stay within one bin of one cycle, each
            // counted by a plain loop into that bin's row.
            let items = tally.frequencies.len();
            let in_cycles = complete_end.saturating_sub(start).min(draws.len() as u64) as usize;
            if !self.row_of_position.is_empty() {
                // Short cycles: each position's row looked up, draw by draw.
                let slots = cycle.slots as usize;
                let mut position = state.position as usize;
                for (index, &item) in (start..).zip(&draws[..in_cycles]) {
                    positions[self.row_of_position[position] as usize + item as usize] += 1;
                    if let Some(repeats) = &mut tally.repeats {
                        let slot = &mut self.previous_cycle[position];
                        if index >= cycle.slots {
                            repeats.matches += u64::from(*slot == item);
                        }
                        *slot = item;
                    }
                    position += 1;
                    if position == slots {
                        position = 0;
                    }
                }
                state.position = position as u64;
            }
            let mut offset = if self.row_of_position.is_empty() {
                0
            } else {
                in_cycles
            };
            while offset < in_cycles {
                let bin_end = cycle.bounds[state.bin + 1];
                let span = ((bin_end - state.position) as usize).min(in_cycles - offset);
                let span_draws = &draws[offset..offset + span];
                let row = &mut positions[state.bin * items..(state.bin + 1) * items];
                for &item in span_draws {
                    row[item as usize] += 1;
                }
                if let Some(repeats) = &mut tally.repeats {
                    let first = state.position as usize;
                    let previous = &mut self.previous_cycle[first..first + span];
                    if start + offset as u64 >= cycle.slots {
                        repeats.matches += previous
                            .iter()
                            .zip(span_draws)
                            .map(|(before, now)| u64::from(before == now))
                            .sum::<u64>();
                    }
                    previous.copy_from_slice(span_draws);
                }
                offset += span;
                state.position += span as u64;
                if state.position == bin_end {
                    state.bin += 1;
                }
                if state.position == cycle.slots {
                    state.position = 0;
                    state.bin = 0;
                }
            }
        }
        if let Some(windows) = &mut tally.windows {
            let mut offset = 0;
            while offset < draws.len() {
                let span = ((windows.length - state.in_window) as usize).min(draws.len() - offset);
                for &item in &draws[offset..offset + span] {
                    self.window_counts[item as usize] += 1;
                }
                offset += span;
                state.in_window += span as u64;
                if state.in_window == windows.length {
                    windows.record(&mut self.window_counts);
                    state.in_window = 0;
                }
            }
        }
        state.index += draws.len() as u64;
    }

    /// The tally so far.
    pub fn finish(self) -> StreamTally {
        self.tally
    }
}

#[cfg(test)]
mod tests;
