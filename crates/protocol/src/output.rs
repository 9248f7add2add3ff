//! Protocol output shared by the command loop and the search thread: one
//! line at a time, flushed at once (GUIs read line by line from a pipe).

use std::fmt::Display;
use std::io::{self, BufRead, Write};
use std::sync::Mutex;

pub struct Output<W: Write> {
    inner: Mutex<W>,
}

impl<W: Write> Output<W> {
    pub fn new(w: W) -> Output<W> {
        Output {
            inner: Mutex::new(w),
        }
    }

    /// Writes one line.
    pub fn line(&self, text: impl Display) -> io::Result<()> {
        let mut w = self
            .inner
            .lock()
            .map_err(|_| io::Error::other("output lock poisoned"))?;
        writeln!(w, "{text}")?;
        w.flush()
    }
}

/// Feeds each input line, trimmed, to `command` until it returns false
/// (`quit`) or the input ends; true if it ended by `quit`.
pub fn each_line<R: BufRead>(
    input: R,
    mut command: impl FnMut(&str) -> io::Result<bool>,
) -> io::Result<bool> {
    for line in input.lines() {
        if !command(line?.trim())? {
            return Ok(true);
        }
    }
    Ok(false)
}
