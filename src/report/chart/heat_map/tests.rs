use super::*;

/// An n × n table of `trials` shuffles, cards drifting toward early or late
/// positions, the corners by ×(1 + `strength`) and its inverse (a fixed smooth
/// pattern, no randomness).
fn table(n: usize, trials: f64, strength: f64) -> HeatMap {
    let p = 1.0 / n as f64;
    let (mut observed, mut expected, mut deviation) = (vec![], vec![], vec![]);
    for card in 0..n {
        for position in 0..n {
            let x = card as f64 / (n - 1) as f64 - 0.5;
            let y = 0.5 - position as f64 / (n - 1) as f64;
            let e = trials * p;
            expected.push(e);
            deviation.push((trials * p * (1.0 - p)).sqrt());
            observed.push((e * (1.0 + strength).powf(4.0 * x * y)).round() as u64);
        }
    }
    HeatMap {
        titles: Titles {
            title: format!("naive-swap · {n} cards · {trials} shuffles · seed 1"),
            subtitle: "where each card ended up".to_string(),
        },
        rows: (1..=n).map(|i| i.to_string()).collect(),
        columns: (1..=n).map(|i| i.to_string()).collect(),
        row_axis: "card".to_string(),
        column_axis: "position".to_string(),
        observed,
        expected,
        standard_deviation: deviation,
    }
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn muted_cells(svg: &str) -> usize {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("#E4E4E4"))
        .count()
}

#[test]
fn three_by_three_draws_nine_cells_with_their_ratios() {
    let svg = heat_map(&table(3, 600_000.0, 0.35));
    parse(&svg);
    assert_eq!(count_cells(&svg), 9);
    // Corners are off by ×1.35 and ×0.74, the middle row and column are exact.
    assert!(svg.contains(">\n×1.35\n<"));
    assert!(svg.contains(">\n×0.74\n<"));
    assert_eq!(svg.matches(">\n×1.00\n<").count(), 5);
    assert_eq!(muted_cells(&svg), 5);
    assert!(svg.contains("observed / expected"));
    assert!(svg.contains("grey: within the"));
    assert!(!svg.contains("each cell sums"));
}

#[test]
fn the_scale_fits_the_largest_significant_deviation() {
    let svg = heat_map(&table(3, 600_000.0, 0.35));
    // ln 1.35 is the reach: the bar's ends are ×1.35 and ×0.74.
    assert!(svg.contains(">\n×1.35\n<"));
    assert!(svg.contains(">\n×0.74\n<"));
    // A fair table: nothing significant, everything grey, the all-grey scale.
    let fair = heat_map(&table(3, 600_000.0, 0.0));
    assert_eq!(muted_cells(&fair), 9);
    assert!(fair.contains(">\n×1.05\n<"));
}

#[test]
fn a_small_significant_bias_fills_the_scale() {
    // A 0.2 % bias on 3 × 10^9 shuffles: each corner is 2.2e-3 from ×1 at 3 cards,
    // where 3.29 sd of a cell is 2.1e-5 of its count: significant, and the scale
    // reaches it (×1.0020, four decimals) instead of painting it near white on a
    // ×1.05 scale.
    let map = table(3, 3e9, 0.002);
    let chart = Chart::new(&map);
    assert!((chart.reach - 1.002f64.ln()).abs() < 1e-5, "{}", chart.reach);
    let svg = heat_map(&map);
    assert!(svg.contains(">\n×1.0020\n<"), "the bar's top label");
    assert_eq!(muted_cells(&svg), 5);
    // The corners are full red and full blue, as a ×1.35 corner is on its own scale.
    let corners: Vec<RGBColor> = [0, 2].map(|k| chart.color(k)).to_vec();
    assert!(
        corners.contains(&DIVERGING[0]) && corners.contains(&DIVERGING[4]),
        "{corners:?}"
    );
}

#[test]
fn a_cell_just_outside_its_band_is_painted_at_about_half_strength() {
    // A fair table where one cell lies 3.5 sd high, as one in a few thousand do by
    // chance: significant, but the scale reaches twice the band (2 × 3.29 sd), so it
    // is painted at about 3.5 / 6.58 of full strength, not as a finding in full red.
    let mut map = table(3, 600_000.0, 0.0);
    let sd = map.standard_deviation[4];
    map.observed[4] = (map.expected[4] + 3.5 * sd).round() as u64;
    let chart = Chart::new(&map);
    let band = BAND_Z * sd / map.expected[4];
    assert!((chart.reach - (2.0 * band).ln_1p()).abs() < 1e-12);
    let t = chart.table.ratio(4).ln() / chart.reach;
    assert!((0.45..0.6).contains(&t), "{t}");
    assert_ne!(chart.color(4), DIVERGING[4]);
    assert_ne!(chart.color(4), MUTED);
}

#[test]
fn a_noise_floor_beyond_the_widest_scale_stops_at_it() {
    // 3 deals of 12 cards (issue 30): each cell expects 0.25, its band is ±1.58, so
    // the noise floor (twice the band, ×13.6) lies beyond the ×8 scale; a corner dealt
    // twice (×8, significant) is drawn on the ×8 scale instead of panicking.
    let map = table(12, 3.0, 7.0);
    assert!(Chart::new(&map).table.noise_floor() > SCALE_MAX);
    assert!(map.observed.contains(&2));
    let chart = Chart::new(&map);
    assert_eq!(chart.reach, SCALE_MAX);
    let svg = heat_map(&map);
    parse(&svg);
    assert_eq!(count_cells(&svg), 144);
    assert!(svg.contains(">\n×8.00\n<"), "the bar's top label");
}

#[test]
fn extreme_cells_saturate_and_the_scale_says_so() {
    let mut map = table(3, 600_000.0, 0.35);
    map.observed[4] = 2_000_000; // ×30 in the middle
    map.observed[3] = 0;
    let svg = heat_map(&map);
    assert!(svg.contains("≥ ×8"));
    assert!(svg.contains("≤ ×0.1"));
    assert_eq!(fixed_decimals(1.1, 2), "×1.10");
    assert_eq!(fixed_decimals(0.25, 2), "×0.25");
    assert_eq!(fixed_decimals(30.0, 2), "×30");
    assert_eq!(fixed_decimals(f64::NAN, 2), "–");
    assert_eq!(fixed_decimals(1.0013, 4), "×1.0013");
    assert_eq!(decimals_for(1.35f64.ln()), 2);
    assert_eq!(decimals_for(1.0013f64.ln()), 4);
    assert_eq!(decimals_for(SCALE_MIN), 5);
    assert_eq!(decimals_for(SCALE_MAX), 2);
    assert_eq!(decimals_for(SCALE_WHEN_ALL_GREY), 2);
    assert_eq!(decimals_for(1.0099f64.ln()), 4);
    assert_eq!(decimals_for(1.014f64.ln()), 3);
}

#[test]
fn large_tables_are_summed_into_at_most_100_by_100_cells() {
    let svg = heat_map(&table(150, 1_000_000.0, 0.3));
    parse(&svg);
    assert_eq!(count_cells(&svg), 75 * 75);
    assert!(svg.contains("where each card ended up · each cell sums a block of 2 rows × 2 columns"));
    assert!(svg.contains("1–2"), "block labels");

    let svg = heat_map(&table(100, 1_000_000.0, 0.3));
    assert_eq!(count_cells(&svg), 100 * 100);
    assert!(!svg.contains("each cell sums"));
    // Sparse labels on a 100 × 100 map.
    assert!(svg.contains(">\n10\n<") && !svg.contains(">\n11\n<"));
}

#[test]
fn rectangular_tables_and_blocks() {
    let mut map = table(4, 40_000.0, 0.2);
    map.rows = ["A", "B", "C", "D"].map(String::from).to_vec();
    map.columns = ["1–3", "4–6", "7–9", "10–12"].map(String::from).to_vec();
    assert_eq!(count_cells(&heat_map(&map)), 16);

    // Few rows, many columns: longer cells down, not a thin strip.
    let strip = HeatMap {
        rows: (1..=3).map(|i| i.to_string()).collect(),
        columns: (1..=100).map(|i| i.to_string()).collect(),
        observed: vec![10; 300],
        expected: vec![10.0; 300],
        standard_deviation: vec![3.0; 300],
        ..map.clone()
    };
    let chart = Chart::new(&strip);
    assert_eq!(chart.cell, (5, 15));
    assert!(chart.legend_left > chart.map.right());
    assert_eq!(count_cells(&heat_map(&strip)), 300);

    let table = Table::new(&HeatMap {
        rows: (0..250).map(|i| i.to_string()).collect(),
        columns: (0..3).map(|i| i.to_string()).collect(),
        observed: vec![1; 750],
        expected: vec![1.0; 750],
        standard_deviation: vec![1.0; 750],
        ..map
    });
    assert_eq!(table.block, (3, 1));
    assert_eq!(table.rows.len(), 84);
    assert_eq!(table.rows[83], "249");
    assert_eq!(table.rows[0], "0–2");
    assert_eq!(table.observed[0], 3.0);
    assert_eq!(table.variance[0], 3.0);
    assert_eq!(table.observed[83 * 3], 1.0);
}

#[test]
fn no_cell_colour_is_a_bar_colour() {
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    for i in -1000..=1000 {
        let fill = hex(diverging(f64::from(i) / 1000.0));
        assert!(fill != super::super::BAR_FILL && fill != super::super::OUTSIDE_FILL);
    }
}

#[test]
fn the_diverging_scale_is_blue_white_red() {
    assert_eq!(diverging(-1.0), DIVERGING[0]);
    assert_eq!(diverging(0.0), DIVERGING[2]);
    assert_eq!(diverging(1.0), DIVERGING[4]);
    assert_eq!(diverging(5.0), DIVERGING[4]);
    let halfway = diverging(0.25);
    assert!(halfway.0 > halfway.2, "reddish");
    assert!(diverging(-0.25).2 > diverging(-0.25).0, "bluish");
    assert_eq!(diverging(f64::NAN), DIVERGING[2]);
}

#[test]
fn missing_data_and_empty_tables_do_not_break() {
    let mut map = table(3, 600.0, 0.0);
    map.observed.truncate(4);
    map.expected[0] = 0.0;
    let svg = heat_map(&map);
    parse(&svg);
    assert_eq!(count_cells(&svg), 9);
    let empty = HeatMap {
        rows: vec![],
        columns: vec![],
        ..table(3, 600.0, 0.0)
    };
    let svg = heat_map(&empty);
    parse(&svg);
    assert_eq!(count_cells(&svg), 0);
}

#[test]
fn hostile_labels_are_escaped() {
    let mut map = table(3, 600.0, 0.0);
    map.rows[0] = "<script>alert(1)</script>".to_string();
    map.columns[1] = "&\"'".to_string();
    map.titles.title = "<script>alert(1)</script>".to_string();
    map.titles.subtitle = "<b>".to_string();
    let svg = heat_map(&map);
    let doc = parse(&svg);
    assert!(!svg.contains("<script") && !svg.contains("<b>"));
    assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // The row label, cut to fit, is escaped too.
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    assert!(
        texts.iter().filter(|t| t.starts_with("<script>alert")).count() >= 2,
        "{texts:?}"
    );
    assert!(svg.contains("&amp;&quot;&apos;"));
}

#[test]
fn the_same_input_draws_the_same_svg() {
    let map = table(52, 1_000_000.0, 0.3);
    assert_eq!(heat_map(&map), heat_map(&map));
}
