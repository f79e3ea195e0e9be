//! Chip composition: every component of an SM and of the chip, sized from `GpuConfig` and the
//! technology node, costed into an [`Estimate`].

pub mod board;
pub mod chip;
pub mod dram;
pub mod estimate;
pub mod limits;
pub mod source;
pub mod storage;
mod tree;

pub use chip::{ChipError, ChipModel, CostError, CostSource, Costed, UnitCost};
pub use estimate::{
    CvMape, Estimate, EstimateError, IdleSms, Node, NonFiniteError, Part, QuantityMape, SmUse,
    Source, SramAccuracy, Totals,
};
pub use source::{sram_accuracy, SourceError, TechCostSource};
pub use storage::{storage_specs, Scope, StorageSpec};
