//! Tokeniser for the PTX subset: identifiers (`%r1`, `$L0`, `name`), dotted words (`.global`),
//! integer and floating literals (`42`, `0x1F`, `-`, `1.5`, `0f3F800000`, `0d3FF0000000000000`),
//! punctuation, and `//` / `/* */` comments. Every token carries its 1-based line and column.

use crate::SimError;

/// A token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier, including a leading `%` or `$` (`%r1`, `$L__BB0_1`, `kernel`).
    Ident(String),
    /// A word introduced by a dot (`.global` → `global`).
    Dot(String),
    /// Integer literal magnitude (the sign is a separate `-` token).
    Int(u64),
    /// Decimal floating literal.
    Float(f64),
    /// `0f` hexadecimal single-precision bit pattern.
    F32Bits(u32),
    /// `0d` hexadecimal double-precision bit pattern.
    F64Bits(u64),
    /// Quoted string (for `.pragma`, `.file`).
    Str(String),
    /// One punctuation character: `, ; : [ ] { } ( ) < > @ ! | + - =`.
    Punct(char),
    /// End of input.
    Eof,
}

/// A token with its source position.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Line, counted from 1.
    pub line: u32,
    /// Column, counted from 1.
    pub col: u32,
}

impl Tok {
    /// Human-readable description for error messages.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Dot(s) => format!("'.{s}'"),
            Tok::Int(v) => format!("integer {v}"),
            Tok::Float(v) => format!("number {v}"),
            Tok::F32Bits(v) => format!("0f{v:08X}"),
            Tok::F64Bits(v) => format!("0d{v:016X}"),
            Tok::Str(s) => format!("string \"{s}\""),
            Tok::Punct(c) => format!("'{c}'"),
            Tok::Eof => "end of file".to_string(),
        }
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Splits `text` into tokens; the last token is always [`Tok::Eof`].
pub fn tokenize(text: &str, file: &str) -> Result<Vec<Token>, SimError> {
    let b = text.as_bytes();
    let mut toks = Vec::with_capacity(b.len() / 3);
    let mut i = 0usize;
    let mut line = 1u32;
    let mut line_start = 0usize;
    let err = |line: u32, col: u32, msg: String| SimError::Parse {
        file: file.to_string(),
        line: line as usize,
        col: col as usize,
        msg,
    };
    while i < b.len() {
        let c = b[i];
        let col = (i - line_start + 1) as u32;
        if c == b'\n' {
            line += 1;
            i += 1;
            line_start = i;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            let (sl, sc) = (line, col);
            i += 2;
            loop {
                if i + 1 >= b.len() {
                    return Err(err(sl, sc, "unterminated /* comment".into()));
                }
                if b[i] == b'*' && b[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                if b[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
            continue;
        }
        // a dotted word may start with a digit (`tex.2d`, `suld.b.3d`, `.1d`)
        let tok = if c == b'.'
            && i + 1 < b.len()
            && (is_ident_start(b[i + 1]) || b[i + 1].is_ascii_digit())
            && !(b[i + 1].is_ascii_digit()
                && toks
                    .last()
                    .is_none_or(|t: &Token| !matches!(t.tok, Tok::Ident(_) | Tok::Dot(_))))
        {
            let s = i + 1;
            i += 2;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            Tok::Dot(text[s..i].to_string())
        } else if is_ident_start(c) {
            let s = i;
            i += 1;
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            Tok::Ident(text[s..i].to_string())
        } else if c.is_ascii_digit() {
            let s = i;
            let lower = |k: usize| b.get(k).map(|x| x.to_ascii_lowercase());
            if c == b'0' && (lower(i + 1) == Some(b'f') || lower(i + 1) == Some(b'd')) {
                let double = lower(i + 1) == Some(b'd');
                i += 2;
                let hs = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let digits = &text[hs..i];
                let want = if double { 16 } else { 8 };
                if digits.len() != want {
                    return Err(err(
                        line,
                        col,
                        format!(
                            "expected {want} hex digits in floating literal '{}'",
                            &text[s..i]
                        ),
                    ));
                }
                if double {
                    Tok::F64Bits(u64::from_str_radix(digits, 16).unwrap_or(0))
                } else {
                    Tok::F32Bits(u32::from_str_radix(digits, 16).unwrap_or(0))
                }
            } else if c == b'0' && lower(i + 1) == Some(b'x') {
                i += 2;
                let hs = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let v = u64::from_str_radix(&text[hs..i], 16)
                    .map_err(|_| err(line, col, format!("bad hex literal '{}'", &text[s..i])))?;
                if i < b.len() && (b[i] == b'U' || b[i] == b'u') {
                    i += 1;
                }
                Tok::Int(v)
            } else if c == b'0' && lower(i + 1) == Some(b'b') {
                i += 2;
                let hs = i;
                while i < b.len() && (b[i] == b'0' || b[i] == b'1') {
                    i += 1;
                }
                let v = u64::from_str_radix(&text[hs..i], 2)
                    .map_err(|_| err(line, col, format!("bad binary literal '{}'", &text[s..i])))?;
                Tok::Int(v)
            } else {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let mut is_float = false;
                if i < b.len() && b[i] == b'.' && b.get(i + 1).is_some_and(|x| x.is_ascii_digit()) {
                    is_float = true;
                    i += 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                    let save = i;
                    i += 1;
                    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                        i += 1;
                    }
                    if i < b.len() && b[i].is_ascii_digit() {
                        is_float = true;
                        while i < b.len() && b[i].is_ascii_digit() {
                            i += 1;
                        }
                    } else {
                        i = save;
                    }
                }
                let lit = &text[s..i];
                if is_float {
                    Tok::Float(
                        lit.parse::<f64>()
                            .map_err(|_| err(line, col, format!("bad floating literal '{lit}'")))?,
                    )
                } else {
                    // Leading 0 means octal in PTX.
                    let v = if lit.len() > 1 && lit.starts_with('0') {
                        u64::from_str_radix(&lit[1..], 8)
                    } else {
                        lit.parse::<u64>()
                    }
                    .map_err(|_| err(line, col, format!("bad integer literal '{lit}'")))?;
                    if i < b.len() && (b[i] == b'U' || b[i] == b'u') {
                        i += 1;
                    }
                    Tok::Int(v)
                }
            }
        } else if c == b'"' {
            let s = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(err(line, col, "unterminated string".into()));
            }
            i += 1;
            Tok::Str(text[s..i - 1].to_string())
        } else if b",;:[]{}()<>@!|+-=".contains(&c) {
            i += 1;
            Tok::Punct(c as char)
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(err(line, col, format!("unexpected character '{ch}'")));
        };
        toks.push(Token { tok, line, col });
    }
    let col = (b.len() - line_start + 1) as u32;
    toks.push(Token {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(toks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_positions() {
        let t = tokenize("ld.param.u64 %rd1, [p+8]; // c\n@!%p1 bra $L0;", "f").unwrap();
        assert_eq!(t[0].tok, Tok::Ident("ld".into()));
        assert_eq!(t[1].tok, Tok::Dot("param".into()));
        assert_eq!(t[3].tok, Tok::Ident("%rd1".into()));
        assert_eq!(t[8].tok, Tok::Int(8));
        let at = t.iter().position(|x| x.tok == Tok::Punct('@')).unwrap();
        assert_eq!((t[at].line, t[at].col), (2, 1));
    }

    #[test]
    fn literals() {
        let t = tokenize("0f3F800000 0d3FF0000000000000 1.5 0x10 010 2e3", "f").unwrap();
        assert_eq!(t[0].tok, Tok::F32Bits(0x3F80_0000));
        assert_eq!(t[1].tok, Tok::F64Bits(0x3FF0_0000_0000_0000));
        assert_eq!(t[2].tok, Tok::Float(1.5));
        assert_eq!(t[3].tok, Tok::Int(16));
        assert_eq!(t[4].tok, Tok::Int(8));
        assert_eq!(t[5].tok, Tok::Float(2000.0));
    }

    #[test]
    fn bad_character_position() {
        let e = tokenize("mov.u32 %r1,\n  #", "k.ptx").unwrap_err();
        assert_eq!(e.to_string(), "k.ptx:2:3: unexpected character '#'");
    }
}
