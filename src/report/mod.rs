//! Reports: SVG charts and an HTML and Markdown page per run.

pub mod chart;
