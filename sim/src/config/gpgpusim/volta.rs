//! GPGPU-Sim's options of a Volta-class machine that the mapping reads together: the unified
//! L1/shared array and its per-launch carve-out ([`carveout`]), and the PTX-mode tensor cores
//! ([`tensor_cores`]).

use super::map::{Mapper, Res};
use super::options::{bad_value, flag, positive, uint, uint_list};

/// The unified L1/shared array: with `-gpgpu_adaptive_cache_config 1`, the array of
/// `-gpgpu_unified_l1d_size` KB is split at each launch among `-gpgpu_shmem_option`'s
/// carve-outs (`config::L1dCarveout`); without it (or without a unified size) the L1 keeps
/// `-gpgpu_cache:dl1` and the two options have no effect.
pub(super) fn carveout(m: &mut Mapper) -> Res {
    let adaptive = match m.take("-gpgpu_adaptive_cache_config") {
        Some((i, o)) => Some((i, flag(&o)?, o)),
        None => None,
    };
    let unified = m.take("-gpgpu_unified_l1d_size");
    let options = m.take("-gpgpu_shmem_option");
    let unified_kb = match &unified {
        Some((_, o)) => uint(o)?,
        None => 0,
    };
    if matches!(adaptive, Some((_, true, _))) && unified_kb > 0 {
        let Some((io, oo)) = options else {
            let (_, _, o) = adaptive.expect("matched");
            return Err(bad_value(
                &o,
                "needs -gpgpu_shmem_option, the shared-memory carve-outs of the unified array",
                "-gpgpu_shmem_option 0,8,16,32,64,96",
            ));
        };
        let n = oo.value.split(',').count();
        let kb = uint_list(&oo, ',', n, "carve-outs in KB, e.g. 0,8,16,32,64,96")?;
        m.cfg.l1d.unified_kb = unified_kb;
        m.cfg.shmem.carveout_kb = kb;
        let (ia, _, oa) = adaptive.expect("matched");
        m.record(
            (ia, &oa),
            &["l1d.unified_kb", "shmem.carveout_kb"],
            "each launch carves shared memory out of the unified array",
        );
        let (iu, ou) = unified.expect("unified_kb > 0");
        m.record((iu, &ou), &["l1d.unified_kb"], "");
        m.record((io, &oo), &["shmem.carveout_kb"], "");
        return Ok(());
    }
    let why = "no carve-out without -gpgpu_adaptive_cache_config 1 and a unified size: the L1 \
               keeps -gpgpu_cache:dl1 and shared memory -gpgpu_shmem_size";
    for (i, o) in [unified, options].into_iter().flatten() {
        m.skip((i, o), why);
    }
    if let Some((i, _, o)) = adaptive {
        m.skip((i, o), why);
    }
    Ok(())
}

/// Multiply-accumulates of the product GPGPU-Sim's PTX mode times as one tensor-core
/// instruction: a `wmma.mma` of m16n16k16, 16 · 16 · 16.
const WMMA_MACS: u32 = 4096;

/// Tensor cores in GPGPU-Sim's PTX mode: `-gpgpu_tensor_core_avail 1` with
/// `-gpgpu_num_tensor_core_units` units per SM, each taking one `wmma.mma` product with
/// `-ptx_opcode_latency_tesnor` (sic) cycles of latency and a new one every
/// `-ptx_opcode_initiation_tensor` cycles. Mapped onto `units.n_tensor`, `latency.tensor` =
/// [L, II] and `units.tensor_macs_per_cycle` = 4,096 / II, so that an m16n16k16 product is
/// II passes (`exec::tensor_class`) and times exactly as there, and other shapes scale with
/// their multiply-accumulates. Without the units the machine has no tensor cores.
pub(super) fn tensor_cores(m: &mut Mapper) -> Res {
    let avail = match m.take("-gpgpu_tensor_core_avail") {
        Some((i, o)) => Some((i, flag(&o)?, o)),
        None => None,
    };
    let units = m.take("-gpgpu_num_tensor_core_units");
    let lat = m.take("-ptx_opcode_latency_tesnor");
    let ii = m.take("-ptx_opcode_initiation_tensor");
    let on = matches!(avail, Some((_, true, _)));
    if let Some((i, o)) = &units {
        m.cfg.units.n_tensor = if on { uint(o)? } else { 0 };
        let note = if on {
            ""
        } else {
            "-gpgpu_tensor_core_avail is not 1: no tensor cores"
        };
        m.record((*i, o), &["units.n_tensor"], note);
    } else if on {
        let (_, _, o) = avail.as_ref().expect("on");
        return Err(bad_value(
            o,
            "needs -gpgpu_num_tensor_core_units, the tensor-core units per SM",
            "-gpgpu_num_tensor_core_units 4",
        ));
    }
    if let Some((i, avail_on, o)) = &avail {
        if !avail_on {
            m.cfg.units.n_tensor = 0;
        }
        m.record((*i, o), &["units.n_tensor"], "");
    }
    if let Some((i, o)) = &lat {
        m.cfg.latency.tensor[0] = positive(o)?;
        m.record((*i, o), &["latency.tensor"], "");
    }
    if let Some((i, o)) = &ii {
        let v = positive(o)?;
        m.cfg.latency.tensor[1] = v;
        m.cfg.units.tensor_macs_per_cycle = (WMMA_MACS / v).max(1);
        m.record(
            (*i, o),
            &["latency.tensor", "units.tensor_macs_per_cycle"],
            "an m16n16k16 product (4,096 MACs) every II cycles per unit: \
             tensor_macs_per_cycle = 4096 / II",
        );
    }
    Ok(())
}
