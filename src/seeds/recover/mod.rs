//! `seeds recover`: the generator of a runtime recovered from the deals it dealt.
pub mod draws;
mod gf2;
pub mod java;
pub mod v8;
