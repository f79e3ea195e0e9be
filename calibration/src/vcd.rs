//! A small Value Change Dump (IEEE 1364 §18) reader that computes per-bit switching statistics:
//! the number of 0↔1 transitions and the time spent at 1. From them come the per-pin toggle
//! density (transitions per clock cycle) and duty (probability of 1) that OpenSTA's
//! `set_power_activity` takes.
//!
//! Supported: `$timescale`, nested `$scope`/`$upscope`, `$var` of any type with optional
//! `[msb:lsb]` range, `#time`, scalar changes (`0! 1! x! z!`), vector changes (`b1010 !`,
//! left-extended as the standard says) and real changes (`r1.5 !`, ignored for statistics).
//! Transitions through x or z are not counted as toggles.

use crate::error::ParseError;
use std::collections::BTreeMap;
use std::path::Path;

/// Widest `$var` accepted, in bits. Each bit carries its own state and statistics, so an
/// absurd declared width (a corrupt or hostile file) would otherwise exhaust memory before any
/// value change is read; real buses in the characterised blocks are at most a few hundred bits.
pub const MAX_VAR_WIDTH_BITS: usize = 1 << 16;

/// Statistics of one bit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BitStats {
    /// 0→1 plus 1→0 transitions.
    pub toggles: u64,
    /// Time at logic 1, in timescale units.
    pub high_time: u64,
    /// Rising edges (0→1).
    pub rises: u64,
}

/// A declared variable.
#[derive(Debug, Clone, PartialEq)]
pub struct VarInfo {
    /// Scope path from the outermost scope (e.g. `["tb", "dut"]`).
    pub scope: Vec<String>,
    /// Signal name (without range).
    pub name: String,
    /// Bit index of each position of a vector value string (position 0 = leftmost = MSB).
    pub bit_index: Vec<i64>,
    /// Identifier code.
    pub id: String,
}

/// A parsed dump: variables and per-bit statistics over `[t_start, t_end]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Vcd {
    /// Seconds per timescale unit.
    pub timescale_s: f64,
    /// All variables in declaration order.
    pub vars: Vec<VarInfo>,
    /// Per identifier code, statistics per value-string position.
    pub stats: BTreeMap<String, Vec<BitStats>>,
    /// First and last timestamps.
    pub t_start: u64,
    /// Last timestamp.
    pub t_end: u64,
}

struct BitState {
    val: u8,
    since: u64,
}

fn parse_timescale(s: &str, file: &Path, line: usize) -> Result<f64, ParseError> {
    let s: String = s.split_whitespace().collect();
    let split = s.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(s.len());
    let (n, u) = s.split_at(split);
    let n: f64 = n
        .parse()
        .map_err(|_| ParseError::new(file, line, format!("bad $timescale '{s}'")))?;
    let scale = match u {
        "s" => 1.0,
        "ms" => 1e-3,
        "us" => 1e-6,
        "ns" => 1e-9,
        "ps" => 1e-12,
        "fs" => 1e-15,
        _ => {
            return Err(ParseError::new(
                file,
                line,
                format!("bad $timescale unit '{u}'"),
            ))
        }
    };
    Ok(n * scale)
}

/// The tokens of a declaration from the one after `toks[*k]` up to its `$end`, moving `k` past
/// the `$end`.
fn take_until_end(
    file: &Path,
    k: &mut usize,
    toks: &[(usize, &str)],
) -> Result<Vec<String>, ParseError> {
    let start_line = toks[*k].0;
    let mut v = Vec::new();
    *k += 1;
    while *k < toks.len() {
        if toks[*k].1 == "$end" {
            *k += 1;
            return Ok(v);
        }
        v.push(toks[*k].1.to_string());
        *k += 1;
    }
    Err(ParseError::new(
        file,
        start_line,
        "declaration without '$end'",
    ))
}

/// Applies the value change `bits` of identifier `id` at `(now, ln)` (time, line): each bit's
/// time high, toggles and rises are accounted in `stats`, its new value and time in `state`.
fn apply_change(
    file: &Path,
    id: &str,
    bits: &[u8],
    (now, ln): (u64, usize),
    state: &mut BTreeMap<String, Vec<BitState>>,
    stats: &mut BTreeMap<String, Vec<BitStats>>,
) -> Result<(), ParseError> {
    let (Some(st), Some(sts)) = (state.get_mut(id), stats.get_mut(id)) else {
        return Err(ParseError::new(
            file,
            ln,
            format!("value change for undeclared identifier '{id}'"),
        ));
    };
    let w = st.len();
    if bits.len() > w {
        return Err(ParseError::new(
            file,
            ln,
            format!("value has {} bits but '{id}' is {w} wide", bits.len()),
        ));
    }
    // Left-extend: 0 for 1/0, x for x, z for z.
    let pad = match bits.first() {
        Some(b'1') | None => b'0',
        Some(&c) => c,
    };
    for pos in 0..w {
        let nv = if pos < w - bits.len() {
            pad
        } else {
            bits[pos - (w - bits.len())]
        };
        let s = &mut st[pos];
        if s.val == nv {
            continue;
        }
        if s.val == b'1' {
            sts[pos].high_time += now - s.since;
        }
        if (s.val == b'0' && nv == b'1') || (s.val == b'1' && nv == b'0') {
            sts[pos].toggles += 1;
            if nv == b'1' {
                sts[pos].rises += 1;
            }
        }
        s.val = nv;
        s.since = now;
    }
    Ok(())
}

/// A `$var` declaration `v` (`TYPE WIDTH ID NAME [RANGE]`) at line `ln` in `scope`: the
/// variable with its bit indices; a new identifier gets its state and statistics.
fn declare_var(
    file: &Path,
    ln: usize,
    v: &[String],
    scope: &[String],
    state: &mut BTreeMap<String, Vec<BitState>>,
    vcd: &mut Vcd,
) -> Result<(), ParseError> {
    if v.len() < 4 {
        return Err(ParseError::new(
            file,
            ln,
            "expected '$var TYPE WIDTH ID NAME [RANGE] $end'",
        ));
    }
    let width: usize = v[1]
        .parse()
        .map_err(|_| ParseError::new(file, ln, format!("$var width '{}' is not a number", v[1])))?;
    if width == 0 || width > MAX_VAR_WIDTH_BITS {
        return Err(ParseError::new(
            file,
            ln,
            format!("$var width {width} out of range (allowed: 1 to {MAX_VAR_WIDTH_BITS} bits)"),
        ));
    }
    let id = v[2].clone();
    let mut name = v[3].clone();
    let mut range = v.get(4).cloned().unwrap_or_default();
    // An escaped identifier (`\\a[1].b`) may hold brackets; its range, if
    // any, is the next token.
    if let Some(p) = name.find('[').filter(|_| !name.starts_with('\\')) {
        range = name[p..].to_string();
        name.truncate(p);
    }
    let (hi, lo) = range
        .trim_matches(|c| c == '[' || c == ']')
        .split_once(':')
        .and_then(|(a, b)| Some((a.parse::<i64>().ok()?, b.parse::<i64>().ok()?)))
        .unwrap_or(if width == 1 {
            (
                range
                    .trim_matches(|c| c == '[' || c == ']')
                    .parse()
                    .unwrap_or(0),
                0,
            )
        } else {
            (width as i64 - 1, 0)
        });
    let bit_index = (0..width as i64)
        .map(|p| {
            if width == 1 {
                hi
            } else if hi >= lo {
                hi.saturating_sub(p)
            } else {
                hi.saturating_add(p)
            }
        })
        .collect();
    if let Some(first) = state.get(&id).map(|s| s.len()) {
        // An identifier may alias one signal under several names, but it has
        // one width: its per-bit state and statistics are shared.
        if first != width {
            return Err(ParseError::new(
                file,
                ln,
                format!(
                    "$var '{id}' redeclared with width {width} (first declared with width {first})"
                ),
            ));
        }
    } else {
        state.insert(
            id.clone(),
            (0..width)
                .map(|_| BitState {
                    val: b'x',
                    since: 0,
                })
                .collect(),
        );
        vcd.stats
            .insert(id.clone(), vec![BitStats::default(); width]);
    }
    vcd.vars.push(VarInfo {
        scope: scope.to_vec(),
        name,
        bit_index,
        id,
    });
    Ok(())
}

impl Vcd {
    /// Parse VCD text (`file` only names errors).
    pub fn parse(text: &str, file: &Path) -> Result<Vcd, ParseError> {
        let mut vcd = Vcd {
            timescale_s: 1e-9,
            vars: Vec::new(),
            stats: BTreeMap::new(),
            t_start: 0,
            t_end: 0,
        };
        let mut state: BTreeMap<String, Vec<BitState>> = BTreeMap::new();
        let mut scope: Vec<String> = Vec::new();
        let mut now: u64 = 0;
        let mut seen_time = false;
        // Tokenise by whitespace, keeping line numbers.
        let mut toks: Vec<(usize, &str)> = Vec::new();
        for (i, l) in text.lines().enumerate() {
            for t in l.split_whitespace() {
                toks.push((i + 1, t));
            }
        }
        let mut k = 0;
        while k < toks.len() {
            let (ln, t) = toks[k];
            match t {
                "$timescale" => {
                    let v = take_until_end(file, &mut k, &toks)?;
                    vcd.timescale_s = parse_timescale(&v.join(""), file, ln)?;
                }
                "$scope" => {
                    let v = take_until_end(file, &mut k, &toks)?;
                    scope.push(v.get(1).cloned().unwrap_or_default());
                }
                "$upscope" => {
                    take_until_end(file, &mut k, &toks)?;
                    if scope.pop().is_none() {
                        return Err(ParseError::new(
                            file,
                            ln,
                            "$upscope without a matching $scope",
                        ));
                    }
                }
                "$var" => {
                    let v = take_until_end(file, &mut k, &toks)?;
                    declare_var(file, ln, &v, &scope, &mut state, &mut vcd)?;
                }
                "$enddefinitions" | "$comment" | "$date" | "$version" => {
                    take_until_end(file, &mut k, &toks)?;
                }
                "$dumpvars" | "$dumpall" | "$dumpon" | "$dumpoff" | "$end" => k += 1,
                _ => {
                    if let Some(ts) = t.strip_prefix('#') {
                        let tv: u64 = ts.parse().map_err(|_| {
                            ParseError::new(file, ln, format!("bad timestamp '{t}'"))
                        })?;
                        if seen_time && tv < now {
                            return Err(ParseError::new(
                                file,
                                ln,
                                format!("time goes backwards: #{tv} after #{now}"),
                            ));
                        }
                        if !seen_time {
                            vcd.t_start = tv;
                            seen_time = true;
                        }
                        now = tv;
                        k += 1;
                    } else if let Some(bits) = t.strip_prefix(['b', 'B']) {
                        let id = toks.get(k + 1).map(|x| x.1).ok_or_else(|| {
                            ParseError::new(file, ln, "vector value without identifier")
                        })?;
                        let bits: Vec<u8> = bits.bytes().map(|b| b.to_ascii_lowercase()).collect();
                        if let Some(bad) = bits
                            .iter()
                            .find(|b| !matches!(b, b'0' | b'1' | b'x' | b'z'))
                        {
                            return Err(ParseError::new(
                                file,
                                ln,
                                format!("bad bit '{}' in vector value", *bad as char),
                            ));
                        }
                        apply_change(file, id, &bits, (now, ln), &mut state, &mut vcd.stats)?;
                        k += 2;
                    } else if t.starts_with(['r', 'R']) {
                        k += 2;
                    } else if let Some(c) = t
                        .bytes()
                        .next()
                        .filter(|c| matches!(c, b'0' | b'1' | b'x' | b'X' | b'z' | b'Z'))
                    {
                        let id = &t[1..];
                        if id.is_empty() {
                            return Err(ParseError::new(
                                file,
                                ln,
                                "scalar value without identifier",
                            ));
                        }
                        apply_change(
                            file,
                            id,
                            &[c.to_ascii_lowercase()],
                            (now, ln),
                            &mut state,
                            &mut vcd.stats,
                        )?;
                        k += 1;
                    } else {
                        return Err(ParseError::new(file, ln, format!("unexpected token '{t}'")));
                    }
                }
            }
        }
        // Close open intervals at the last timestamp.
        for (id, st) in &state {
            let sts = vcd.stats.get_mut(id).expect("same keys");
            for (pos, s) in st.iter().enumerate() {
                if s.val == b'1' {
                    sts[pos].high_time += now - s.since;
                }
            }
        }
        vcd.t_end = now;
        Ok(vcd)
    }

    /// Variables of one scope path.
    pub fn scope_vars<'a>(&'a self, scope: &'a [String]) -> impl Iterator<Item = &'a VarInfo> + 'a {
        self.vars.iter().filter(move |v| v.scope == scope)
    }

    /// Every distinct scope path, sorted.
    pub fn scopes(&self) -> Vec<Vec<String>> {
        let mut s: Vec<Vec<String>> = self.vars.iter().map(|v| v.scope.clone()).collect();
        s.sort();
        s.dedup();
        s
    }

    /// Per-bit (toggles per cycle, duty) of every variable in `scope`, keyed `name[bit]` (or
    /// `name` for 1-bit variables without range), given the number of clock cycles covered.
    pub fn activities(&self, scope: &[String], cycles: f64) -> BTreeMap<String, (f64, f64)> {
        let span = self.t_end.saturating_sub(self.t_start).max(1) as f64;
        let mut out = BTreeMap::new();
        for v in self.scope_vars(scope) {
            let st = &self.stats[&v.id];
            for (pos, s) in st.iter().enumerate() {
                let key = if v.bit_index.len() == 1 && v.bit_index[0] == 0 {
                    v.name.clone()
                } else {
                    format!("{}[{}]", v.name, v.bit_index[pos])
                };
                let density = s.toggles as f64 / cycles.max(1.0);
                let duty = s.high_time as f64 / span;
                out.insert(key, (density, duty));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: &str = "$timescale 1ps $end\n$scope module tb $end\n$var reg 1 ! clk $end\n$scope module dut $end\n$var wire 2 \" a [1:0] $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\nb00 \"\n$end\n#500\n1!\n#1000\n0!\nb11 \"\n#1500\n1!\n#2000\n0!\nb1 \"\n";

    #[test]
    fn toggles_and_duty() {
        let v = Vcd::parse(V, Path::new("t.vcd")).unwrap();
        assert_eq!(v.timescale_s, 1e-12);
        assert_eq!(v.t_end, 2000);
        let clk = &v.stats["!"][0];
        assert_eq!(clk.rises, 2);
        assert_eq!(clk.toggles, 4);
        let a = v.activities(&["tb".to_string(), "dut".to_string()], 2.0);
        // a[1]: 0 ->1 at 1000 -> 0 at 2000 (b1 left-extends with 0): 2 toggles, high 1000/2000.
        assert_eq!(a["a[1]"], (1.0, 0.5));
        // a[0]: 0 -> 1 at 1000, stays 1.
        assert_eq!(a["a[0]"], (0.5, 0.5));
    }

    #[test]
    fn escaped_names_keep_their_brackets() {
        let t = "$scope module m $end\n$var wire 2 ! \\g[1].d [1:0] $end\n$var wire 1 \" \\g[1].e $end\n$upscope $end\n$enddefinitions $end\n#0\nb01 !\n1\"\n#10\nb10 !\n";
        let v = Vcd::parse(t, Path::new("e.vcd")).unwrap();
        let a = v.activities(&["m".to_string()], 1.0);
        assert_eq!(a["\\g[1].d[1]"].0, 1.0);
        assert_eq!(a["\\g[1].d[0]"].0, 1.0);
        assert!(a.contains_key("\\g[1].e"), "{a:?}");
    }

    #[test]
    fn errors_have_lines() {
        let e = Vcd::parse("$var wire 1 ! a $end\n#0\n1?\n", Path::new("b.vcd")).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = Vcd::parse("#5\n#3\n", Path::new("b.vcd")).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
