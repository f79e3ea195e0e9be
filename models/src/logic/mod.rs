//! Parametric logic components (under construction).
pub mod terms;
