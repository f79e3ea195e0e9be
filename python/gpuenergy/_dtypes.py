"""The element types a device array holds: numpy's, named as program files name them
(docs/programs.md: u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64)."""

import numpy as np

#: numpy dtype -> the program-file name of the type.
NAMES = {
    np.dtype(np.uint8): "u8",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint16): "u16",
    np.dtype(np.int16): "i16",
    np.dtype(np.uint32): "u32",
    np.dtype(np.int32): "i32",
    np.dtype(np.uint64): "u64",
    np.dtype(np.int64): "i64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
}
_BY_NAME = {v: k for k, v in NAMES.items()}
ALLOWED = "u8 i8 u16 i16 u32 i32 u64 i64 f16 f32 f64 (or the numpy types uint8 ... float64)"


def dtype_of(d):
    """The numpy dtype (little-endian) for a numpy dtype, type or a name such as 'f32'."""
    if isinstance(d, str) and d in _BY_NAME:
        return _BY_NAME[d]
    try:
        nd = np.dtype(d)
    except TypeError:
        raise TypeError(f"dtype {d!r} is not a type; allowed: {ALLOWED}") from None
    nd = nd.newbyteorder("<") if nd.byteorder == ">" else nd
    if nd.newbyteorder("=") not in NAMES:
        raise TypeError(f"dtype {nd} cannot live on the device; allowed: {ALLOWED}")
    return nd.newbyteorder("=")


def scalar_kind(x):
    """The launch-argument kind of a numpy scalar ('i32', 'f32', ...), or None for others."""
    if isinstance(x, np.generic):
        name = NAMES.get(x.dtype)
        if name is None or name == "f16":
            raise TypeError(
                f"a numpy {x.dtype} scalar cannot be passed to a kernel; pass one of "
                "np.uint8/int8/uint16/int16/uint32/int32/uint64/int64/float32/float64"
            )
        return name
    return None
