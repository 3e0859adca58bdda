use super::*;

fn tally_of(streams: &[&[u16]], layout: StreamLayout) -> StreamTally {
    let mut recorder = StreamRecorder::new(&layout);
    for stream in streams {
        recorder.record_stream(&mut stream.iter());
    }
    recorder.finish()
}

fn layout(items: usize, length: u64) -> StreamLayout {
    StreamLayout {
        items,
        length,
        cycle: None,
        cycle_gaps: false,
        window: None,
    }
}

#[test]
fn runs_and_gaps_match_a_hand_count() {
    // A A B A C C C B: complete runs A2 B1 A1 C3 (the final B is cut off);
    // gaps A: 3 (0 → 3), B: 5 (2 → 7), C: 1, 1.
    let tally = tally_of(&[&[0, 0, 1, 0, 2, 2, 2, 1]], layout(3, 8));
    assert_eq!(tally.frequencies, [3, 2, 3]);
    assert_eq!(tally.runs[0].iter().collect::<Vec<_>>(), [(1, 1), (2, 1)]);
    assert_eq!(tally.runs[1].total(), 1, "the last run is cut off");
    assert_eq!(tally.longest_run, [2, 1, 3]);
    assert_eq!(tally.gaps[0].iter().collect::<Vec<_>>(), [(1, 1), (2, 1)]);
    assert_eq!(tally.gaps[1].iter().collect::<Vec<_>>(), [(5, 1)]);
    assert_eq!(tally.gaps[2].iter().collect::<Vec<_>>(), [(1, 2)]);
    assert_eq!(tally.all_runs().total(), 4);
    assert_eq!(tally.all_gaps().mean(), Some((1.0 + 2.0 + 5.0 + 1.0 + 1.0) / 5.0));
}

#[test]
fn cycles_windows_and_repeats_are_counted_over_complete_cycles() {
    let layout = StreamLayout {
        items: 3,
        length: 7,
        cycle: Some(CycleLayout::new(3, 3, true)),
        cycle_gaps: true,
        window: Some((3, vec![1, 1, 1])),
    };
    // Cycles [0 1 2] [0 2 1] and a partial [2].
    let tally = tally_of(&[&[0, 1, 2, 0, 2, 1, 2]], layout);
    assert_eq!(
        tally.cycle_positions.as_ref().unwrap(),
        &[2, 0, 0, 0, 1, 1, 0, 1, 1]
    );
    assert_eq!(
        tally.repeats,
        Some(RepeatTally {
            cycle_pairs: 1,
            matches: 1
        })
    );
    let windows = tally.windows.unwrap();
    assert_eq!(windows.windows, 2);
    assert_eq!(
        (0..3).map(|i| windows.largest_deviation(i)).collect::<Vec<_>>(),
        [0.0; 3]
    );
    assert_eq!(windows.expected(0), 1.0);
}

#[test]
fn merging_equals_recording_together() {
    let streams: [&[u16]; 3] = [&[0, 1, 1, 0], &[1, 1, 1, 1], &[0, 0, 1, 0]];
    let together = tally_of(&streams, layout(2, 4));
    let mut split = tally_of(&streams[..1], layout(2, 4));
    split.merge(&tally_of(&streams[1..], layout(2, 4)));
    assert_eq!(together, split);
    assert_eq!(together.longest_run, [2, 4]);
}

#[test]
fn an_open_stream_fed_in_pieces_equals_the_stream_recorded_whole() {
    let stream: Vec<u16> = (0..20_000u32).map(|i| ((i * i + i / 7) % 3) as u16).collect();
    let windowed = |length| StreamLayout {
        window: Some((3, vec![1, 1, 1])),
        ..layout(3, length)
    };
    let whole = tally_of(&[&stream], windowed(stream.len() as u64));
    let mut open = StreamRecorder::open(&windowed(0));
    for piece in stream.chunks(777) {
        open.extend(piece);
    }
    assert_eq!(open.finish_open_stream(), whole);
    // A window longer than the stream is dropped, as `stream` never sets one up.
    let mut short = StreamRecorder::open(&windowed(0));
    short.extend(&[0, 1]);
    assert_eq!(short.finish_open_stream().windows, None);
}

#[test]
fn histograms_fold_and_keep_long_values() {
    let mut histogram = Histogram::default();
    for value in [1, 1, 3, 70_000, 5] {
        histogram.add(value);
    }
    assert_eq!(histogram.max(), 70_000);
    assert_eq!(histogram.folded(3), [2, 0, 3]);
    assert_eq!(CycleLayout::new(10, 3, false).bounds, [0, 4, 7, 10]);
}
