//! Chip composition: every component of an SM and of the chip, sized from `GpuConfig` and the
//! technology node, costed into an [`Estimate`].

pub mod chip;
pub mod dram;
pub mod estimate;
pub mod source;
pub mod storage;

pub use chip::{ChipModel, CostSource, UnitCost};
pub use estimate::{Estimate, Node, Totals};
pub use source::{TechChoice, TechCostSource};
pub use storage::{storage_specs, Scope, StorageSpec};
