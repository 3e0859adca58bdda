use super::super::{BAR_FILL, OUTSIDE_FILL, Titles, binomial_band, count_bars};
use super::*;

fn titles(title: &str) -> Titles {
    Titles {
        title: title.to_string(),
        subtitle: "how often each order came out".to_string(),
    }
}

/// naive-swap on 3 cards, 600,000 shuffles: four of the six orders are off by 11 %.
fn naive_swap() -> Bars {
    let observed = vec![88_927, 111_030, 111_245, 110_835, 88_848, 89_115];
    let labels = ["1 2 3", "1 3 2", "2 1 3", "2 3 1", "3 1 2", "3 2 1"];
    Bars {
        titles: titles("naive-swap · 3 cards · 600,000 shuffles · seed 1"),
        labels: labels.iter().map(|l| l.to_string()).collect(),
        expected: vec![100_000.0; 6],
        band: vec![binomial_band(600_000, 1.0 / 6.0); 6],
        observed,
        x_axis: "order".to_string(),
        y_axis: "shuffles".to_string(),
        log_scale: false,
        reference: None,
    }
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn fills(svg: &str, fill: &str) -> usize {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(fill))
        .count()
}

#[test]
fn six_orders_make_six_bars_and_the_biased_ones_stand_out() {
    let svg = bars(&naive_swap());
    parse(&svg);
    assert_eq!(count_bars(&svg), 6);
    // Every order of naive-swap on 3 cards is outside its band.
    assert_eq!(fills(&svg, OUTSIDE_FILL), 6);
    assert_eq!(fills(&svg, BAR_FILL), 0);
    assert!(svg.contains("outside it: 6 of 6 bars"));
    // Few bars: every label and every count is written.
    for text in ["1 2 3", "3 2 1", "111,030", "88,848", "100,000"] {
        assert!(svg.contains(text), "{text}");
    }
}

#[test]
fn bars_within_their_band_are_calm() {
    let mut fair = naive_swap();
    fair.observed = vec![100_120, 99_870, 100_400, 99_650, 100_010, 99_950];
    let svg = bars(&fair);
    assert_eq!(fills(&svg, BAR_FILL), 6);
    assert_eq!(count_bars(&svg), 6);
    assert!(svg.contains("outside it: 0 of 6 bars"));
}

#[test]
fn no_other_element_uses_the_bar_fills() {
    let svg = bars(&naive_swap());
    let doc = parse(&svg);
    for node in doc.descendants().filter(|n| n.is_element()) {
        if matches!(node.attribute("fill"), Some(BAR_FILL) | Some(OUTSIDE_FILL)) {
            assert!(node.has_tag_name("rect"), "{node:?}");
        }
    }
}

/// Fisher–Yates on 6 cards: 720 orders near 833 each, a few at the edge.
fn six_cards() -> Bars {
    let observed: Vec<u64> = (0..720u64).map(|i| 833 + (i * 37 % 61) - 30).collect();
    let mut observed = observed;
    observed[5] = 0;
    observed[700] = 1_000;
    let band = binomial_band(600_000, 1.0 / 720.0);
    Bars {
        titles: titles("fisher-yates · 6 cards · 600,000 shuffles · seed 1"),
        labels: (0..720).map(|i| format!("order {i}")).collect(),
        expected: vec![600_000.0 / 720.0; 720],
        band: vec![band; 720],
        observed,
        x_axis: "order".to_string(),
        y_axis: "shuffles".to_string(),
        log_scale: false,
        reference: None,
    }
}

#[test]
fn seven_hundred_twenty_bars_with_sparse_labels() {
    let svg = bars(&six_cards());
    parse(&svg);
    assert_eq!(count_bars(&svg), 720);
    assert_eq!(fills(&svg, OUTSIDE_FILL), 2, "the zero and the 1,000");
    // Sparse labels: the first order is labelled, its neighbour is not.
    assert!(svg.contains(">\norder 0\n<"));
    assert!(!svg.contains(">\norder 1\n<"));
    assert!(svg.contains(">\norder 99\n<"), "the 100th");
    assert!(svg.contains("every 100th labelled"));
    // Bars sit edge to edge within the plot and never leave it.
    let doc = parse(&svg);
    let xs: Vec<i32> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter_map(|n| n.attribute("x")?.parse().ok())
        .collect();
    assert_eq!(xs.len(), 720);
    assert!(xs.windows(2).all(|w| w[1] == w[0] + 1), "one pixel apart");
}

#[test]
fn level_labels_never_overlap() {
    for n in [3, 10, 24, 25, 60, 120, 720] {
        let mut chart_bars = six_cards();
        chart_bars.observed.truncate(n);
        chart_bars.labels = (0..n).map(|i| format!("{}", i + 1)).collect();
        let chart = Chart::new(&chart_bars);
        let shown: Vec<usize> = match chart.labels {
            Labels::Level { .. } => (0..n).collect(),
            Labels::Sparse { ref shown, .. } => shown.clone(),
            Labels::Upright { .. } => panic!("short labels stay level"),
        };
        for pair in shown.windows(2) {
            let half = |i: usize| TICK_FONT.width(&chart.texts[i]) / 2.0;
            let centre = |i: usize| {
                let (l, r) = chart.slot(i);
                f64::from(l + r) / 2.0
            };
            let space = centre(pair[1]) - centre(pair[0]);
            assert!(space >= half(pair[0]) + half(pair[1]) + 4.0, "{n} bars: {pair:?}");
        }
    }
}

#[test]
fn long_labels_of_few_bars_stand_upright() {
    let mut long = naive_swap();
    long.labels = (0..6)
        .map(|i| format!("a rather long outcome name {i}"))
        .collect();
    let svg = bars(&long);
    assert!(svg.contains("rotate(270"));
    assert_eq!(count_bars(&svg), 6);
}

/// Run lengths: geometric counts from a million down to nothing.
fn runs() -> Bars {
    let observed: Vec<u64> = (0..20)
        .map(|i| 1_000_000u64 >> i)
        .map(|c| c / 1000 * 1000)
        .collect();
    let expected: Vec<f64> = (0..20).map(|i| 1e6 / 2f64.powi(i)).collect();
    let band = expected
        .iter()
        .map(|&e| ((e - BAND_Z_TEST * e.sqrt()).max(0.0), e + BAND_Z_TEST * e.sqrt()))
        .collect();
    Bars {
        titles: titles("runs"),
        labels: (1..=20).map(|i| i.to_string()).collect(),
        observed,
        expected,
        band,
        x_axis: "run length".to_string(),
        y_axis: "runs".to_string(),
        log_scale: true,
        reference: None,
    }
}
const BAND_Z_TEST: f64 = super::super::BAND_Z;

#[test]
fn log_scale_keeps_every_bar_including_zeros() {
    let runs = runs();
    let zeros = runs.observed.iter().filter(|&&c| c == 0).count();
    assert!(zeros >= 5, "{zeros}");
    let svg = bars(&runs);
    parse(&svg);
    assert_eq!(count_bars(&svg), 20);
    assert!(svg.contains("(log scale)"));
    assert!(svg.contains("1,000,000"), "powers of ten on the axis");
    assert!(svg.contains(&format!("the {zeros} bars counting 0 are empty")));
    // A zero count is a rect of height zero, not a missing rect.
    let doc = parse(&svg);
    let flat = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("height") == Some("0"))
        .count();
    assert_eq!(flat, zeros);
}

#[test]
fn zero_counts_on_a_linear_axis_are_bars_too() {
    let mut sparse = naive_swap();
    sparse.observed = vec![0, 0, 5, 0, 1, 0];
    sparse.expected = vec![1.0; 6];
    sparse.band = vec![binomial_band(6, 1.0 / 6.0); 6];
    let svg = bars(&sparse);
    assert_eq!(count_bars(&svg), 6);
    assert_eq!(fills(&svg, OUTSIDE_FILL), 1, "only the 5");
}

/// The most corners of any line in the expected line's colour.
fn expected_corners(svg: &str) -> usize {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#222222"))
        .filter_map(|n| n.attribute("points"))
        .map(|p| p.split_whitespace().count())
        .max()
        .unwrap_or(0)
}

#[test]
fn uneven_expectations_draw_a_step_and_even_ones_a_line() {
    // The step has two corners per bar.
    assert!(expected_corners(&bars(&runs())) >= 40);
    assert!(expected_corners(&bars(&naive_swap())) <= 8);
}

#[test]
fn hostile_labels_are_escaped() {
    let mut hostile = naive_swap();
    hostile.titles.title = "<script>alert(1)</script> & \"quoted\" 'single'".to_string();
    hostile.titles.subtitle = "a < b & c".to_string();
    hostile.labels[0] = "<script>alert(1)</script>".to_string();
    hostile.x_axis = "x & <y>".to_string();
    hostile.y_axis = "\"'\u{0}".to_string();
    let svg = bars(&hostile);
    let doc = parse(&svg);
    assert!(!svg.contains("<script"));
    assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(svg.contains("&amp; &quot;quoted&quot; &apos;single&apos;"));
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("<script>alert(1)</script> & \"quoted\""))
    );
    assert!(texts.iter().any(|t| t.contains("x & <y>")));
}

#[test]
fn the_same_input_draws_the_same_svg() {
    for input in [naive_swap(), six_cards(), runs()] {
        assert_eq!(bars(&input), bars(&input));
    }
}

#[test]
fn nothing_to_draw_is_still_a_chart() {
    let empty = Bars {
        labels: vec![],
        observed: vec![],
        expected: vec![],
        band: vec![],
        ..naive_swap()
    };
    let svg = bars(&empty);
    parse(&svg);
    assert_eq!(count_bars(&svg), 0);
    assert!(svg.contains("nothing to draw"));
}

#[test]
fn ordinals() {
    assert_eq!(ordinal(2), "2nd");
    assert_eq!(ordinal(3), "3rd");
    assert_eq!(ordinal(11), "11th");
    assert_eq!(ordinal(21), "21st");
    assert_eq!(ordinal(120), "120th");
    assert_eq!(ordinal(1), "bar");
}
