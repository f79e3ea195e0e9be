//! A strict reader and writer of NumPy's `.npy` format (format versions 1.0, 2.0 and 3.0) for
//! the element types a program buffer can have: little-endian `u1 i1 u2 i2 u4 i4 u8 i8 f2 f4
//! f8`, C order. Anything else (big-endian data, Fortran order of a multi-dimensional array,
//! structured or object dtypes, a truncated or oversized payload) is an error that says what
//! was found and what is allowed.

use super::file::DType;

const MAGIC: &[u8] = b"\x93NUMPY";

/// A decoded `.npy` file: its element type, its shape and its raw little-endian payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Npy {
    /// Element type.
    pub dtype: DType,
    /// Shape (empty for a scalar).
    pub shape: Vec<u64>,
    /// The elements' bytes, little-endian, C order.
    pub data: Vec<u8>,
}

impl Npy {
    /// Number of elements (the product of the shape).
    pub fn count(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// The `descr` string of `d` (`<f4`, `|u1`, …).
pub fn descr(d: DType) -> &'static str {
    match d {
        DType::U8 => "|u1",
        DType::I8 => "|i1",
        DType::U16 => "<u2",
        DType::I16 => "<i2",
        DType::U32 => "<u4",
        DType::I32 => "<i4",
        DType::U64 => "<u8",
        DType::I64 => "<i8",
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
    }
}

fn dtype_of_descr(s: &str) -> Option<DType> {
    let all = [
        DType::U8,
        DType::I8,
        DType::U16,
        DType::I16,
        DType::U32,
        DType::I32,
        DType::U64,
        DType::I64,
        DType::F16,
        DType::F32,
        DType::F64,
    ];
    // one-byte types may be written with any byte-order mark
    all.into_iter().find(|&d| {
        let want = descr(d);
        s == want || (d.size() == 1 && (s == format!("<{}", &want[1..]) || s == &want[1..]))
    })
}

/// Encodes `data` (little-endian elements of `dtype`) as a version 1.0 `.npy` file of shape
/// `shape`.
pub fn write(dtype: DType, shape: &[u64], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let shape_txt = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape_txt}, }}",
        descr(dtype)
    );
    // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64
    let unpadded = MAGIC.len() + 4 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

/// Decodes a `.npy` file (module doc for what is accepted).
pub fn read(bytes: &[u8]) -> Result<Npy, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (hlen, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("truncated .npy header".into());
            }
            (
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                12,
            )
        }
        v => return Err(format!(".npy format version {v} (allowed: 1, 2, 3)")),
    };
    let end = start
        .checked_add(hlen)
        .filter(|&e| e <= bytes.len())
        .ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(&bytes[start..end])
        .map_err(|_| ".npy header is not text".to_string())?;
    let descr_s = dict_value(header, "descr").ok_or("the .npy header has no 'descr'")?;
    let descr_s = descr_s.trim_matches(|c| c == '\'' || c == '"');
    let dtype = dtype_of_descr(descr_s).ok_or_else(|| {
        format!(
            "dtype '{descr_s}' is not supported (allowed: little-endian u1 i1 u2 i2 u4 i4 u8 i8 \
             f2 f4 f8)"
        )
    })?;
    let fortran =
        dict_value(header, "fortran_order").ok_or("the .npy header has no 'fortran_order'")?;
    let shape_s = dict_value(header, "shape").ok_or("the .npy header has no 'shape'")?;
    let inner = shape_s
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| format!("'shape' {shape_s} is not a tuple"))?;
    let mut shape = Vec::new();
    for d in inner.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let d = d.trim_end_matches('L');
        shape.push(
            d.parse::<u64>()
                .map_err(|_| format!("'shape' {shape_s}: '{d}' is not a dimension"))?,
        );
    }
    match fortran {
        "False" => {}
        "True" if shape.iter().filter(|&&d| d > 1).count() <= 1 => {}
        "True" => return Err("Fortran-order arrays are not supported; save in C order".into()),
        other => return Err(format!("'fortran_order' {other} is not True or False")),
    }
    let n = shape
        .iter()
        .try_fold(1u64, |a, &d| a.checked_mul(d))
        .and_then(|n| n.checked_mul(dtype.size()))
        .ok_or_else(|| format!("'shape' {shape_s} overflows"))?;
    let payload = &bytes[end..];
    if payload.len() as u64 != n {
        return Err(format!(
            "the payload has {} bytes; shape {shape_s} of {} needs {n}",
            payload.len(),
            descr_s
        ));
    }
    Ok(Npy {
        dtype,
        shape,
        data: payload.to_vec(),
    })
}

/// The text after `'key':` in a header dictionary, up to the next top-level comma.
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = &header[at + key.len() + 2..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' | '}' if depth == 0 => return Some(rest[..i].trim()),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_header_alignment() {
        let data: Vec<u8> = [1.5f32, -2.0, 3.25]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let f = write(DType::F32, &[3], &data);
        assert_eq!((f.len() - data.len()) % 64, 0);
        let n = read(&f).unwrap();
        assert_eq!(n.dtype, DType::F32);
        assert_eq!(n.shape, vec![3]);
        assert_eq!(n.data, data);
        let g = write(DType::I64, &[2, 2], &[0u8; 32]);
        assert_eq!(read(&g).unwrap().shape, vec![2, 2]);
    }

    #[test]
    fn refusals_name_the_problem() {
        let mut f = write(DType::F32, &[3], &[0u8; 12]);
        f.pop();
        assert!(read(&f).unwrap_err().contains("payload has 11 bytes"));
        let swap = |f: Vec<u8>, from: &str, to: &str| -> Vec<u8> {
            let at = f
                .windows(from.len())
                .position(|w| w == from.as_bytes())
                .expect("in the header");
            let mut g = f[..at].to_vec();
            g.extend_from_slice(to.as_bytes());
            g.extend_from_slice(&f[at + from.len()..]);
            g
        };
        let be = swap(write(DType::F32, &[1], &[0u8; 4]), "<f4", ">f4");
        let e = read(&be).unwrap_err();
        assert!(e.contains("'>f4' is not supported"), "{e}");
        assert!(read(b"hello").unwrap_err().contains("magic"));
        let fo = swap(
            write(DType::U8, &[2, 2], &[0u8; 4]),
            "'fortran_order': False",
            "'fortran_order': True ",
        );
        assert!(read(&fo).unwrap_err().contains("Fortran"));
    }
}
