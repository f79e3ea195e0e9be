//! An emulator that attributes executed warp instructions to kernel names (shared by the
//! workload-suite tests).

use sim::emu::Emulator;
use sim::{DevPtr, Gpu, Launch, SimError};
use std::collections::BTreeMap;

pub struct Counting {
    pub emu: Emulator,
    pub per_kernel: BTreeMap<String, u64>,
}

impl Gpu for Counting {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let before = self.emu.warp_insts();
        self.emu.launch(launch)?;
        *self
            .per_kernel
            .entry(launch.kernel.name.clone())
            .or_default() += self.emu.warp_insts() - before;
        Ok(())
    }
}
