//! `ingest` on deals printed as lists by real programs: Python's `print(deck)`, numpy,
//! `json.dumps`, Node's `JSON.stringify` and `console.log`. Each program deals the same
//! deals twice from one seed, once as lists and once as plain lines, and the two inputs
//! must give the same tallies and verdict. Where Python, numpy or Node is missing, the
//! cases that need it say so and are skipped (`cargo test` needs only the Rust
//! toolchain); the list reader itself is tested without them in `ingest::list`.

mod binary;

use binary::{shuffle_audit, usage_error_of};
use serde_json::Value;

/// What `program ARGS` prints, or `None` (said on standard error) when it cannot run.
fn output_of(program: &str, args: &[&str]) -> Option<Vec<u8>> {
    match std::process::Command::new(program).args(args).output() {
        Ok(output) if output.status.success() => Some(output.stdout),
        Ok(output) => {
            eprintln!(
                "skipped: {program} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            None
        }
        Err(error) => {
            eprintln!("skipped: {program} cannot run: {error}");
            None
        }
    }
}

/// `ingest - ARGS --json -` on `input`: the JSON, without what differs between two
/// readings of the same deals (times, the input's name, the command that repeats it).
fn tallies(input: &[u8], args: &[&str]) -> (Value, i32) {
    let output = shuffle_audit()
        .args(["ingest", "-"])
        .args(args)
        .args(["--json", "-", "--threads", "2"])
        .write_stdin(input.to_vec())
        .output()
        .unwrap();
    let mut json: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("no JSON; stderr: {}", String::from_utf8_lossy(&output.stderr)));
    let top = json.as_object_mut().unwrap();
    for field in [
        "elapsed_seconds",
        "trials_per_second",
        "draws_per_second",
        "threads",
    ] {
        top.remove(field);
    }
    for result in top["results"].as_array_mut().unwrap() {
        result.as_object_mut().unwrap().remove("elapsed_seconds");
    }
    // The predictability check runs its searches within a budget of wall-clock time
    // (`ingest::predictability::BUDGET`): on a loaded machine one reading may reach a
    // generator's search before the budget runs out and the other not, and their
    // lists of generators tried then differ (CI saw it with 12-card numpy deals). What
    // the lists decide is the deals, so the verdict is kept and the searches' log is not.
    if let Some(predictability) = json
        .pointer_mut("/input/predictability")
        .and_then(Value::as_object_mut)
    {
        predictability.remove("generators");
        predictability.remove("headline");
    }
    (json, output.status.code().unwrap())
}

/// Python dealing 24,000 shuffles of `deck` (a Python expression) with `random.shuffle`
/// from seed 5, printing each deal with `print_list` (an expression of `d`), and the same
/// deals again as plain lines.
fn python_deals(deck: &str, print_list: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let script = |print: &str| {
        format!(
            "import random, json\nrandom.seed(5)\nd = {deck}\nfor _ in range(24000):\n    \
             random.shuffle(d)\n    print({print})\n"
        )
    };
    let lists = output_of("python3", &["-c", &script(print_list)])?;
    let plain = output_of("python3", &["-c", &script("' '.join(map(str, d))")])?;
    Some((lists, plain))
}

#[test]
fn python_lists_are_the_same_deals_as_plain_lines() {
    for (deck, print_list, first_line) in [
        ("list('ABCD')", "d", "['"),              // print(deck)
        ("[3, 1, 2, 0]", "d", "["),               // numbers
        ("['10', 'J', 'Q', 'K']", "d", "['"),     // quoted numbers
        ("list('ABCD')", "json.dumps(d)", "[\""), // json.dumps
        ("list('ABCD')", "tuple(d)", "('"),       // a tuple
        ("['♠A', '♥K', '♦Q', '♣J']", "d", "['"),  // not ASCII
        ("[\"it's\", 'B', 'C', 'D']", "d", "["),  // double quotes for one item
    ] {
        let Some((lists, plain)) = python_deals(deck, print_list) else {
            return;
        };
        assert!(lists.starts_with(first_line.as_bytes()), "{deck} {print_list}");
        let (from_lists, status) = tallies(&lists, &[]);
        assert_eq!((from_lists, status), tallies(&plain, &[]), "{deck} {print_list}");
        // Random.shuffle is fair: 1,000 deals expected per order, a pass by a wide margin
        // at α = 1e-6 (the seed is fixed).
        assert_eq!(status, 0, "{deck} {print_list}");
    }
}

#[test]
fn numpy_arrays_are_the_same_deals_as_plain_lines() {
    if output_of("python3", &["-c", "import numpy"]).is_none() {
        return;
    }
    for (deck, print) in [
        ("np.array([3, 1, 2, 0])", "print(rng.permutation(d))"), // [3 1 2 0]
        ("np.array(list('ABCD'))", "print(rng.permutation(d))"), // ['C' 'A' 'B' 'D']
        ("np.arange(12)", "print(rng.permutation(d).tolist())"), // a long array, one line
    ] {
        let script = |print: &str| {
            format!(
                "import numpy as np\nrng = np.random.default_rng(3)\nd = {deck}\n\
                 for _ in range(6000):\n    {print}\n"
            )
        };
        let lists = output_of("python3", &["-c", &script(print)]).unwrap();
        let plain = output_of(
            "python3",
            &["-c", &script("print(' '.join(map(str, rng.permutation(d))))")],
        )
        .unwrap();
        assert_eq!(lists[0], b'[', "{deck}");
        assert_eq!(tallies(&lists, &[]), tallies(&plain, &[]), "{deck}");
    }
    // numpy wraps a long array over several lines: refused at the first, with a hint.
    let wrapped = output_of("python3", &["-c", "import numpy as np\nprint(np.arange(52))"]).unwrap();
    let mut ingest = shuffle_audit();
    ingest.args(["ingest", "-"]).write_stdin(wrapped);
    let error = usage_error_of(ingest);
    assert!(
        error.contains("line 1: '[' opens a list that this line does not close with ']'")
            && error.contains("deck.tolist()"),
        "{error}"
    );
}

#[test]
fn node_arrays_are_the_same_deals_as_plain_lines() {
    let script = |print: &str| {
        // A small fixed generator (JavaScript's Math.random cannot be seeded), and
        // Fisher-Yates: the same deals for every way of printing them.
        format!(
            "let s = 7; const next = () => (s = (s * 48271) % 2147483647) / 2147483647;\n\
             const d = ['A', 'B', 'C', 'D'];\n\
             for (let t = 0; t < 12000; t++) {{\n\
               for (let i = d.length - 1; i > 0; i--) {{ const j = Math.floor(next() * (i + 1)); [d[i], d[j]] = [d[j], d[i]]; }}\n\
               {print};\n\
             }}"
        )
    };
    let Some(plain) = output_of("node", &["-e", &script("console.log(d.join(' '))")]) else {
        return;
    };
    for print in ["console.log(JSON.stringify(d))", "console.log(d)"] {
        let lists = output_of("node", &["-e", &script(print)]).unwrap();
        assert_eq!(lists[0], b'[', "{print}");
        assert_eq!(tallies(&lists, &[]), tallies(&plain, &[]), "{print}");
    }
    // console.log puts an array of more than six items on several lines.
    let long = output_of("node", &["-e", "console.log([...'ABCDEFGHIJ'])"]).unwrap();
    assert_eq!(long.split(|&byte| byte == b'\n').next(), Some(&b"["[..]));
    let mut ingest = shuffle_audit();
    ingest.args(["ingest", "-"]).write_stdin(long);
    let error = usage_error_of(ingest);
    assert!(
        error.contains("line 1: '[' opens a list that this line does not close")
            && error.contains("JSON.stringify(deck)"),
        "{error}"
    );
}

#[test]
fn selections_streams_and_deck_options_read_lists_too() {
    let plain = "A B\nC A\nB C\nA C\n".repeat(50);
    let lists = "['A', 'B']\n[\"C\",\"A\"]\n[B C]\n('A', 'C')\n".repeat(50);
    // (arguments for the lists, the same for the plain lines)
    for (list_args, plain_args) in [
        (&["--kind", "selections"][..], &["--kind", "selections"][..]),
        (
            &["--kind", "selections", "--deck", "['C', 'B', 'A']"],
            &["--kind", "selections", "--deck", "C B A"],
        ),
        (&["--kind", "stream"], &["--kind", "stream"]),
        (
            &["--kind", "stream", "--deck", "[\"C\",\"B\",\"A\"]"],
            &["--kind", "stream", "--deck", "C B A"],
        ),
    ] {
        // The command that repeats the run writes a --deck list back as its names.
        assert_eq!(
            tallies(lists.as_bytes(), list_args),
            tallies(plain.as_bytes(), plain_args),
            "{list_args:?}"
        );
    }
}

#[test]
fn a_malformed_list_is_named_by_its_line_or_skipped_as_one() {
    let good = "['A', 'B', 'C']\n";
    for (bad, problem) in [
        ("['A', 'B', 'C'", "'[' opens a list that this line does not close"),
        ("['A', 'B', 'C]", "the single quote before 'C' is never closed"),
        ("['A', B, 'C']", "the list mixes quoted and bare items (at B)"),
        (
            "[A, B C]",
            "the list separates some items by commas and others by spaces",
        ),
        ("['A', 'B',, 'C']", "two commas in a row"),
    ] {
        let input = format!("{}{bad}\n{good}", good.repeat(2));
        let mut ingest = shuffle_audit();
        ingest.args(["ingest", "-"]).write_stdin(input.clone());
        let error = usage_error_of(ingest);
        assert!(
            error.starts_with(&format!("shuffle-audit: error: line 3: {problem}")),
            "{bad}: {error}"
        );
        let (json, _) = tallies(input.as_bytes(), &["--skip-invalid"]);
        assert_eq!(
            json["input"]["skipped"],
            serde_json::json!([{"reason": "malformed list", "count": 1, "first_line": 3}]),
            "{bad}"
        );
    }
    // The line that fixes the deck is checked as strictly, and pieces of a list are not
    // card names.
    for (first, problem) in [
        ("['A', 'B'", "line 1: '[' opens a list"),
        ("'A' 'B' 'C'", "line 1: item ''A'' starts with a quote"),
        ("A, B, C]", "line 1: item 'C]' has unbalanced brackets"),
    ] {
        let mut ingest = shuffle_audit();
        ingest.args(["ingest", "-"]).write_stdin(format!("{first}\n"));
        let error = usage_error_of(ingest);
        assert!(error.contains(problem), "{error}");
    }
}
