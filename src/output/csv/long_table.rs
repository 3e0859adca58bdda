//! The one CSV shape every CSV export shares: a long table, one row per cell,
//! `NAME,table,row,column,count,expected`, written with the `csv` crate (RFC 4180 quoting).
//!
//! Text cells (names, and the cards and items of ingested samples, which come from
//! another program) are also made safe for spreadsheets: a cell that starts with `=`,
//! `+`, `-`, `@`, a tab or a carriage return would be run as a formula by Excel,
//! LibreOffice or Google Sheets (OWASP's "CSV injection"), so it gets a leading `'`,
//! which spreadsheets hide and show the cell as text. A program reading the CSV strips a
//! leading `'` from text cells. Counts and expected counts are numbers and never start
//! with such a character.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

use crate::catalogue::Graded;

/// A long table being written.
pub(crate) struct LongTable<'w> {
    writer: csv::Writer<&'w mut dyn Write>,
    /// Reused for every cell that is formatted.
    cell: String,
}

impl<'w> LongTable<'w> {
    /// Starts the table on `out` with its header; `first` names the first column
    /// (`algorithm`, `generator`).
    pub(crate) fn new(out: &'w mut dyn Write, first: &str) -> std::io::Result<Self> {
        let mut writer = csv::WriterBuilder::new().from_writer(out);
        writer
            .write_record([first, "table", "row", "column", "count", "expected"])
            .map_err(io_error)?;
        Ok(Self {
            writer,
            cell: String::new(),
        })
    }

    /// One row. `row` and `column` are text cells (empty for none); `count` and
    /// `expected` are left empty when `None`.
    pub(crate) fn row(
        &mut self,
        name: &str,
        table: &str,
        row: impl std::fmt::Display,
        column: impl std::fmt::Display,
        count: Option<u64>,
        expected: Option<f64>,
    ) -> std::io::Result<()> {
        self.writer
            .write_field(text_cell(name).as_bytes())
            .map_err(io_error)?;
        self.writer.write_field(table).map_err(io_error)?;
        for text in [&row as &dyn std::fmt::Display, &column] {
            self.cell.clear();
            write!(self.cell, "{text}").expect("formatting into a String cannot fail");
            self.writer
                .write_field(text_cell(&self.cell).as_bytes())
                .map_err(io_error)?;
        }
        self.cell.clear();
        if let Some(count) = count {
            write!(self.cell, "{count}").expect("formatting into a String cannot fail");
        }
        self.writer.write_field(&self.cell).map_err(io_error)?;
        self.cell.clear();
        if let Some(expected) = expected {
            write!(self.cell, "{expected}").expect("formatting into a String cannot fail");
        }
        self.writer.write_field(&self.cell).map_err(io_error)?;
        self.writer.write_record(None::<&[u8]>).map_err(io_error)
    }

    /// The result's verdict: table `verdict`, row the verdict (`pass`, `suspicious`,
    /// `fail`, `inconclusive`), column the verdict it should have (`fair` or `biased`).
    pub(crate) fn verdict(&mut self, graded: &Graded) -> std::io::Result<()> {
        self.row(
            &graded.name,
            "verdict",
            graded.verdict,
            graded.expected,
            None,
            None,
        )
    }

    /// Flushes the table to its writer.
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

/// The writer's own error back, so that its kind stays (a closed pipe is `BrokenPipe`,
/// which ends the printing quietly; `csv` would wrap it as "other").
fn io_error(error: csv::Error) -> std::io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        other => std::io::Error::other(format!("{other:?}")),
    }
}

/// `text` as a spreadsheet must see it: with a leading `'` when it would start a formula.
pub(crate) fn text_cell(text: &str) -> Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Expectation;
    use crate::stats::Verdict;

    fn table(write: impl FnOnce(&mut LongTable) -> std::io::Result<()>) -> String {
        let mut out = Vec::new();
        {
            let mut sink: &mut dyn Write = &mut out;
            let mut table = LongTable::new(&mut sink, "algorithm").unwrap();
            write(&mut table).unwrap();
            table.finish().unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn cells_that_a_spreadsheet_would_run_are_neutralised_and_quoted() {
        let csv = table(|table| {
            table.row(
                "=cmd|' /C calc'!A0",
                "permutation",
                "-1 +2 @3",
                "",
                Some(7),
                Some(2.5),
            )?;
            table.row("plain", "position", "a,b \"c\"", 3, Some(0), Some(1.0))?;
            table.row("\tx", "frequency", "\rcr", "", None, None)
        });
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "algorithm,table,row,column,count,expected");
        assert_eq!(lines[1], "'=cmd|' /C calc'!A0,permutation,'-1 +2 @3,,7,2.5");
        assert_eq!(lines[2], "plain,position,\"a,b \"\"c\"\"\",3,0,1");
        assert_eq!(lines[3], "'\tx,frequency,\"'\rcr\",,,");
    }

    #[test]
    fn a_verdict_row_names_the_verdict_and_what_it_should_be() {
        let csv = table(|table| {
            table.verdict(&Graded {
                name: "naive-swap".to_string(),
                expected: Expectation::Biased,
                verdict: Verdict::Fail,
            })
        });
        assert_eq!(csv.lines().nth(1), Some("naive-swap,verdict,fail,biased,,"));
    }
}
