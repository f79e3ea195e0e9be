//! `GpuConfig`: every machine parameter of the simulated GPU (simulator §1, §6.3).
//!
//! The schema is one serde struct per TOML table, each with `deny_unknown_fields`, so that every
//! value of the preset tables (§1.1, §1.2) maps to exactly one field and a misspelt key is an
//! error. The built-in presets `gtx480`, `gtx780`, `gtx1080ti`, `gf8800gtx_like` and `vortex_like`
//! are full TOML files embedded
//! from `sim/presets/`; a user file either is a full file of the same schema or starts with
//! `base = "<preset>"` and overrides the preset key by key ([`GpuConfig::from_toml_file`]).
//!
//! [`gpgpusim`] imports GPGPU-Sim / Accel-Sim option files as a configuration. The tables of
//! the register-file techniques are modules of their own (`technique/`), each registered once
//! in `technique::SECTIONS`; the generic code here reaches them through that list.
//!
//! Units: clocks in MHz (`*_mhz`), latencies in cycles of the component's own clock domain,
//! sizes in bytes (`*_bytes`) or entries. Derived SI quantities are methods (`core_hz`, ...).

mod carveout;
pub mod fold;
pub mod gpgpusim;
pub mod keydoc;
mod load;
mod ooo;
pub mod pg;
pub mod physical;
pub mod prf;
mod ranges;
pub mod reconv;
mod schema;
mod technique;

pub use carveout::L1dCarveout;
pub use load::{
    table_with_overrides, OtherTables, OverrideBase, PRESETS, PRESET_NAMES, UNREAD_KEYS,
};
pub use ooo::*;
pub use ranges::key_range;
pub use schema::*;
pub use technique::*;
