//! How things are written for people: numbers (`1,234,567`, `2.5 M`, `1e-6`), and text
//! from outside made safe for a terminal.
//!
//! The bottom layer of the crate with [`crate::error`] and [`crate::parse`]: it imports
//! nothing from the rest, so that any module, engine or renderer, may use it without
//! reaching up (see the layers in the crate's documentation).

mod numbers;
mod terminal;

pub use numbers::{
    compact, counted, format_expected, format_expected_column, format_expected_count, format_probability,
    format_statistic, group_digits, group_thousands, ratio_decimals,
};
pub use terminal::{escaped_for_terminals, is_bidi_control, reaches_terminals_badly, shell_word};
