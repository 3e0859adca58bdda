//! Input as blocks of whole lines, and lines as tokens.
//!
//! The reader takes big blocks ([`BLOCK_BYTES`]) and cuts each after its last newline,
//! carrying the rest into the next block, so that every block holds whole lines and can be
//! parsed on any thread. Memory stays flat whatever the input's length: a block is never
//! larger than [`BLOCK_BYTES`] and a line never longer than [`MAX_LINE_BYTES`] (an input
//! without newlines is refused at that length, not read whole).
//!
//! Tokens are separated by ASCII white space and commas; a run of separators is one
//! separator, and separators at either end of a line are ignored. A line written as a
//! list (`['C', 'A', 'B']`, `[3 1 2]`: see [`super::list`]) holds the same tokens as the
//! plain line of its items, once its brackets and quotes are checked and set aside.

use std::io::Read;

use super::list::{is_list, is_separator, list_body};

/// Bytes read at a time: large enough that a block's parsing dwarfs handing it to a
/// thread, small enough that a few blocks in flight take little memory.
pub const BLOCK_BYTES: usize = 4 << 20;

/// The longest line accepted: a deck of 2,000 cards named by 64-character tokens needs
/// about 130 kB, so a longer line is not a sample.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A block of whole lines, and whether the line after it is too long to read.
#[derive(Debug, Default)]
pub struct Block {
    /// Whole lines, each ending with a newline (the last block's last line may not).
    pub bytes: Vec<u8>,
    /// The line after this block is longer than [`MAX_LINE_BYTES`]; nothing follows.
    pub long_line_follows: bool,
}

/// Reads an input as [`Block`]s.
pub struct BlockReader<R> {
    input: R,
    block_bytes: usize,
    carry: Vec<u8>,
    finished: bool,
    started: bool,
}

impl<R: Read> BlockReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> Self {
        Self::with_block_bytes(input, BLOCK_BYTES)
    }

    /// A reader of `input` in blocks of about `block_bytes` (whole lines; a line longer
    /// than that makes its block longer).
    pub fn with_block_bytes(input: R, block_bytes: usize) -> Self {
        Self {
            input,
            block_bytes,
            carry: Vec::new(),
            finished: false,
            started: false,
        }
    }

    /// The input being read.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.input
    }

    /// The next block, or `None` at the end of the input.
    pub fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        if self.finished {
            return Ok(None);
        }
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.reserve(self.block_bytes.saturating_sub(bytes.len()));
        // A block holds at least one whole line: one longer than the block size (but not
        // than MAX_LINE_BYTES) makes its block longer.
        let mut size = self.block_bytes;
        let at_end = loop {
            let at_end = fill(&mut self.input, &mut bytes, size)?;
            if at_end || bytes.len() > MAX_LINE_BYTES || bytes.contains(&b'\n') {
                break at_end;
            }
            size = size.saturating_mul(2);
        };
        if !self.started {
            // A byte-order mark (as Windows tools write) is not part of the first token.
            self.started = true;
            if bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
        }
        if at_end {
            self.finished = true;
            return Ok((!bytes.is_empty()).then_some(Block {
                bytes,
                long_line_follows: false,
            }));
        }
        let cut = bytes
            .iter()
            .rposition(|&byte| byte == b'\n')
            .map_or(0, |last| last + 1);
        self.carry = bytes.split_off(cut);
        let long_line_follows = self.carry.len() > MAX_LINE_BYTES;
        if long_line_follows {
            self.finished = true;
            self.carry = Vec::new();
        }
        Ok(Some(Block {
            bytes,
            long_line_follows,
        }))
    }
}

/// Reads into `bytes` until it holds `size` bytes or the input ends; true at the end.
fn fill(input: &mut impl Read, bytes: &mut Vec<u8>, size: usize) -> std::io::Result<bool> {
    while bytes.len() < size {
        let wanted = (size - bytes.len()) as u64;
        match input.by_ref().take(wanted).read_to_end(bytes) {
            Ok(0) => return Ok(true),
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(false)
}

/// The lines of a block, without their newlines. A block ending with a newline has no
/// empty last line.
pub fn lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = block.strip_suffix(b"\n").unwrap_or(block);
    let empty = block.is_empty();
    body.split(|&byte| byte == b'\n').filter(move |_| !empty)
}

/// How many lines [`lines`] gives for `block`.
pub fn line_count(block: &[u8]) -> u64 {
    if block.is_empty() {
        return 0;
    }
    let newlines = block.iter().filter(|&&byte| byte == b'\n').count() as u64;
    newlines + u64::from(block.last() != Some(&b'\n'))
}

/// Whether `line` holds no sample: blank, or a comment (`#` first, after any blanks).
#[inline]
pub fn is_skipped(line: &[u8]) -> bool {
    match line.iter().find(|&&byte| !is_separator(byte)) {
        None => true,
        Some(&first) => first == b'#',
    }
}

/// The tokens of `line`, or what is wrong with the list it is written as (a message that
/// follows `line N: `).
#[inline]
pub fn tokens(line: &[u8]) -> Result<impl Iterator<Item = &[u8]>, String> {
    let (body, quoted) = if is_list(line) {
        let body = list_body(line)?;
        (body.inner, body.quoted)
    } else {
        (line, false)
    };
    // A checked list's quoted items hold no separator: each token is one item, quotes and all.
    Ok(body
        .split(|&byte| is_separator(byte))
        .filter(|token| !token.is_empty())
        .map(move |token| if quoted { &token[1..token.len() - 1] } else { token }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_are_white_space_and_commas_in_runs() {
        let all: Vec<&[u8]> = tokens(b" ,A,B  C\t,,D, \r").unwrap().collect();
        assert_eq!(all, [b"A", b"B", b"C", b"D"]);
        assert!(is_skipped(b"  , \t"));
        assert!(is_skipped(b"  # comment"));
        assert!(!is_skipped(b"A #B"));
    }

    #[test]
    fn a_list_line_holds_the_tokens_of_its_plain_line() {
        let plain: Vec<&[u8]> = tokens(b"10 J Q").unwrap().collect();
        for line in [&b"['10', 'J', 'Q']"[..], b"[\"10\",\"J\",\"Q\"]", b"[10 J Q]"] {
            assert_eq!(tokens(line).unwrap().collect::<Vec<_>>(), plain);
        }
        // Brackets and quotes inside a plain line's tokens are theirs, as before.
        let names: Vec<&[u8]> = tokens(b"x[1] it's").unwrap().collect();
        assert_eq!(names, [&b"x[1]"[..], b"it's"]);
        assert!(tokens(b"['A', 'B'").is_err());
    }

    #[test]
    fn lines_and_their_count_agree() {
        for block in [&b""[..], b"a\n", b"a\nb", b"a\n\nb\n", b"\n"] {
            assert_eq!(lines(block).count() as u64, line_count(block), "{block:?}");
        }
        assert_eq!(lines(b"a\n\nb\n").collect::<Vec<_>>(), [&b"a"[..], b"", b"b"]);
    }

    #[test]
    fn blocks_hold_whole_lines_and_every_byte_once() {
        let line = b"0 1 2 3\n";
        let input: Vec<u8> = line
            .iter()
            .copied()
            .cycle()
            .take(line.len() * 1_000_000 + 3)
            .collect();
        let mut reader = BlockReader::new(&input[..]);
        let mut joined = Vec::new();
        let mut blocks = 0;
        while let Some(block) = reader.next_block().unwrap() {
            assert!(block.bytes.len() <= BLOCK_BYTES);
            assert!(!block.long_line_follows);
            blocks += 1;
            joined.extend_from_slice(&block.bytes);
            if joined.len() < input.len() {
                assert_eq!(block.bytes.last(), Some(&b'\n'));
            }
        }
        assert!(blocks >= 2);
        assert_eq!(joined, input);
    }

    #[test]
    fn an_input_without_newlines_stops_at_the_line_cap() {
        let input = vec![b'x'; BLOCK_BYTES + 10];
        let mut reader = BlockReader::new(&input[..]);
        let block = reader.next_block().unwrap().unwrap();
        assert!(block.bytes.is_empty() && block.long_line_follows);
        assert!(reader.next_block().unwrap().is_none());
    }

    #[test]
    fn a_line_longer_than_a_small_block_makes_its_block_longer() {
        let mut input = Vec::new();
        for line in ["short", &"x".repeat(100), "tail"] {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        let mut reader = BlockReader::with_block_bytes(&input[..], 8);
        let mut lines_read = Vec::new();
        while let Some(block) = reader.next_block().unwrap() {
            assert!(!block.bytes.is_empty());
            lines_read.extend(lines(&block.bytes).map(|line| line.len()));
        }
        assert_eq!(lines_read, [5, 100, 4]);
    }

    /// The items of `line` as every reader of lines sees them.
    fn items(line: &str) -> Result<Vec<String>, String> {
        assert!(is_list(line.as_bytes()), "{line}");
        Ok(tokens(line.as_bytes())?
            .map(|token| String::from_utf8(token.to_vec()).unwrap())
            .collect())
    }

    #[test]
    fn lists_as_programs_print_them_are_read_as_their_items() {
        let cab = ["C", "A", "B"];
        for line in [
            "['C', 'A', 'B']",       // Python print(list)
            "[\"C\",\"A\",\"B\"]",   // JSON.stringify, json.dumps without spaces
            "[\"C\", \"A\", \"B\"]", // json.dumps
            "[ 'C', 'A', 'B' ]",     // Node's console.log
            "['C' 'A' 'B']",         // numpy array of strings
            "('C', 'A', 'B')",       // a Python tuple
            "[C, A, B]",             // bare
            "  [ C  A B ]\r",        // numpy pads; a Windows line end
        ] {
            assert_eq!(items(line).unwrap(), cab, "{line}");
        }
        assert_eq!(items("[3, 1, 2]").unwrap(), ["3", "1", "2"]);
        assert_eq!(items("[ 3  1 12]").unwrap(), ["3", "1", "12"]);
        assert_eq!(items("['10', 'J', '♠K']").unwrap(), ["10", "J", "♠K"]);
        // Python quotes an item holding a single quote with double quotes.
        assert_eq!(items("[\"it's\", 'B']").unwrap(), ["it's", "B"]);
        assert_eq!(items("[ \"it's\", 'a\"b' ]").unwrap(), ["it's", "a\"b"]);
        assert_eq!(items("('A',)").unwrap(), ["A"]);
        assert_eq!(items("['[x]', '(y)']").unwrap(), ["[x]", "(y)"]);
        assert_eq!(items("[]").unwrap(), Vec::<String>::new());
        assert_eq!(items("[  ]").unwrap(), Vec::<String>::new());
    }
}
