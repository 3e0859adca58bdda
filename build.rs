//! Tells the crate whether the compiler has the AVX-512 intrinsics (stable since Rust
//! 1.89), so that the crate still builds on its minimum Rust (1.85) and uses them on a
//! newer one: the cycle counts of `tally::cycles_wide`, which fall back to a walk
//! without them.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(avx512_intrinsics)");
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .and_then(|version| {
            // "rustc 1.95.0 (…)": the minor version.
            let number = version.split_whitespace().nth(1)?.to_owned();
            number.split('.').nth(1)?.parse::<u32>().ok()
        });
    if minor.is_some_and(|minor| minor >= 89) {
        println!("cargo::rustc-cfg=avx512_intrinsics");
    }
}
