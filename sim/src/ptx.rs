//! PTX-subset front end: parser, register allocation, CFG and reconvergence (spec simulator.md §3.1).

/// A parsed, register-allocated kernel.
#[derive(Debug)]
pub struct Kernel {
    pub name: String,
}
