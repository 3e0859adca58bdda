use super::*;
use crate::randomness::ClockStep;

fn identity() -> RunIdentity<'static> {
    RunIdentity {
        algorithms: vec!["fisher-yates", "naive-repeated:3"],
        n: 6,
        k: None,
        trials: 2_000_000,
        seed: 7,
        source: SourceKind::Xoshiro,
    }
}

#[test]
fn the_canonical_record_is_fixed_text() {
    // The digest is SHA-256 of exactly this: the same bytes on every machine.
    assert_eq!(
        identity().canonical(),
        format!(
            "{{\"format\":\"shuffle-audit run identity 1\",\"tool\":\"shuffle-audit\",\"version\":\"{}\",\
             \"algorithms\":[\"fisher-yates\",\"naive-repeated:3\"],\"n\":6,\"k\":null,\"trials\":2000000,\
             \"seed\":7,\"source\":\"xoshiro\",\"clock_step_us\":null}}",
            env!("CARGO_PKG_VERSION")
        )
    );
    let digest = identity().digest();
    assert_eq!(digest.len(), 64);
    assert!(
        digest
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
    assert_eq!(digest, identity().digest());
}

#[test]
fn sha256_is_the_standard_one() {
    // FIPS 180-2's example: the digest is the standard SHA-256, which any tool
    // (`sha256sum`) can recompute from the canonical record.
    let abc: String = Sha256::digest(b"abc")
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    assert_eq!(
        abc,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn every_setting_changes_the_identity() {
    let base = identity().digest();
    let changed: Vec<RunIdentity> = vec![
        RunIdentity {
            algorithms: vec!["naive-repeated:3", "fisher-yates"],
            ..identity()
        },
        RunIdentity {
            algorithms: vec!["fisher-yates"],
            ..identity()
        },
        RunIdentity { n: 7, ..identity() },
        RunIdentity {
            k: Some(3),
            ..identity()
        },
        RunIdentity {
            trials: 2_000_001,
            ..identity()
        },
        RunIdentity {
            seed: 8,
            ..identity()
        },
        RunIdentity {
            source: SourceKind::Delphi,
            ..identity()
        },
        RunIdentity {
            source: SourceKind::ClockReseed(ClockStep::DEFAULT),
            ..identity()
        },
    ];
    let mut seen = std::collections::BTreeSet::from([base]);
    for other in &changed {
        assert!(seen.insert(other.digest()), "{other:?} has the digest of another");
    }
    // The clock step is a parameter of the source.
    let step = |microseconds| {
        RunIdentity {
            source: SourceKind::ClockReseed(ClockStep::from_microseconds(microseconds).unwrap()),
            ..identity()
        }
        .digest()
    };
    assert_ne!(step(1), step(1000));
}
