use super::mean_and_half_width;

#[test]
fn matches_the_textbook_interval() {
    // 1, 2, 3, 4: mean 2.5, sample variance 5/3, standard error sqrt(5/12).
    let (mean, half_width) = mean_and_half_width(10.0, 30.0, 4);
    assert_eq!(mean, 2.5);
    let expected = 1.96 * (5.0_f64 / 12.0).sqrt();
    assert!(
        (half_width - expected).abs() < 1e-15,
        "{half_width} against {expected}"
    );
}

#[test]
fn no_values_and_one_value_have_no_width() {
    assert_eq!(mean_and_half_width(0.0, 0.0, 0), (0.0, 0.0));
    assert_eq!(mean_and_half_width(7.0, 49.0, 1), (7.0, 0.0));
}

#[test]
fn equal_values_have_no_width_despite_rounding() {
    // 0.1 a thousand times: the sums round, and the raw variance comes out a hair below
    // zero; the width must be 0, not NaN.
    let (mean, half_width) = mean_and_half_width(0.1 * 1000.0, 0.01 * 1000.0 + 1e-13, 1000);
    assert!((mean - 0.1).abs() < 1e-15);
    assert!(half_width < 1e-6 && !half_width.is_nan());
    let (_, half_width) = mean_and_half_width(100.0, 10.0 - 1e-12, 1000);
    assert_eq!(half_width, 0.0);
}
