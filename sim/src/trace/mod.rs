//! Accel-Sim SASS traces (simulator §3.2): reader and writer.
//!
//! - [`header`]: `kernelslist.g` and the `.traceg` header;
//! - [`mod@line`]: one instruction line ↔ [`crate::inst::WarpInst`], with every address-compression
//!   mode;
//! - [`reader`]: the streaming reader, a [`crate::KernelStream`] the timing model consumes;
//! - [`writer`]: runs any kernel stream functionally and writes traces;
//! - [`sass`]: SASS opcode classification.

pub mod gpu;
pub mod header;
pub mod line;
pub mod reader;
pub mod run;
pub mod sass;
pub mod writer;

pub use header::{read_kernel_list, ListEntry, TraceHeader};
pub use line::TraceForm;
pub use reader::{scan_body, TraceKernel, TraceOptions};
pub use run::{TraceFolder, TraceRun};
pub use writer::{drive_cta, TraceWriter};
