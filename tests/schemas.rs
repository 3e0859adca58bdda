//! The JSON Schemas in `schemas/` against the types that write the documents, and real
//! documents of every command against the schemas.
//!
//! The committed schemas must be exactly what the output types generate
//! (`shuffle_audit::output::json::schemas`), so a changed field changes a committed file
//! and no format changes by accident. After a deliberate change, regenerate them with
//!
//! ```sh
//! UPDATE_SCHEMAS=1 cargo test --release --test schemas
//! ```
//!
//! and raise `SCHEMA_VERSION` as its comment says. Every JSON document the command-line
//! tests read through `binary::exits_as_its_json` is validated too; here each command
//! (and each shape of result: shuffles with the guessing game, samplers, ingested decks
//! and streams, merged shards, exact laws with their games, position matrices and
//! riffles) is run once on purpose, and a document changed by hand is shown to fail.

mod binary;

use std::path::{Path, PathBuf};

use binary::{
    assert_valid, command, exits_as_its_json, json_of, merged, shard_files, shuffle_audit, shuffled_lines,
    validator,
};
use serde_json::Value;

fn schema_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/{name}.schema.json"))
}

#[test]
fn the_committed_schemas_are_the_ones_the_output_types_generate() {
    let update = std::env::var_os("UPDATE_SCHEMAS").is_some_and(|value| value == "1");
    let mut stale = Vec::new();
    for (name, schema) in shuffle_audit::output::json::schemas() {
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        let path = schema_path(name);
        if update {
            // Atomically: the other tests of this file read the schemas meanwhile.
            let mut file = tempfile::NamedTempFile::new_in(path.parent().unwrap()).unwrap();
            std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
            file.persist(&path).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these schemas differ from what the output types generate: {}\n\
         if the format change is deliberate, run \
         `UPDATE_SCHEMAS=1 cargo test --release --test schemas` \
         and raise SCHEMA_VERSION (src/output/json.rs)",
        stale.join(", ")
    );
    // No stray schema of a document that is gone.
    let names: Vec<&str> = shuffle_audit::output::json::schemas()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for entry in std::fs::read_dir(schema_path("x").parent().unwrap()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let stem = file.strip_suffix(".schema.json").unwrap_or(&file);
        assert!(names.contains(&stem), "schemas/{file} belongs to no document");
    }
}

#[test]
fn every_schema_is_a_valid_json_schema_and_requires_its_version() {
    for (name, _) in shuffle_audit::output::json::schemas() {
        let schema: Value = serde_json::from_slice(&std::fs::read(schema_path(name)).unwrap()).unwrap();
        jsonschema::meta::validate(&schema).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(
            schema["required"]
                .as_array()
                .is_some_and(|required| required.contains(&Value::from("schema_version"))),
            "{name} does not require schema_version"
        );
        assert_eq!(schema["additionalProperties"], false, "{name}");
    }
}

#[test]
fn documents_of_every_command_validate_and_carry_the_schema_version() {
    let version = shuffle_audit::output::json::SCHEMA_VERSION;
    let output = command("list --json").output().unwrap();
    let list: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&list);
    assert_eq!(list["schema_version"], version);
    let lines = [
        "run naive-swap fisher-yates --n 3 --trials 6000 --seed 1",
        // The shelf machine and a riffle on 52 cards: the guessing game is played.
        "run shelf:10 riffles:1 --n 52 --trials 20000 --seed 1",
        "run fisher-yates --n 4 --trials 2000 --seed 1 --source clock-reseed",
        "run bag-pick-c partial-fisher-yates --n 8 --k 3 --trials 20000 --seed 1",
        "stream iid shuffle-bag --items 3 --length 200 --streams 4 --seed 1",
        "exact naive-swap fisher-yates --n 3",
        "exact shelf:4 --n 5",
        "exact partial-fisher-yates bag-pick --n 5 --k 2",
        "exact naive-swap --n 20 --positions",
        "exact riffles:3 --n 52",
        "exact fisher-yates --n 3 --source delphi",
        "seeds reach --source delphi --n 4 --seed-bits 8",
    ];
    for line in lines {
        let document = json_of(line);
        assert_eq!(document["schema_version"], version, "{line}");
        if line.contains("shelf:10") {
            let guessing = &document["results"][0]["guessing"];
            assert!(guessing["log10_p_value"].is_number(), "{line}: {guessing}");
        }
        if line.contains("shelf:4") {
            let guessing = &document["results"][0]["guessing"];
            assert!(guessing["excess"].is_number(), "{line}: {guessing}");
        }
    }
}

#[test]
fn ingest_check_merge_and_crack_documents_validate() {
    let dir = tempfile::tempdir().unwrap();
    // Ingested decks (a run's document with labels and input) and an ingested stream.
    let decks = shuffled_lines("fisher-yates", &["a", "b", "c"], 3000, 7);
    for (input, kind) in [(decks, None), ("x y z x y z y x z\n".repeat(100), Some("stream"))] {
        let mut ingest = shuffle_audit();
        ingest.arg("ingest").args(["--json", "-"]).write_stdin(input);
        if let Some(kind) = kind {
            ingest.args(["--kind", kind]);
        }
        let output = exits_as_its_json(ingest, None);
        let document: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(document["command"], "ingest");
    }
    // A check suite.
    let suite = dir.path().join("suite.toml");
    std::fs::write(
        &suite,
        "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 4800\nseed = 3\nexpect = \"fair\"\n",
    )
    .unwrap();
    let mut check = shuffle_audit();
    check
        .arg("check")
        .arg("--config")
        .arg(&suite)
        .args(["-j", "2", "--json", "-"]);
    exits_as_its_json(check, None);
    // Shards and their merge.
    let files = shard_files(dir.path(), "run fisher-yates --n 4 --trials 40000 --seed 2", 2);
    assert_valid(&merged(&files));
    // The online-poker crack on a window of 2,000 seeds, from the deck its seed 1234 deals.
    let mut deck: Vec<u16> = (1..=52).collect();
    shuffle_audit::catalogue::asf_poker(
        &mut deck,
        &mut shuffle_audit::randomness::DelphiRandom::from_state(1234),
    );
    let at = format!("6:{},12:{},13:{},14:{}", deck[5], deck[11], deck[12], deck[13]);
    let output =
        command("seeds crack --source delphi --algorithm asf-poker --window 00:00:00..00:00:02 --json -")
            .args(["--seen", &deck[0].to_string(), "--seen-at", &at])
            .output()
            .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&document);
    assert_eq!(document["matches"], 1, "{document}");
    // A recovered java.util.Random (one state, two deals predicted) and a V8 state that one
    // deal leaves open (several states, none predicted): both shapes of `seeds recover`.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recover");
    let java = fixtures.join("java-seed42-52.txt");
    let output = command("seeds recover --runtime java --predict 2 --json -")
        .arg(&java)
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&document);
    assert_eq!(document["candidates"], 1, "{document}");
    assert_eq!(document["predicted"].as_array().unwrap().len(), 2, "{document}");
    // A Node that drew for long before dealing: one deal leaves two states.
    let first_node_deal =
        std::fs::read_to_string(fixtures.join("node-fisher-yates-seed1-drawn300000-52.txt")).unwrap();
    let first_node_deal = first_node_deal.lines().next().unwrap().to_string() + "\n";
    let output = command("seeds recover --runtime node --json -")
        .arg("-")
        .write_stdin(first_node_deal)
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&document);
    assert!(document["candidates"].as_u64().unwrap() > 1, "{document}");
    assert!(document["state"].is_null(), "{document}");
    // `ingest` of real Java deals: the finding beside the verdict, in the input's part.
    let output = command("ingest --json -").arg(&java).output().unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_valid(&document);
    let predictability = &document["input"]["predictability"];
    assert_eq!(predictability["predictable"], true, "{document}");
    assert_eq!(predictability["found"]["runtime"], "java", "{document}");
    assert_eq!(predictability["found"]["seed"], "new Random(42L)", "{document}");
}

/// The check can fail: the schema refuses a document without its version, with a field
/// renamed, with one it does not know, or with a number where it wants another type.
#[test]
fn a_changed_removed_or_unknown_field_fails_validation() {
    let document = json_of("run shelf:10 --n 52 --trials 20000 --seed 1");
    let run = validator("run");
    assert!(run.is_valid(&document));
    let mut missing = document.clone();
    missing.as_object_mut().unwrap().remove("schema_version");
    assert!(
        !run.is_valid(&missing),
        "a document without schema_version passed"
    );
    let mut renamed = document.clone();
    let result = renamed["results"][0].as_object_mut().unwrap();
    let verdict = result.remove("verdict").unwrap();
    result.insert("outcome".to_string(), verdict);
    assert!(!run.is_valid(&renamed), "a renamed field passed");
    let mut extra = document.clone();
    extra["results"][0]["surprise"] = Value::from(1);
    assert!(!run.is_valid(&extra), "an unknown field passed");
    // The guessing game's p-value is always a number: null (a non-finite log10) fails.
    let mut null = document.clone();
    null["results"][0]["guessing"]["log10_p_value"] = Value::Null;
    assert!(!run.is_valid(&null), "a null log10_p_value passed");
    let mut removed = document;
    removed["results"][0]["guessing"]
        .as_object_mut()
        .unwrap()
        .remove("correct");
    assert!(
        !run.is_valid(&removed),
        "a guessing game without its count passed"
    );

    // The hand-written exact document, through its mirror's schema.
    let exact = json_of("exact naive-swap --n 3");
    let schema = validator("exact");
    assert!(schema.is_valid(&exact));
    let mut changed = exact.clone();
    changed["results"][0]["verdict"] = Value::from("biased");
    assert!(!schema.is_valid(&changed), "a verdict of no known value passed");
    let mut changed = exact;
    changed["results"][0]["outcomes"][0]
        .as_object_mut()
        .unwrap()
        .remove("numerator");
    assert!(
        !schema.is_valid(&changed),
        "an outcome without its numerator passed"
    );

    // `list --json` is an object now: the array it used to be fails.
    let list = json_of_list();
    assert!(!validator("list").is_valid(&list["entries"]));
}

fn json_of_list() -> Value {
    let output = command("list --json").output().unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Every p-value and base-10 logarithm in `document` that must be a number (those of
/// computed tests, the guessing game's, and the `*_min` of check) is one: a non-finite
/// value is written by serde as `null`. Returns the paths of the offenders.
fn null_p_values(value: &Value, path: &str, offenders: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            let computed = object.get("status").is_none_or(|status| status == "computed");
            for (key, field) in object {
                let p_field = key.starts_with("log10_p") || key.starts_with("p_");
                if p_field && computed && field.is_null() {
                    offenders.push(format!("{path}.{key}"));
                }
                null_p_values(field, &format!("{path}.{key}"), offenders);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                null_p_values(item, &format!("{path}[{i}]"), offenders);
            }
        }
        _ => {}
    }
}

/// Strongly biased runs, counts too even for chance, and repeats of decks too many for a
/// double: the p-values are astronomically small (or 0 in the χ² law), and each has a
/// finite logarithm in the JSON, never `null`. Before, perfectly even counts (χ² = 0, whose
/// χ² lower tail is 0) and repeats among 200-card decks (a Poisson mean that underflows to
/// 0) wrote `null` logarithms.
#[test]
fn strongly_biased_runs_write_every_p_value_as_a_number() {
    let dir = tempfile::tempdir().unwrap();
    let mut documents: Vec<(String, Value)> = [
        "run riffles:1 --n 52 --trials 200000 --seed 1",
        "run shelf:10 --n 52 --seed 1",
        "run naive-swap --n 3 --trials 10000000 --seed 1",
    ]
    .into_iter()
    .map(|line| (line.to_string(), json_of(line)))
    .collect();
    // The 6 orders of 3 cards in turn, 100 times, after the line that fixes the deck (the
    // reference, not an order): every count exactly at its expectation.
    let orders = ["a b c", "a c b", "b a c", "b c a", "c a b", "c b a"];
    let even = format!("a b c\n{}", (orders.join("\n") + "\n").repeat(100));
    // Two decks of 200 cards dealt in turn: 298 repeats where 10^-370 are expected.
    let deck: Vec<String> = (0..200).map(|card| card.to_string()).collect();
    let reversed: Vec<String> = deck.iter().rev().cloned().collect();
    let repeated = format!("{}\n{}\n", deck.join(" "), reversed.join(" ")).repeat(150);
    for (name, input) in [("even", even), ("repeated", repeated)] {
        let path = binary::write_file(dir.path(), name, input);
        let mut ingest = shuffle_audit();
        ingest.args(["ingest", &path, "--json", "-"]);
        let output = exits_as_its_json(ingest, None);
        documents.push((
            format!("ingest {name}"),
            serde_json::from_slice(&output.stdout).unwrap(),
        ));
    }
    for (line, document) in &documents {
        let mut offenders = Vec::new();
        null_p_values(document, "", &mut offenders);
        assert!(offenders.is_empty(), "{line}: null p-values at {offenders:?}");
        assert_eq!(
            document["results"][0]["verdict"], "fail",
            "{line}: biased, it fails"
        );
    }
    // The even counts' lower tails are the counts' own probabilities, labelled.
    let even = &documents[3].1["results"][0]["tests"][0];
    assert_eq!(even["name"], "permutations");
    assert_eq!(even["statistic"], 0.0);
    assert!(
        even["note"]
            .as_str()
            .unwrap()
            .contains("exact (multinomial) probability"),
        "{even}"
    );
    let log10 = even["log10_p_lower"].as_f64().unwrap();
    assert!((-7.0..-6.0).contains(&log10), "{even}");
    let repeats = documents[4].1["results"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|test| test["name"] == "repeats")
        .unwrap();
    assert!(
        repeats["log10_p_value"].as_f64().unwrap() < -10_000.0,
        "{repeats}"
    );
}
