//! `seeds recover`: the generator of a runtime recovered from the deals it dealt.
pub mod draws;
pub mod java;
