//! The position plumbing of the TOML input files read with `toml::Spanned` values (sweep files,
//! program files): an error that names file, line, column and key, the 1-based position of a
//! byte span, and the mapping of a TOML syntax or type error to the key it is at.

use serde::de::DeserializeOwned;
use std::ops::Range;
use toml::Spanned;

/// An error in an input file: where, which key, what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}:{col}: '{key}': {msg}")]
pub struct FileError {
    /// The file as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// The key at fault.
    pub key: String,
    /// What is wrong and, where there is a choice, what is allowed.
    pub msg: String,
}

/// A position in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Loc {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
}

/// A file being read: its name (as given) and text.
pub(crate) struct Ctx<'a> {
    pub(crate) file: String,
    pub(crate) text: &'a str,
}

impl Ctx<'_> {
    /// The line and column where `span` starts.
    pub(crate) fn loc(&self, span: Range<usize>) -> Loc {
        let start = span.start.min(self.text.len());
        let before = &self.text[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        Loc { line, col }
    }

    /// An error at `loc` about `key`.
    pub(crate) fn err(&self, loc: Loc, key: &str, msg: impl Into<String>) -> FileError {
        FileError {
            file: self.file.clone(),
            line: loc.line,
            col: loc.col,
            key: key.to_string(),
            msg: msg.into(),
        }
    }

    /// An error at a spanned value about `key`.
    pub(crate) fn at<T>(&self, s: &Spanned<T>, key: &str, msg: impl Into<String>) -> FileError {
        self.err(self.loc(s.span()), key, msg)
    }

    /// The whole file deserialised; a TOML error names the text at its position as the key.
    pub(crate) fn parse<T: DeserializeOwned>(&self) -> Result<T, FileError> {
        toml::from_str(self.text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let key: String = self
                .text
                .get(span.clone())
                .and_then(|s| s.lines().next())
                .map(|s| s.trim().trim_matches('"').chars().take(60).collect())
                .unwrap_or_default();
            self.err(self.loc(span), &key, e.message().trim().to_string())
        })
    }
}
