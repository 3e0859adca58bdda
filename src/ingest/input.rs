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

/// The blocks of a [`Input::Fed`] input: about 1,600 deals of 5 cards, 60 of 52.
const FED_BLOCK_BYTES: usize = 16 << 10;

/// The input of `ingest`.
pub enum Input {
    /// A file opened by name: read twice from disk when it is a regular file.
    File(File),
    /// Any other reader (standard input): copied aside when it must be read twice.
    Reader(Box<dyn Read + Send>),
    /// Deals handed over by a dealer in this process ([`super::feed`]): read in small
    /// blocks, so that the tally keeps pace with the dealer instead of waiting for a
    /// block of megabytes to fill (the tests then start as the last deal is made). With the
    /// number of deals to come, when the dealer knows it: the guessing game studies its
    /// first half while the rest are dealt.
    Fed(Box<dyn Read + Send>, Option<u64>),
}

impl Input {
    /// A reader as input (standard input, another program's output).
    pub fn reader(reader: impl Read + Send + 'static) -> Self {
        Input::Reader(Box::new(reader))
    }

    /// The deals a [`Input::Fed`] input says will come.
    pub(super) fn expected_samples(&self) -> Option<u64> {
        match self {
            Input::Fed(_, expected) => *expected,
            Input::File(_) | Input::Reader(_) => None,
        }
    }

    /// The size of the blocks it is read in.
    pub(super) fn block_bytes(&self) -> usize {
        match self {
            Input::Fed(..) => FED_BLOCK_BYTES,
            Input::File(_) | Input::Reader(_) => super::lines::BLOCK_BYTES,
        }
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

/// A reader that copies everything it reads into an anonymous temporary file, until
/// told to stop: standard input, once read, is gone, and `ingest` may need to read some of
/// its lines again (to compare two decks of more than 20 cards that share a hash).
pub struct Copying<R> {
    inner: R,
    copy: Option<File>,
}

impl<R: Read> Copying<R> {
    /// `inner`, copied into `copy` as it is read (nothing is copied without one).
    pub fn new(inner: R, copy: Option<File>) -> Self {
        Self { inner, copy }
    }

    /// Stops copying and forgets the copy (it is not needed).
    pub fn stop(&mut self) {
        self.copy = None;
    }

    /// The copy, when one was kept, to be read from its start.
    pub fn take_copy(&mut self) -> Option<File> {
        self.copy.take()
    }
}

impl<R: Read> Read for Copying<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buffer)?;
        if let Some(copy) = &mut self.copy {
            copy.write_all(&buffer[..read])?;
        }
        Ok(read)
    }
}

impl Input {
    /// The input ready to be read, and a way to read it again: a regular file is its own
    /// copy (a second handle), anything else is copied while it is read when `keep`.
    pub(super) fn rereadable(self, keep: bool) -> std::io::Result<(Copying<Input>, Option<File>)> {
        match &self {
            Input::File(file) if file.metadata().is_ok_and(|metadata| metadata.is_file()) => {
                let again = file.try_clone()?;
                Ok((Copying::new(self, None), Some(again)))
            }
            _ if keep => Ok((Copying::new(self, Some(tempfile::tempfile()?)), None)),
            _ => Ok((Copying::new(self, None), None)),
        }
    }
}

impl Read for Input {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Input::File(file) => file.read(buffer),
            Input::Reader(reader) | Input::Fed(reader, _) => reader.read(buffer),
        }
    }
}
