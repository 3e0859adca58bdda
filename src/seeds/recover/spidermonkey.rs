//! SpiderMonkey's `Math.random` (Firefox) recovered from deals; the same arithmetic is
//! JavaScriptCore's (Safari, Bun) once a page has drawn before its deals.
//!
//! The model ([`super::summed::LOW_53`]): xorshift128+ whose double is the low 53 bits of
//! the sum of its words over 2^53, with no cache (checked against Firefox ESR's real
//! output, `scripts/engine_deals.sh`). Firefox seeds each realm from the system's
//! random source, so there is no seed to find: the 128-bit state is recovered from the
//! deals by [`super::xorshift_sum`].

use super::summed::{LOW_53, progress_of, search_as_runtime};
use super::v8::JS_SHUFFLES;
use super::{About, Control, Observed, Runtime, Search};

/// SpiderMonkey's `Math.random` under the shuffles JavaScript programs paste.
pub struct SpiderMonkey;

static ABOUT: About = About {
    name: "spidermonkey",
    aliases: &["firefox"],
    summary: "Firefox's SpiderMonkey, or Safari's and Bun's JavaScriptCore past a page's first draws: the \
              Fisher-Yates loop or lodash's _.shuffle over Math.random",
    generator: "SpiderMonkey's Math.random",
    state_bits: 128,
    shuffles: &JS_SHUFFLES,
    versions: "SpiderMonkey since Firefox 47 (xorshift128+, the low 53 bits of s0 + s1), and JavaScriptCore's \
               WeakRandom, which makes its doubles the same way; checked against Firefox ESR 153",
    instead: "crypto.getRandomValues for each draw, which no output gives away",
    min_cards: 5,
};

impl Runtime for SpiderMonkey {
    fn about(&self) -> &'static About {
        &ABOUT
    }

    fn work(&self, _observed: &Observed) -> u64 {
        progress_of(&[&LOW_53])
    }

    fn takes_seconds(&self) -> bool {
        true
    }

    fn search(&self, observed: &Observed, control: &Control<'_>) -> Result<Search, String> {
        search_as_runtime(observed, &[&LOW_53], control)
    }
}
