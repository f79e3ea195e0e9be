//! A [`Gpu`] that runs every launch functionally on the PTX emulator and writes it as Accel-Sim
//! traces (`gpuenergy trace`): any host program — a built-in workload or a user's launch — can be
//! turned into a trace folder the trace-driven simulator reads back.

use super::line::TraceForm;
use super::writer::TraceWriter;
use crate::emu::Emulator;
use crate::stream::{DevPtr, Gpu};
use crate::{Launch, SimError};
use std::path::{Path, PathBuf};

/// Functional emulator + trace writer.
pub struct TraceGpu {
    emu: Emulator,
    writer: TraceWriter,
    /// Each kernel written: its file and instruction-line count.
    pub kernels: Vec<(PathBuf, u64)>,
}

impl TraceGpu {
    /// Writes traces of `form` into `dir` (created if needed).
    pub fn create(dir: &Path, form: TraceForm) -> Result<TraceGpu, SimError> {
        Ok(TraceGpu {
            emu: Emulator::new(),
            writer: TraceWriter::create(dir, form)?,
            kernels: Vec::new(),
        })
    }

    /// Stops any launch that executes more than `limit` warp instructions (`None`: no limit)
    /// with [`SimError::WarpInstLimit`].
    pub fn set_max_warp_insts_per_launch(&mut self, limit: Option<u64>) {
        self.emu.max_warp_insts_per_launch = limit;
    }

    /// Flushes the kernel list and returns its path.
    pub fn finish(self) -> Result<PathBuf, SimError> {
        self.writer.finish()
    }
}

impl Gpu for TraceGpu {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }

    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.writer.memcpy_h2d(dst, data.len() as u64)?;
        self.emu.copy_to_device(dst, data)
    }

    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }

    fn create_texture(&mut self, desc: &crate::texture::TextureDesc) -> Result<u64, SimError> {
        self.emu.create_texture(desc)
    }

    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        if launch.cooperative {
            // the writer records one CTA after another: a grid-wide barrier would wait for
            // CTAs not yet started, and a replayed spin count has no meaning
            return Err(SimError::Launch {
                kernel: launch.kernel.name.clone(),
                msg: "a cooperative launch (grid-wide synchronisation) cannot be written as \
                      Accel-Sim traces: the trace writer runs CTAs one after another"
                    .into(),
            });
        }
        let mut stream = self.emu.stream(launch)?;
        let written = self.writer.write_kernel(&mut *stream)?;
        self.kernels.push(written);
        Ok(())
    }
}
