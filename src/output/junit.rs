//! Reports as JUnit XML, the format CI systems display natively. Only `check` writes one
//! ([`check`]); a command that gates a build and wants its cases listed by the CI system
//! adds its file here.

pub mod check;
