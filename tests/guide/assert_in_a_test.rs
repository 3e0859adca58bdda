use rand::RngExt;

/// The shuffle under test: anything that shuffles a slice in place with a rand generator.
fn my_shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..=i));
    }
}

#[test]
fn my_shuffle_is_fair() {
    shuffle_audit::assert_fair_shuffle(my_shuffle);
}
