//! What the protocol tests share: running a scripted session in-process.

use quadrille_protocol::Catalog;
use std::io::{self, Cursor};

/// Runs a session of a protocol loop (`uci::run` or `xboard::run`) on
/// the embedded variants; its output lines.
pub fn session(
    run: impl FnOnce(Cursor<String>, &mut Vec<u8>, Catalog) -> io::Result<()>,
    input: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    run(
        Cursor::new(input.to_string()),
        &mut out,
        Catalog::embedded(),
    )
    .unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The words after `prefix` in the lines that start with it (`bestmove`,
/// `move`).
pub fn after(lines: &[String], prefix: &str) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}
