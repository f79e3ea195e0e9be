//! Device system calls nvcc leaves as external functions: `vprintf` (behind `printf`), and
//! `malloc`/`free` (behind device `malloc`, `new` and `delete`).
//!
//! `vprintf(fmt, args)`: `fmt` is a generic pointer to the NUL-terminated format string, `args`
//! a generic pointer to the argument buffer nvcc builds in local memory, each argument at its
//! natural alignment (integers of 4 or 8 bytes, `float` promoted to `double`, pointers of 8
//! bytes). The line is formatted as C's `printf` does for the conversions `d i u o x X c s f F
//! e E g G a A p %` with flags, width, precision and the length modifiers `hh h l ll z j t`,
//! and collected with the thread's CTA and thread index; [`DeviceServices::take_output`] returns
//! a launch's lines ordered by CTA, then thread, then call order, so the output does not depend
//! on the order the model executes warps in. The call returns the number of arguments, as CUDA's
//! does.
//!
//! `malloc(size)` / `free(ptr)`: a device heap of [`HEAP_BYTES`] (CUDA's default
//! `cudaLimitMallocHeapSize`, 8 MiB) placed in global memory at the first `malloc` of an
//! emulator and kept across its launches. Allocation is first fit by address with 16-byte
//! granularity (CUDA aligns device `malloc` to 16 bytes), lanes served in lane order, so the
//! addresses are deterministic; `malloc` returns null when no free block is large enough (and
//! for size 0), as CUDA does; `free(null)` does nothing and freeing any other pointer the heap
//! did not return is a runtime error.

use std::collections::BTreeMap;

/// Size of the device heap in bytes (CUDA's default malloc heap).
pub const HEAP_BYTES: u64 = 8 << 20;
/// Allocation granularity and alignment of device `malloc`.
pub const HEAP_ALIGN_BYTES: u64 = 16;

pub use crate::ptx::isa::SysCall;

/// One formatted `printf` line with where it came from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Line {
    cta: u32,
    thread: u32,
    seq: u64,
    text: String,
}

/// The device heap, the `printf` output and the texture objects of an emulator.
#[derive(Clone, Debug, Default)]
pub struct DeviceServices {
    /// Texture objects created, in order: the object of handle k is entry k − 1
    /// (`emu/texture.rs`).
    pub(crate) textures: Vec<crate::texture::TextureDesc>,
    /// Device address of the heap (`None` until the first `malloc`).
    heap_base: Option<u64>,
    /// Free blocks: heap offset → bytes.
    free: BTreeMap<u64, u64>,
    /// Live allocations: heap offset → bytes.
    used: BTreeMap<u64, u64>,
    /// `printf` lines of the running launch.
    lines: Vec<Line>,
    seq: u64,
}

impl DeviceServices {
    /// The texture object of handle `h`, if it names one.
    pub fn texture(&self, h: u64) -> Option<&crate::texture::TextureDesc> {
        let i = usize::try_from(h).ok()?.checked_sub(1)?;
        self.textures.get(i)
    }

    /// Records one `printf` line of thread `thread` (linear index in its CTA) of CTA `cta`.
    pub fn print(&mut self, cta: u32, thread: u32, text: String) {
        self.seq += 1;
        self.lines.push(Line {
            cta,
            thread,
            seq: self.seq,
            text,
        });
    }

    /// The `printf` output collected since the last call, ordered by CTA, thread and call
    /// order (each string is what one `printf` wrote).
    pub fn take_output(&mut self) -> Vec<String> {
        let mut l = std::mem::take(&mut self.lines);
        l.sort();
        l.into_iter().map(|x| x.text).collect()
    }

    /// `malloc(bytes)`: the device address of a fresh block, or 0 when the heap is exhausted.
    /// `place` allocates the heap itself in global memory on first use.
    pub fn malloc(&mut self, bytes: u64, place: impl FnOnce(u64) -> Option<u64>) -> u64 {
        if bytes == 0 || bytes > HEAP_BYTES {
            return 0;
        }
        let base = match self.heap_base {
            Some(b) => b,
            None => {
                let Some(b) = place(HEAP_BYTES) else {
                    return 0;
                };
                self.heap_base = Some(b);
                self.free.insert(0, HEAP_BYTES);
                b
            }
        };
        let need = bytes.div_ceil(HEAP_ALIGN_BYTES) * HEAP_ALIGN_BYTES;
        let Some((&off, &len)) = self.free.iter().find(|(_, &len)| len >= need) else {
            return 0;
        };
        self.free.remove(&off);
        if len > need {
            self.free.insert(off + need, len - need);
        }
        self.used.insert(off, need);
        base + off
    }

    /// `free(ptr)`: returns the block to the heap (merging neighbours); `Err` for a pointer
    /// the heap did not hand out.
    pub fn free(&mut self, ptr: u64) -> Result<(), String> {
        if ptr == 0 {
            return Ok(());
        }
        let bad = || format!("free({ptr:#x}): not a pointer returned by device malloc");
        let base = self.heap_base.ok_or_else(bad)?;
        let off = ptr.checked_sub(base).ok_or_else(bad)?;
        let block = self.used.remove(&off).ok_or_else(bad)?;
        let (mut start, mut len) = (off, block);
        if let Some((&po, &pl)) = self.free.range(..off).next_back() {
            if po + pl == off {
                self.free.remove(&po);
                start = po;
                len += pl;
            }
        }
        if let Some(nl) = self.free.remove(&(off + block)) {
            len += nl;
        }
        self.free.insert(start, len);
        Ok(())
    }
}

/// A value of the argument buffer: reads `bytes` bytes at byte `at` of the buffer.
pub type ArgReader<'a> = dyn FnMut(u64, u32) -> Result<u64, String> + 'a;
/// Reads a NUL-terminated string at a generic device address.
pub type StrReader<'a> = dyn FnMut(u64) -> Result<Vec<u8>, String> + 'a;

/// Formats `fmt` as C's `printf` with the arguments read from the argument buffer; returns the
/// text and the number of arguments consumed.
pub fn format(
    fmt: &[u8],
    arg: &mut ArgReader,
    string: &mut StrReader,
) -> Result<(String, u32), String> {
    let mut out = String::new();
    let mut at = 0u64;
    let mut nargs = 0u32;
    let mut i = 0usize;
    let mut next = |bytes: u32, at: &mut u64| -> Result<u64, String> {
        let a = at.div_ceil(bytes as u64) * bytes as u64;
        *at = a + bytes as u64;
        arg(a, bytes)
    };
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            let start = i;
            while i < fmt.len() && fmt[i] != b'%' {
                i += 1;
            }
            out.push_str(&String::from_utf8_lossy(&fmt[start..i]));
            continue;
        }
        i += 1;
        let mut spec = Spec::default();
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            match fmt[i] {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                _ => spec.zero = true,
            }
            i += 1;
        }
        let num = |i: &mut usize| -> Option<usize> {
            let s = *i;
            while *i < fmt.len() && fmt[*i].is_ascii_digit() {
                *i += 1;
            }
            std::str::from_utf8(&fmt[s..*i]).ok()?.parse().ok()
        };
        if i < fmt.len() && fmt[i] == b'*' {
            i += 1;
            let w = next(4, &mut at)? as u32 as i32;
            nargs += 1;
            spec.left |= w < 0;
            spec.width = w.unsigned_abs() as usize;
        } else {
            spec.width = num(&mut i).unwrap_or(0);
        }
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            if i < fmt.len() && fmt[i] == b'*' {
                i += 1;
                let p = next(4, &mut at)? as u32 as i32;
                nargs += 1;
                spec.prec = (p >= 0).then_some(p as usize);
            } else {
                spec.prec = Some(num(&mut i).unwrap_or(0));
            }
        }
        let mut long = 0u8;
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            if matches!(fmt[i], b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
                long += 1;
            }
            i += 1;
        }
        let Some(&conv) = fmt.get(i) else {
            out.push('%');
            break;
        };
        i += 1;
        let ibytes = if long > 0 { 8 } else { 4 };
        let body = match conv {
            b'%' => {
                out.push('%');
                continue;
            }
            b'd' | b'i' => {
                let v = next(ibytes, &mut at)?;
                let v = if ibytes == 4 {
                    v as u32 as i32 as i64
                } else {
                    v as i64
                };
                spec.int(v < 0, v.unsigned_abs().to_string(), "")
            }
            b'u' | b'o' | b'x' | b'X' => {
                let v = next(ibytes, &mut at)?;
                let v = if ibytes == 4 { v as u32 as u64 } else { v };
                let (s, pre) = match conv {
                    b'u' => (v.to_string(), ""),
                    b'o' => (format!("{v:o}"), if spec.alt && v != 0 { "0" } else { "" }),
                    b'x' => (format!("{v:x}"), if spec.alt && v != 0 { "0x" } else { "" }),
                    _ => (format!("{v:X}"), if spec.alt && v != 0 { "0X" } else { "" }),
                };
                spec.plus = false;
                spec.space = false;
                spec.int(false, s, pre)
            }
            b'p' => {
                let v = next(8, &mut at)?;
                spec.prec = None;
                spec.zero = false;
                spec.pad(format!("0x{v:x}"))
            }
            b'c' => {
                let v = next(4, &mut at)? as u8;
                spec.zero = false;
                spec.pad((v as char).to_string())
            }
            b's' => {
                let p = next(8, &mut at)?;
                let s = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    string(p)?
                };
                let s = match spec.prec {
                    Some(n) if n < s.len() => &s[..n],
                    _ => &s[..],
                };
                spec.zero = false;
                spec.pad(String::from_utf8_lossy(s).into_owned())
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = f64::from_bits(next(8, &mut at)?);
                spec.float(v, conv)
            }
            other => {
                // an unknown conversion is printed as written
                out.push('%');
                out.push(other as char);
                continue;
            }
        };
        nargs += 1;
        out.push_str(&body);
    }
    Ok((out, nargs))
}

/// Flags, width and precision of one conversion.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

impl Spec {
    /// Pads `s` to the width with spaces (left or right).
    fn pad(&self, s: String) -> String {
        let n = s.chars().count();
        if n >= self.width {
            s
        } else if self.left {
            s + &" ".repeat(self.width - n)
        } else {
            " ".repeat(self.width - n) + &s
        }
    }

    /// A sign (or its stand-in), then `prefix` and the digits, zero-padded by precision or by
    /// the `0` flag.
    fn int(&self, neg: bool, digits: String, prefix: &str) -> String {
        let digits = match self.prec {
            Some(0) if digits == "0" => String::new(),
            Some(p) if digits.len() < p => "0".repeat(p - digits.len()) + &digits,
            _ => digits,
        };
        let sign = self.sign(neg);
        self.num(sign, prefix, digits, self.prec.is_none())
    }

    fn sign(&self, neg: bool) -> &'static str {
        if neg {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }

    /// `sign prefix digits`, with zeros after the prefix up to the width when `zero_ok`.
    fn num(&self, sign: &str, prefix: &str, digits: String, zero_ok: bool) -> String {
        let len = sign.len() + prefix.len() + digits.len();
        if self.zero && !self.left && zero_ok && len < self.width {
            format!("{sign}{prefix}{}{digits}", "0".repeat(self.width - len))
        } else {
            self.pad(format!("{sign}{prefix}{digits}"))
        }
    }

    /// `%f %e %g %a` (and upper case) of `v`.
    fn float(&self, v: f64, conv: u8) -> String {
        let upper = conv.is_ascii_uppercase();
        let sign = self.sign(v.is_sign_negative());
        if !v.is_finite() {
            let s = if v.is_nan() { "nan" } else { "inf" };
            let s = if upper {
                s.to_uppercase()
            } else {
                s.to_string()
            };
            let sign = if v.is_nan() { "" } else { sign };
            return self.pad(format!("{sign}{s}"));
        }
        let a = v.abs();
        let body = match conv.to_ascii_lowercase() {
            b'f' => {
                let s = format!("{a:.*}", self.prec.unwrap_or(6));
                if self.alt && !s.contains('.') {
                    s + "."
                } else {
                    s
                }
            }
            b'e' => exp_form(a, self.prec.unwrap_or(6), self.alt),
            b'g' => {
                let p = match self.prec {
                    Some(0) => 1,
                    Some(p) => p,
                    None => 6,
                };
                // the exponent after rounding to p significant digits decides the form
                let e = exp_form(a, p - 1, false);
                let x: i32 = e[e.find('e').map_or(0, |k| k + 1)..].parse().unwrap_or(0);
                let s = if x < -4 || x >= p as i32 {
                    exp_form(a, p - 1, self.alt)
                } else {
                    format!("{a:.*}", (p as i32 - 1 - x) as usize)
                };
                if self.alt {
                    s
                } else {
                    strip_zeros(s)
                }
            }
            _ => hex_float(a, self.prec),
        };
        let body = if upper { body.to_uppercase() } else { body };
        let (prefix, digits) = if conv.eq_ignore_ascii_case(&b'a') {
            (if upper { "0X" } else { "0x" }, body)
        } else {
            ("", body)
        };
        self.num(sign, prefix, digits, true)
    }
}

/// `d.ddde±XX` with `prec` digits after the point.
fn exp_form(a: f64, prec: usize, alt: bool) -> String {
    let s = format!("{a:.prec$e}");
    let (m, e) = s.split_at(s.find('e').unwrap_or(s.len()));
    let x: i32 = e.get(1..).and_then(|t| t.parse().ok()).unwrap_or(0);
    let m = if alt && !m.contains('.') {
        format!("{m}.")
    } else {
        m.to_string()
    };
    format!("{m}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs())
}

/// Removes trailing zeros of the fraction (and a trailing point) of `%g` output.
fn strip_zeros(s: String) -> String {
    let (m, e) = match s.find('e') {
        Some(k) => (s[..k].to_string(), s[k..].to_string()),
        None => (s.clone(), String::new()),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        m
    };
    m + &e
}

/// `%a` without its `0x` prefix: `h.hhhp±d` (exact when no precision is given).
fn hex_float(a: f64, prec: Option<usize>) -> String {
    if a == 0.0 {
        return match prec {
            Some(p) if p > 0 => format!("0.{}p+0", "0".repeat(p)),
            _ => "0p+0".to_string(),
        };
    }
    let bits = a.to_bits();
    let (mut e, mut m) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    let lead = if e == 0 {
        // subnormal: normalise
        let sh = m.leading_zeros() - 11;
        m = (m << sh) & ((1 << 52) - 1);
        e = 1 - sh as i32;
        1
    } else {
        1
    };
    let e = e - 1023;
    let mut digits = format!("{m:013x}");
    let mut lead = lead;
    if let Some(p) = prec.filter(|&p| p < 13) {
        // round the 52-bit fraction to p hex digits, nearest even
        let drop = 4 * (13 - p) as u32;
        let full = ((lead as u64) << 52) | m;
        let q = full >> drop;
        let rem = full & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        let q = if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        };
        lead = (q >> (4 * p)) as u8 as i32;
        digits = if p == 0 {
            String::new()
        } else {
            format!("{:0w$x}", q & ((1u64 << (4 * p)) - 1), w = p)
        };
    } else if prec.is_none() {
        digits = digits.trim_end_matches('0').to_string();
    }
    let point = if digits.is_empty() { "" } else { "." };
    format!(
        "{lead}{point}{digits}p{}{}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, args: &[u8]) -> String {
        let a = args.to_vec();
        let mut rd = |at: u64, n: u32| -> Result<u64, String> {
            let mut v = [0u8; 8];
            v[..n as usize].copy_from_slice(&a[at as usize..at as usize + n as usize]);
            Ok(u64::from_le_bytes(v))
        };
        let mut st = |_p: u64| -> Result<Vec<u8>, String> { Ok(b"str".to_vec()) };
        format(f.as_bytes(), &mut rd, &mut st).unwrap().0
    }

    #[test]
    fn printf_conversions_match_c() {
        let mut b = Vec::new();
        b.extend((-42i32).to_le_bytes());
        b.extend([0u8; 4]);
        b.extend(3.17159f64.to_le_bytes());
        b.extend(255u32.to_le_bytes());
        b.extend([0u8; 4]);
        b.extend(1.5e-7f64.to_le_bytes());
        b.extend(123456789.0f64.to_le_bytes());
        assert_eq!(
            fmt("[%5d|%-8.3f|%#x|%g|%e]", &b),
            "[  -42|3.172   |0xff|1.5e-07|1.234568e+08]"
        );
        assert_eq!(fmt("%05.1f%%", &2.25f64.to_le_bytes()), "002.2%");
        assert_eq!(fmt("%g", &100000.0f64.to_le_bytes()), "100000");
        assert_eq!(fmt("%g", &1000000.0f64.to_le_bytes()), "1e+06");
        assert_eq!(fmt("%a", &1.0f64.to_le_bytes()), "0x1p+0");
        assert_eq!(fmt("%s!", &[0u8, 0, 0, 0, 0, 0, 0, 1]), "str!");
    }

    #[test]
    fn heap_is_first_fit_and_exhausts_to_null() {
        let mut d = DeviceServices::default();
        let place = |_b: u64| Some(0x1000u64);
        let a = d.malloc(10, place);
        let b = d.malloc(32, |_| None);
        assert_eq!((a, b), (0x1000, 0x1010));
        d.free(a).unwrap();
        assert_eq!(d.malloc(16, |_| None), 0x1000);
        assert_eq!(d.malloc(HEAP_BYTES, |_| None), 0);
        assert!(d.free(0x1004).is_err());
        d.free(0).unwrap();
        d.free(0x1000).unwrap();
        d.free(0x1010).unwrap();
        assert_eq!(d.malloc(HEAP_BYTES, |_| None), 0x1000);
    }
}
