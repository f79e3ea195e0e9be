//! Reading GPGPU-Sim / Accel-Sim option files (`gpgpusim.config`, `trace.config`) into
//! `(option, value, file, line)` records, and the value parsers the mapping uses.
//!
//! Syntax, as GPGPU-Sim's option parser reads it (`src/option_parser.cc` of GPGPU-Sim):
//! - everything from the first `#` of a line to its end is a comment;
//! - the remaining text of all lines is one stream of whitespace-separated tokens, so an option
//!   and its value may sit on different lines;
//! - a token that starts with `"` is joined with the following tokens (one space between them)
//!   until a token that ends with `"`; the quotes are removed — this is how a value holds spaces
//!   or spans lines (`-gpgpu_dram_timing_opt "nbk=16:...` on two lines);
//! - each option name is followed by its value; a boolean option whose next token is not a
//!   number takes no value and means 1;
//! - an option given twice keeps the value of its last occurrence, and a later file (the
//!   Accel-Sim `trace.config`, read after `gpgpusim.config`) overrides an earlier one.
//!
//! Integer values follow the C++ stream rules the parser applies: `0x…` is hexadecimal and any
//! other value with a leading `0` is octal.

use crate::SimError;

/// One `-option value` pair of an option file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionValue {
    /// Option name with its leading `-`, e.g. `-gpgpu_n_clusters`.
    pub name: String,
    /// Value text, quotes removed.
    pub value: String,
    /// File the option was read from, as given on the command line.
    pub file: String,
    /// Line of the option name, counted from 1.
    pub line: usize,
}

impl OptionValue {
    /// `file:line`, for listings.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// GPGPU-Sim options registered as booleans: they may appear without a value.
const BOOL_OPTIONS: [&str; 30] = [
    "-gpgpu_perf_sim_memcpy",
    "-gpgpu_simple_dram_model",
    "-l2_ideal",
    "-gpgpu_cache:dl2_texture_only",
    "-dram_seperate_write_queue_enable",
    "-dram_elimnate_rw_turnaround",
    "-gpgpu_gmem_skip_L1D",
    "-gpgpu_perfect_mem",
    "-gpgpu_clock_gated_reg_file",
    "-gpgpu_clock_gated_lanes",
    "-gpgpu_ignore_resources_limitation",
    "-gpgpu_adaptive_cache_config",
    "-gpgpu_shmem_limited_broadcast",
    "-gpgpu_local_mem_map",
    "-gpgpu_reg_bank_use_warp_id",
    "-gpgpu_sub_core_model",
    "-gpgpu_enable_specialized_operand_collector",
    "-gpgpu_dual_issue_diff_exec_units",
    "-gpgpu_concurrent_kernel_sm",
    "-gpgpu_perfect_inst_const_cache",
    "-gpgpu_flush_l1_cache",
    "-gpgpu_flush_l2_cache",
    "-gpgpu_deadlock_detect",
    "-visualizer_enabled",
    "-trace_enabled",
    "-gpgpu_cdp_enabled",
    "-gpgpu_mem_addr_test",
    "-enable_ptx_file_line_stats",
    "-gpgpu_ptx_use_cuobjdump",
    "-gpgpu_experimental_lib_support",
];

fn cfg_err(file: &str, line: usize, msg: impl std::fmt::Display) -> SimError {
    SimError::Config {
        file: file.to_string(),
        msg: format!("line {line}: {msg}"),
    }
}

/// Whether `tok` reads as an option name rather than a value (`-x…`, but not `-1`).
fn is_option_name(tok: &str) -> bool {
    let mut c = tok.chars();
    c.next() == Some('-') && c.next().is_some_and(|d| !d.is_ascii_digit() && d != '.')
}

/// Splits an option file into its `-option value` pairs, in file order (repeats included).
pub fn parse_option_text(text: &str, file: &str) -> Result<Vec<OptionValue>, SimError> {
    // Tokens with the line they start on; quoted runs joined.
    let mut raw: Vec<(String, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        raw.extend(code.split_whitespace().map(|t| (t.to_string(), i + 1)));
    }
    let mut tokens: Vec<(String, usize)> = Vec::new();
    let mut it = raw.into_iter();
    while let Some((tok, line)) = it.next() {
        if !tok.starts_with('"') {
            tokens.push((tok, line));
            continue;
        }
        let mut joined = tok;
        while joined.len() < 2 || !joined.ends_with('"') {
            match it.next() {
                Some((more, _)) => {
                    joined.push(' ');
                    joined.push_str(&more);
                }
                None => {
                    return Err(cfg_err(
                        file,
                        line,
                        format!("quoted value {joined} has no closing '\"'"),
                    ))
                }
            }
        }
        tokens.push((joined[1..joined.len() - 1].to_string(), line));
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let (name, line) = &tokens[i];
        if !is_option_name(name) {
            return Err(cfg_err(
                file,
                *line,
                format!("expected an option name ('-name value'), found '{name}'"),
            ));
        }
        let next = tokens.get(i + 1);
        let is_bool = BOOL_OPTIONS.contains(&name.as_str());
        let value = match next {
            Some((v, _)) if !(is_bool && v.parse::<i64>().is_err()) => {
                i += 2;
                v.clone()
            }
            _ if is_bool => {
                i += 1;
                "1".to_string()
            }
            _ => {
                return Err(cfg_err(
                    file,
                    *line,
                    format!("option '{name}' has no value"),
                ))
            }
        };
        out.push(OptionValue {
            name: name.clone(),
            value,
            file: file.to_string(),
            line: *line,
        });
    }
    Ok(out)
}

/// The options of several files read in order, each option keeping its last occurrence; the
/// result is ordered by that occurrence.
/// Linear in the number of options (an index of each name's last position).
pub fn last_wins(files: &[Vec<OptionValue>]) -> Vec<OptionValue> {
    let all: Vec<&OptionValue> = files.iter().flatten().collect();
    let mut last = std::collections::HashMap::with_capacity(all.len());
    for (i, opt) in all.iter().enumerate() {
        last.insert(opt.name.as_str(), i);
    }
    all.iter()
        .enumerate()
        .filter(|(i, opt)| last[opt.name.as_str()] == *i)
        .map(|(_, opt)| (*opt).clone())
        .collect()
}

/// The error for an option value the import cannot use: names file, line, option, value, the
/// reason and the allowed values.
pub fn bad_value(opt: &OptionValue, why: &str, allowed: &str) -> SimError {
    cfg_err(
        &opt.file,
        opt.line,
        format!(
            "option '{}' value '{}': {why} (allowed: {allowed})",
            opt.name, opt.value
        ),
    )
}

/// An unsigned integer with the stream rules of the option parser (`0x` hex, leading `0` octal).
pub fn parse_uint(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse::<u64>().ok()
    }
}

/// The option's value as an unsigned integer that fits in `u32`.
pub fn uint(opt: &OptionValue) -> Result<u32, SimError> {
    parse_uint(&opt.value)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad_value(opt, "not an unsigned integer", "0 to 4294967295"))
}

/// The option's value as an unsigned 64-bit integer.
pub fn uint64(opt: &OptionValue) -> Result<u64, SimError> {
    parse_uint(&opt.value).ok_or_else(|| bad_value(opt, "not an unsigned integer", "0 or more"))
}

/// The option's value as a positive `u32`.
pub fn positive(opt: &OptionValue) -> Result<u32, SimError> {
    match uint(opt)? {
        0 => Err(bad_value(opt, "must be positive", "1 or more")),
        v => Ok(v),
    }
}

/// The option's value as a boolean flag (`0` or `1`).
pub fn flag(opt: &OptionValue) -> Result<bool, SimError> {
    match parse_uint(&opt.value) {
        Some(0) => Ok(false),
        Some(1) => Ok(true),
        _ => Err(bad_value(opt, "not a boolean flag", "0, 1")),
    }
}

/// A list of exactly `n` unsigned integers separated by `sep`; `what` names the fields.
pub fn uint_list(opt: &OptionValue, sep: char, n: usize, what: &str) -> Result<Vec<u32>, SimError> {
    let vals: Option<Vec<u32>> = opt
        .value
        .split(sep)
        .map(|s| parse_uint(s).and_then(|v| u32::try_from(v).ok()))
        .collect();
    match vals {
        Some(v) if v.len() == n => Ok(v),
        _ => Err(bad_value(
            opt,
            &format!("expected {n} unsigned integers separated by '{sep}'"),
            what,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_values(v: &[OptionValue]) -> Vec<(String, String, usize)> {
        v.iter()
            .map(|o| (o.name.clone(), o.value.clone(), o.line))
            .collect()
    }

    #[test]
    fn comments_quotes_and_lines() {
        let text = "# header\n-gpgpu_n_clusters 28 # trailing\n\
                    -gpgpu_dram_timing_opt \"nbk=16:CCD=2:\n   CL=16:WL=6\"\n\
                    -gpgpu_clock_domains 1417.0:1417.0:1417.0:2500.0\n";
        let v = parse_option_text(text, "f").unwrap();
        assert_eq!(
            names_values(&v),
            vec![
                ("-gpgpu_n_clusters".into(), "28".into(), 2),
                (
                    "-gpgpu_dram_timing_opt".into(),
                    "nbk=16:CCD=2: CL=16:WL=6".into(),
                    3
                ),
                (
                    "-gpgpu_clock_domains".into(),
                    "1417.0:1417.0:1417.0:2500.0".into(),
                    5
                ),
            ]
        );
    }

    #[test]
    fn later_occurrences_override_and_move_to_the_end() {
        let a = parse_option_text("-a 1\n-b 2\n-a 3\n", "a").unwrap();
        let b = parse_option_text("-b 4\n", "b").unwrap();
        let v = last_wins(&[a, b]);
        assert_eq!(
            names_values(&v),
            vec![("-a".into(), "3".into(), 3), ("-b".into(), "4".into(), 1)]
        );
        assert_eq!(v[1].file, "b");
    }

    #[test]
    fn boolean_without_value_means_one() {
        let v = parse_option_text("-gpgpu_flush_l1_cache\n-gpgpu_n_mem 12\n", "f").unwrap();
        assert_eq!(v[0].value, "1");
        assert_eq!(v[1].value, "12");
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = parse_option_text("-gpgpu_n_mem 12\n 7\n", "f").unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = parse_option_text("-gpgpu_n_mem\n", "f").unwrap_err();
        assert!(e.to_string().contains("has no value"), "{e}");
        let e = parse_option_text("-x \"open\n", "f").unwrap_err();
        assert!(e.to_string().contains("closing"), "{e}");
    }

    #[test]
    fn integers_follow_the_stream_rules() {
        assert_eq!(parse_uint("0x10"), Some(16));
        assert_eq!(parse_uint("010"), Some(8));
        assert_eq!(parse_uint("0"), Some(0));
        assert_eq!(parse_uint("5000"), Some(5000));
        assert_eq!(parse_uint("-1"), None);
        assert_eq!(parse_uint("12abc"), None);
    }
}
