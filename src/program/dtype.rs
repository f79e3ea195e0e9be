//! The element types of program buffers (`dtype`), with their sizes and names.

/// Element type of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// Unsigned 8-bit integer.
    U8,
    /// Signed 8-bit integer.
    I8,
    /// Unsigned 16-bit integer.
    U16,
    /// Signed 16-bit integer.
    I16,
    /// Unsigned 32-bit integer.
    U32,
    /// Signed 32-bit integer.
    I32,
    /// Unsigned 64-bit integer.
    U64,
    /// Signed 64-bit integer.
    I64,
    /// IEEE-754 half precision.
    F16,
    /// IEEE-754 single precision.
    F32,
    /// IEEE-754 double precision.
    F64,
}

/// The dtype names a program file accepts.
pub const DTYPES: &str = "u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64";

impl DType {
    /// Parses a dtype name.
    pub fn parse(s: &str) -> Option<DType> {
        Some(match s {
            "u8" => DType::U8,
            "i8" => DType::I8,
            "u16" => DType::U16,
            "i16" => DType::I16,
            "u32" => DType::U32,
            "i32" => DType::I32,
            "u64" => DType::U64,
            "i64" => DType::I64,
            "f16" => DType::F16,
            "f32" => DType::F32,
            "f64" => DType::F64,
            _ => return None,
        })
    }
    /// Its name in a program file.
    pub fn name(self) -> &'static str {
        match self {
            DType::U8 => "u8",
            DType::I8 => "i8",
            DType::U16 => "u16",
            DType::I16 => "i16",
            DType::U32 => "u32",
            DType::I32 => "i32",
            DType::U64 => "u64",
            DType::I64 => "i64",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }
    /// Bytes per element.
    pub fn size(self) -> u64 {
        match self {
            DType::U8 | DType::I8 => 1,
            DType::U16 | DType::I16 | DType::F16 => 2,
            DType::U32 | DType::I32 | DType::F32 => 4,
            DType::U64 | DType::I64 | DType::F64 => 8,
        }
    }
    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::F32 | DType::F64)
    }
    /// The integer range of an integer type (`None` for floats).
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::U8 => (0, u8::MAX as i128),
            DType::I8 => (i8::MIN as i128, i8::MAX as i128),
            DType::U16 => (0, u16::MAX as i128),
            DType::I16 => (i16::MIN as i128, i16::MAX as i128),
            DType::U32 => (0, u32::MAX as i128),
            DType::I32 => (i32::MIN as i128, i32::MAX as i128),
            DType::U64 => (0, u64::MAX as i128),
            DType::I64 => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        })
    }
}
