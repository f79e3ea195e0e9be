//! accounting placeholder
