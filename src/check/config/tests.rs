use super::*;

const SETTINGS: CheckSettings = CheckSettings {
    threads: 2,
    alpha: 1e-6,
    source: SourceKind::Xoshiro,
    allow_underpowered: false,
};

fn error(text: &str) -> String {
    parse(text, "suite.toml", &SETTINGS).unwrap_err().to_string()
}

#[test]
fn command_cases_take_a_shell_line_or_a_program_and_the_ingest_fields() {
    let cases = parse(
        r#"
[[case]]
command = "python3 shuffle.py --seed {seed} --count {trials}"
trials = 1000
expect = "biased"

[[case]]
name = "picks"
command = ["./pick", "{seed}"]
kind = "selections"
k = 3
deck = "A B C D E"
ordered = true
seed = 9
expect = "fair"
"#,
        "suite.toml",
        &SETTINGS,
    )
    .unwrap();
    assert_eq!(cases[0].name, "python3 shuffle.py --seed {seed} --count {trials}");
    assert_eq!(cases[0].seed, DEFAULT_SEED);
    assert_eq!(cases[0].expect, Expectation::Biased);
    let CaseKind::Command(command) = &cases[0].kind else {
        panic!("a command case")
    };
    assert!(command.takes_seed());
    assert_eq!(command.trials, Some(1000));
    // Without ingest fields: whole decks, the first line fixing the deck, read with the
    // suite's threads and α.
    let defaults = IngestSettings::permutations(SETTINGS.threads, SETTINGS.alpha);
    assert_eq!(command.ingest, defaults);
    let CaseKind::Command(command) = &cases[1].kind else {
        panic!("a command case")
    };
    assert_eq!(
        command.line,
        CommandLine::Program(vec!["./pick".into(), "{seed}".into()])
    );
    assert_eq!(
        command.ingest,
        IngestSettings {
            kind: SampleKind::Selections,
            k: Some(3),
            deck: Some(["A", "B", "C", "D", "E"].map(String::from).to_vec()),
            ordered: true,
            ..defaults
        }
    );
    assert_eq!(cases[1].seed, 9);
}

#[test]
fn cases_get_names_from_what_they_run_and_names_must_differ() {
    let cases = parse(
            "[[case]]\nalgorithm = \"naive-repeated:2\"\nn = 4\ntrials = 10\nexpect = \"biased\"\n\
             [[case]]\nalgorithm = \"bag-pick\"\nn = 6\nk = 2\ntrials = 10\nexpect = \"fair\"\n\
             [[case]]\ngenerator = \"tetris-7-bag\"\nitems = \"7\"\nlength = 100\nstreams = 2\nexpect = \"fair\"\n",
            "suite.toml",
            &SETTINGS,
        )
        .unwrap();
    let names: Vec<&str> = cases.iter().map(|case| case.name.as_str()).collect();
    assert_eq!(
        names,
        ["naive-repeated:2 n=4", "bag-pick n=6 k=2", "tetris-7-bag items=7"]
    );
    let twice = "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n";
    assert_eq!(
        error(&format!("{twice}{twice}")),
        "suite.toml: case 2 (fisher-yates n=4): the name is used by an earlier case; give each case its own `name`"
    );
}

#[test]
fn each_kind_of_case_is_checked_as_run_and_stream_check_it() {
    assert_eq!(
        error("[[case]]\nalgorithm = \"bag-pick\"\nn = 6\ntrials = 10\nexpect = \"fair\"\n"),
        "suite.toml: case 1 (bag-pick): bag-pick is a sampler: give --k (how many of the n items it picks)"
    );
    assert!(
            error("[[case]]\ngenerator = \"tetris-7-bag\"\nitems = \"A:2,B:1\"\nlength = 100\nstreams = 2\nexpect = \"fair\"\n")
                .starts_with("suite.toml: case 1 (tetris-7-bag): generator 'tetris-7-bag': deals one of each item")
        );
    assert!(
        error("[[case]]\ngenerator = \"iid\"\nitems = \"3\"\nlength = 100\nexpect = \"fair\"\n")
            .ends_with("missing field 'streams' (how many streams, e.g. 100)")
    );
    assert!(
        error("[[case]]\nalgorithm = \"sattolo\"\ngenerator = \"iid\"\nexpect = \"fair\"\n")
            .contains("gives more than one of `algorithm`, `generator` and `command`")
    );
    assert!(
        error("[[case]]\nexpect = \"fair\"\n").contains("needs one of `algorithm`, `generator` or `command`")
    );
    assert!(error("[[case]]\ncommand = []\nexpect = \"fair\"\n").contains("field 'command' is empty"));
    assert!(
        error("[[case]]\nalgorithm = \"sattolo\"\nn = 4\ntrials = 10\n")
            .ends_with("missing field 'expect' (\"fair\" or \"biased\")")
    );
    assert!(
        error("[[case]]\nalgorithm = \"sattolo\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nitems = \"3\"\n")
            .contains("field 'items' does not apply to algorithm cases")
    );
    assert!(error("case = 3\n").contains("'case' must be a list of tables"));
}

#[test]
fn a_case_may_name_its_own_source_which_wins_over_the_suites() {
    let suite = CheckSettings {
        source: SourceKind::Delphi,
        ..SETTINGS
    };
    let cases = parse(
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n\
             [[case]]\nname = \"c\"\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nsource = \"msvc-rand-mod\"\n\
             [[case]]\ngenerator = \"iid\"\nitems = \"3\"\nlength = 10\nstreams = 2\nexpect = \"biased\"\nsource = \"clock-reseed\"\nclock_step = 0.5\n\
             [[case]]\nname = \"whole ms\"\ngenerator = \"iid\"\nitems = \"3\"\nlength = 10\nstreams = 2\nexpect = \"biased\"\nsource = \"clock-reseed\"\nclock_step = 2\n\
             [[case]]\ncommand = \"true\"\nexpect = \"fair\"\n",
            "suite.toml",
            &suite,
        )
        .unwrap();
    let own: Vec<Option<SourceKind>> = cases.iter().map(|case| case.source).collect();
    let half_ms = SourceKind::ClockReseed("0.5".parse().unwrap());
    let two_ms = SourceKind::ClockReseed("2".parse().unwrap());
    assert_eq!(
        own,
        [
            None,
            Some(SourceKind::MsvcRandMod),
            Some(half_ms),
            Some(two_ms),
            None
        ]
    );
    let under: Vec<Option<SourceKind>> = cases.iter().map(|case| case.source_under(&suite)).collect();
    assert_eq!(
        under,
        [
            Some(SourceKind::Delphi),
            Some(SourceKind::MsvcRandMod),
            Some(half_ms),
            Some(two_ms),
            None
        ]
    );
}

#[test]
fn bad_sources_are_one_line_errors_naming_the_field() {
    let case = |fields: &str| {
        error(&format!(
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n{fields}"
        ))
    };
    for (fields, wanted) in [
        (
            "source = \"rand\"\n",
            "suite.toml: case 1 (fisher-yates): field 'source': unknown source 'rand' (the sources are \
                 xoshiro, msvc-rand-mod, delphi, clock-reseed)",
        ),
        (
            "source = \"delphi\"\nclock_step = 1\n",
            "suite.toml: case 1 (fisher-yates): field 'clock_step' only applies to source = \
                 \"clock-reseed\" (this case's source is delphi)",
        ),
        (
            "clock_step = 1\n",
            "suite.toml: case 1 (fisher-yates): field 'clock_step' needs source = \"clock-reseed\" in \
                 the same case",
        ),
        (
            "source = \"clock-reseed\"\nclock_step = 0.0001\n",
            "suite.toml: case 1 (fisher-yates): field 'clock_step': the modelled clock counts whole \
                 microseconds: at most three decimals (got 0.0001)",
        ),
        (
            "source = \"clock-reseed\"\nclock_step = -1\n",
            "suite.toml: case 1 (fisher-yates): field 'clock_step': expected milliseconds such as 1, \
                 0.25 or 15.625 (got '-1')",
        ),
        (
            "source = \"clock-reseed\"\nclock_step = 1e9\n",
            "suite.toml: case 1 (fisher-yates): field 'clock_step': must be between 0.001 and 86400000 \
                 ms (got 1000000000000 µs)",
        ),
        (
            "source = 3\n",
            "suite.toml: case 1 (fisher-yates): field 'source': invalid type: integer `3`, expected a string",
        ),
    ] {
        assert_eq!(case(fields), wanted, "{fields}");
    }
    assert_eq!(
        error("[[case]]\ncommand = \"true\"\nexpect = \"fair\"\nsource = \"delphi\"\n"),
        "suite.toml: case 1 (true): field 'source' does not apply to command cases: a program brings \
             its own randomness"
    );
}

#[test]
fn any_case_may_allow_an_underpowered_pass() {
    let cases = parse(
        "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nallow_underpowered = true\n\
         [[case]]\ngenerator = \"iid\"\nitems = \"3\"\nlength = 10\nstreams = 2\nexpect = \"fair\"\nallow_underpowered = true\n\
         [[case]]\ncommand = \"true\"\nexpect = \"fair\"\nallow_underpowered = true\n\
         [[case]]\nname = \"d\"\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n",
        "suite.toml",
        &SETTINGS,
    )
    .unwrap();
    let allowed: Vec<bool> = cases.iter().map(|case| case.allow_underpowered).collect();
    assert_eq!(allowed, [true, true, true, false]);
    assert!(
        error("[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nallow_underpowered = \"yes\"\n")
            .contains("field 'allow_underpowered'")
    );
}
