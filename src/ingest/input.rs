//! What `ingest` reads, and reading it twice.
//!
//! When the items are the tokens seen (`--kind selections` without `--deck`, `--kind
//! stream` without `--deck` or `--weights`), the whole input must be read before the
//! tally starts: the first pass finds the items, the second tallies. A regular file is
//! simply read again from the start; anything else (standard input, a pipe named as a
//! file, `<(program)`) is copied to an anonymous temporary file during the first pass and
//! the copy is read the second time. Either way memory stays a few blocks deep, whatever
//! the input's length.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};

use super::lines::{Block, BlockReader};

/// The input of `ingest`.
pub enum Input {
    /// A file opened by name: read twice from disk when it is a regular file.
    File(File),
    /// Any other reader (standard input): copied aside when it must be read twice.
    Reader(Box<dyn Read + Send>),
}

impl Input {
    /// A reader as input (standard input, another program's output).
    pub fn reader(reader: impl Read + Send + 'static) -> Self {
        Input::Reader(Box::new(reader))
    }

    /// Reads the whole input once in [`Block`]s, handing each to `visit` (which may stop
    /// the pass with an error), and returns the input again from its start.
    pub(super) fn read_twice<E>(
        self,
        read_error: impl Fn(std::io::Error) -> E,
        mut visit: impl FnMut(&Block) -> Result<(), E>,
    ) -> Result<File, E> {
        let rewindable = matches!(&self, Input::File(file)
            if file.metadata().is_ok_and(|metadata| metadata.is_file()));
        if rewindable {
            let Input::File(mut file) = self else {
                unreachable!("checked above")
            };
            let mut reader = BlockReader::new(&mut file);
            while let Some(block) = reader.next_block().map_err(&read_error)? {
                visit(&block)?;
            }
            file.seek(SeekFrom::Start(0)).map_err(&read_error)?;
            return Ok(file);
        }
        let mut copy = tempfile::tempfile().map_err(&read_error)?;
        let mut reader = BlockReader::new(self);
        while let Some(block) = reader.next_block().map_err(&read_error)? {
            visit(&block)?;
            copy.write_all(&block.bytes).map_err(&read_error)?;
        }
        copy.seek(SeekFrom::Start(0)).map_err(&read_error)?;
        Ok(copy)
    }
}

impl Read for Input {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Input::File(file) => file.read(buffer),
            Input::Reader(reader) => reader.read(buffer),
        }
    }
}
