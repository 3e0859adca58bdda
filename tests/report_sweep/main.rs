//! No report panics, whatever it is given (issue 30): every report kind (`run`,
//! samplers, `ingest` of permutations, selections and streams, `stream`, `exact`, `merge`)
//! for decks of 2 to 2000 cards and from 1 to 1000 deals, the same deal every time and a
//! new one each time, rendered to text, JSON, CSV, HTML, Markdown and SVG, and each output
//! checked well formed ([`well_formed`]). A combination that means nothing (a stream of
//! one draw, every order of 11 cards) must be refused in one line instead.
//!
//! The bulk runs through the library ([`grid`]), one test per kind so that the harness
//! spreads them over the cores; the real binary runs a few cases end to end ([`cli`]),
//! among them the one the issue reported. `SWEEP_TIMES=1` prints each case's time, to
//! keep the sweep lean: it runs in `cargo test --release` on CI's two cores.

#[path = "../binary/mod.rs"]
mod binary;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod grid;
mod well_formed;

use grid::{DEALS, SIZES, Sweep};

#[test]
fn every_run_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            grid::shuffles(&mut sweep, n, deals);
        }
    }
    sweep.finish("run");
}

#[test]
fn every_sampler_run_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            grid::samplers(&mut sweep, n, deals);
        }
    }
    sweep.finish("sampler");
}

#[test]
fn every_ingest_of_permutations_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            for identical in [true, false] {
                grid::ingest_permutations(&mut sweep, n, deals, identical);
            }
        }
    }
    sweep.finish("ingest permutations");
}

#[test]
fn every_ingest_of_selections_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            for identical in [true, false] {
                grid::ingest_selections(&mut sweep, n, deals, identical);
            }
        }
    }
    sweep.finish("ingest selections");
}

#[test]
fn every_ingest_of_a_stream_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            for identical in [true, false] {
                grid::ingest_stream(&mut sweep, n, deals, identical);
            }
        }
    }
    sweep.finish("ingest stream");
}

#[test]
fn every_stream_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        for deals in DEALS {
            grid::streams(&mut sweep, n, deals);
        }
    }
    sweep.finish("stream");
}

#[test]
fn every_merge_renders() {
    let dir = tempfile::tempdir().unwrap();
    let mut sweep = Sweep::default();
    for n in SIZES {
        // A 10-card run's JSON holds every one of the 10! orders and of their serial
        // pairs (200 MB, seconds to read back): one case there. The merged report is
        // drawn by the code a run's is, which `every_run_renders` covers at 10 cards for
        // every deal count.
        let deals: &[u64] = if n == 10 { &[1] } else { &DEALS };
        for &deals in deals {
            for identical in [false, true] {
                if n != 10 || !identical {
                    grid::merged(&mut sweep, n, deals, identical, dir.path());
                }
            }
        }
    }
    sweep.finish("merge");
}

#[test]
fn every_exact_report_renders() {
    let mut sweep = Sweep::default();
    for n in SIZES {
        grid::exact(&mut sweep, n);
    }
    sweep.finish("exact");
}
