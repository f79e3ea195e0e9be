//! Off-chip DRAM access energy (GDDR5-class or HBM2, by `dram.kind`) and the background power
//! of HBM2 stacks.
//!
//! Energy = bursts × burst bits × energy per bit (column access, on-die data movement and the
//! I/O interface) + activates × energy per activate (row open and precharge). DRAM is off the
//! GPU die: it adds energy, not die area. Its background power (refresh, standby, the I/O
//! clock) is not part of the chip estimate; [`DramBackground`] gives it, in watts, for a
//! board-level power model.
//!
//! GDDR5 parameters (`dram.kind = "gddr5"` or `"gddr5x"`, the latter without a published
//! breakdown of its own), from published characterisations (device data, not fitted here):
//! - I/O + column energy ≈ 12 pJ/bit: O'Connor et al., "Fine-Grained DRAM", MICRO 2017, put a
//!   GDDR5 access at about 14 pJ/bit in total, of which row activation is about 2 pJ/bit at
//!   typical row locality; the remainder is charged per bit here, activation per activate.
//! - Activation ≈ 2 nJ per activate of a 2 KiB page (≈ 1 pJ/bit of the page): Vogelsang,
//!   "Understanding the Energy Consumption of Dynamic Random Access Memories", MICRO 2010.
//!
//! HBM2 parameters (`dram.kind = "hbm2"`):
//! - Per bit ≈ 2.76 pJ: O'Connor et al., MICRO 2017, put an HBM2 access at 3.97 pJ/bit in
//!   total, of which row activation is 1.21 pJ/bit at the row locality of their GPU workloads;
//!   as for GDDR5, the remainder (on-die data movement and the interposer I/O) is charged per
//!   bit, activation per activate.
//! - Per activate ≈ 0.83 nJ, from the device currents of an 8 Gb HBM2 channel (VDD 1.2 V,
//!   IDD0 65 mA, IDD2N 40 mA, IDD3N 55 mA, tRAS 34 and tRP 14 clocks of 1 ns) as DRAMsim3
//!   (Li et al., "DRAMsim3: a Cycle-Accurate, Thermal-Capable DRAM Simulator", IEEE CAL 2020;
//!   its `configs/HBM2_8Gb_x128.ini`) carries them, by the
//!   IDD method of Micron TN-41-01 ("Calculating Memory System Power for DDR3"):
//!   E_act = VDD × (IDD0 × tRC − IDD3N × tRAS − IDD2N × tRP), tRC = tRAS + tRP. Over the
//!   1 KiB row of a pseudo-channel that is 0.10 pJ per bit of the row; the 1.21 pJ/bit of
//!   O'Connor et al. corresponds to about 85 bytes read per activate.
//!
//! HBM2 background power ([`DramBackground::hbm2`]), per 128-bit channel (JESD235A: eight per
//! stack), from the same device currents:
//! - refresh: VDD × (IDD5AB − IDD3N) × tRFC / tREFI (IDD5AB 250 mA, tRFC 260 ns, tREFI
//!   3.9 µs): 15.6 mW, independent of the clock;
//! - standby: VDD × IDD2N (all banks precharged, 48 mW) to VDD × IDD3N (a row open, 66 mW) at
//!   the datasheet's 1 GHz clock, scaled linearly with the clock as TN-41-01 scales background
//!   power;
//! - the I/O clock: the differential command clock CK_t/CK_c of each channel toggles every
//!   cycle even when no data move, each pin charging its I/O capacitance, which reaches 2.4 pF
//!   for HBM ("A 0.95pJ/b 5.12Gb/s/pin Charge-Recycling IOs with 47% Energy Reduction for Big
//!   Data Applications", A-SSCC 2022, IEEE Xplore 9980680; an upper value, so this term is an
//!   upper bound of the pin charging), to VDDQ 1.2 V (JESD235A): 2 × C × VDDQ² × f. The PHY's
//!   DLL/PLL and bias currents on the GPU side are not included: no public figure for them was
//!   found.

use super::estimate::{Node, Source};
use sim::activity::KernelActivity;
use sim::config::{DramKind, GpuConfig};

/// Off-chip DRAM energy parameters: per bit moved and per row activate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DramParams {
    /// Bytes moved by one burst (chips × bytes per chip × burst length).
    pub burst_bytes: f64,
    /// Energy per bit transferred (column access, on-die data movement and I/O), J.
    pub energy_per_bit_j: f64,
    /// Energy per row activate (row open and precharge), J.
    pub energy_per_activate_j: f64,
    /// Where the per-bit and per-activate figures are published.
    pub source: &'static str,
}

/// The publications of the GDDR5 figures (see the module header).
pub const GDDR5_SOURCE: &str =
    "GDDR5 per bit: O'Connor et al., MICRO 2017; per activate: Vogelsang, MICRO 2010";

/// The publications of the HBM2 figures (see the module header).
pub const HBM2_SOURCE: &str = "HBM2 per bit: O'Connor et al., MICRO 2017; per activate: \
     DRAMsim3 HBM2 8 Gb currents (Li et al., IEEE CAL 2020) by Micron TN-41-01";

/// HBM2 access energy in total, J/bit (O'Connor et al., MICRO 2017).
pub const HBM2_ACCESS_J_PER_BIT: f64 = 3.97e-12;
/// The row-activation share of [`HBM2_ACCESS_J_PER_BIT`], J/bit (O'Connor et al., MICRO 2017).
pub const HBM2_ACTIVATION_J_PER_BIT: f64 = 1.21e-12;

/// Supply currents and timing of one DRAM channel, as a datasheet gives them (the IDD method of
/// Micron TN-41-01). Currents in A, voltages in V, times in s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DramCurrents {
    /// Core supply VDD.
    pub vdd_v: f64,
    /// I/O supply VDDQ.
    pub vddq_v: f64,
    /// IDD0: one bank activating and precharging every tRC.
    pub idd0_a: f64,
    /// IDD2N: precharge standby (all banks closed, clock running).
    pub idd2n_a: f64,
    /// IDD3N: active standby (a row open, clock running).
    pub idd3n_a: f64,
    /// IDD5AB: all-bank refresh.
    pub idd5ab_a: f64,
    /// The clock the standby currents are specified at.
    pub spec_clock_hz: f64,
    /// tRAS: activate to precharge.
    pub t_ras_s: f64,
    /// tRP: precharge period.
    pub t_rp_s: f64,
    /// tRFC: refresh cycle time.
    pub t_rfc_s: f64,
    /// tREFI: average refresh interval.
    pub t_refi_s: f64,
    /// Capacitance of one I/O pin.
    pub io_pin_c_f: f64,
}

/// One 128-bit channel of an 8 Gb HBM2 die: the currents and timing DRAMsim3 carries
/// (`configs/HBM2_8Gb_x128.ini`, tCK 1 ns), VDD = VDDQ = 1.2 V (JESD235A), I/O pin capacitance
/// 2.4 pF (A-SSCC 2022, IEEE Xplore 9980680). See the module header.
pub const HBM2_8GB_CHANNEL: DramCurrents = DramCurrents {
    vdd_v: 1.2,
    vddq_v: 1.2,
    idd0_a: 65e-3,
    idd2n_a: 40e-3,
    idd3n_a: 55e-3,
    idd5ab_a: 250e-3,
    spec_clock_hz: 1e9,
    t_ras_s: 34e-9,
    t_rp_s: 14e-9,
    t_rfc_s: 260e-9,
    t_refi_s: 3.9e-6,
    io_pin_c_f: 2.4e-12,
};

/// Data bits of one HBM2 channel (JESD235A).
pub const HBM2_CHANNEL_BITS: u32 = 128;
/// Channels of one HBM2 stack (JESD235A).
pub const HBM2_CHANNELS_PER_STACK: u32 = 8;

impl DramCurrents {
    /// Energy of one activate and its precharge: VDD × (IDD0 × tRC − IDD3N × tRAS − IDD2N ×
    /// tRP), tRC = tRAS + tRP (TN-41-01).
    pub fn activate_energy_j(&self) -> f64 {
        let t_rc = self.t_ras_s + self.t_rp_s;
        self.vdd_v * (self.idd0_a * t_rc - self.idd3n_a * self.t_ras_s - self.idd2n_a * self.t_rp_s)
    }

    /// Refresh power: VDD × (IDD5AB − IDD3N) × tRFC / tREFI.
    pub fn refresh_w(&self) -> f64 {
        self.vdd_v * (self.idd5ab_a - self.idd3n_a) * self.t_rfc_s / self.t_refi_s
    }

    /// Standby power at clock `clock_hz`, with a row open (`active`) or all banks precharged:
    /// VDD × IDD3N (IDD2N) scaled by `clock_hz` / the specification clock (TN-41-01).
    pub fn standby_w(&self, active: bool, clock_hz: f64) -> f64 {
        let i = if active { self.idd3n_a } else { self.idd2n_a };
        self.vdd_v * i * clock_hz / self.spec_clock_hz
    }

    /// Power of the differential command clock (two pins toggling every cycle): 2 × C × VDDQ²
    /// × f.
    pub fn clock_io_w(&self, clock_hz: f64) -> f64 {
        2.0 * self.io_pin_c_f * self.vddq_v * self.vddq_v * clock_hz
    }
}

/// Background power of the off-chip memory, W: what a board meter sees from it with no
/// access in flight. Not part of the chip estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DramBackground {
    /// 128-bit DRAM channels the components are summed over.
    pub channels: f64,
    /// Refresh.
    pub refresh_w: f64,
    /// Standby with all banks precharged.
    pub standby_precharged_w: f64,
    /// Standby with a row open in each channel.
    pub standby_active_w: f64,
    /// The I/O command clock.
    pub clock_io_w: f64,
}

impl DramBackground {
    /// HBM2 background power of `stacks` stacks at DRAM clock `clock_hz` (eight 128-bit
    /// channels per stack, [`HBM2_8GB_CHANNEL`] each).
    pub fn hbm2(stacks: f64, clock_hz: f64) -> DramBackground {
        let c = &HBM2_8GB_CHANNEL;
        let channels = stacks * HBM2_CHANNELS_PER_STACK as f64;
        DramBackground {
            channels,
            refresh_w: channels * c.refresh_w(),
            standby_precharged_w: channels * c.standby_w(false, clock_hz),
            standby_active_w: channels * c.standby_w(true, clock_hz),
            clock_io_w: channels * c.clock_io_w(clock_hz),
        }
    }

    /// The background power of `cfg`'s memory: for `dram.kind = "hbm2"`, of the stacks its data
    /// bus makes (channels × chips × bus bytes, in stacks of 1024 bits) at `gpu.dram_mhz`;
    /// `None` for the GDDR kinds, whose background power is not modelled.
    pub fn of_config(cfg: &GpuConfig) -> Option<DramBackground> {
        match cfg.dram.kind {
            DramKind::Hbm2 => Some(DramBackground::hbm2(
                hbm2_stacks(cfg),
                cfg.gpu.dram_mhz * 1e6,
            )),
            DramKind::Gddr5 | DramKind::Gddr5x => None,
        }
    }

    /// Total background power with a fraction `active_fraction` (0 to 1) of the time in active
    /// standby (a row open) and the rest in precharge standby.
    pub fn background_w(&self, active_fraction: f64) -> f64 {
        let a = active_fraction.clamp(0.0, 1.0);
        self.refresh_w
            + a * self.standby_active_w
            + (1.0 - a) * self.standby_precharged_w
            + self.clock_io_w
    }
}

/// HBM2 stacks of `cfg`'s memory: the total data-bus width (channels × chips × bus bytes × 8
/// bits) over the 1024 bits of one stack. A V100 configured with 32 channels of 16 bytes, or
/// with 64 pseudo-channels of 8 bytes, has 4.
pub fn hbm2_stacks(cfg: &GpuConfig) -> f64 {
    let bits = cfg.mem.n_channels as f64
        * cfg.dram.chips_per_channel as f64
        * cfg.dram.bus_bytes_per_chip as f64
        * 8.0;
    bits / (HBM2_CHANNEL_BITS * HBM2_CHANNELS_PER_STACK) as f64
}

impl DramParams {
    /// The parameters of `cfg`'s DRAM kind (`dram.kind`), for its bursts (chips × bytes per
    /// chip × burst length).
    pub fn of_config(cfg: &GpuConfig) -> DramParams {
        let burst_bytes = (cfg.dram.chips_per_channel
            * cfg.dram.bus_bytes_per_chip
            * cfg.dram.burst_length) as f64;
        match cfg.dram.kind {
            DramKind::Gddr5 | DramKind::Gddr5x => DramParams::gddr5(burst_bytes),
            DramKind::Hbm2 => DramParams::hbm2(burst_bytes),
        }
    }

    /// HBM2 parameters for bursts of `burst_bytes` (see the module header).
    pub fn hbm2(burst_bytes: f64) -> DramParams {
        DramParams {
            burst_bytes,
            energy_per_bit_j: HBM2_ACCESS_J_PER_BIT - HBM2_ACTIVATION_J_PER_BIT,
            energy_per_activate_j: HBM2_8GB_CHANNEL.activate_energy_j(),
            source: HBM2_SOURCE,
        }
    }

    /// GDDR5-class parameters for bursts of `burst_bytes`.
    pub fn gddr5(burst_bytes: f64) -> DramParams {
        DramParams {
            burst_bytes,
            energy_per_bit_j: 12e-12,
            energy_per_activate_j: 2e-9,
            source: GDDR5_SOURCE,
        }
    }

    /// Energy of the run's DRAM traffic as an estimate node (no area, no leakage).
    pub fn node(&self, k: &KernelActivity, _runtime_s: f64) -> Node {
        let bursts: u64 = k.dram.iter().map(|d| d.reads + d.writes).sum();
        let acts: u64 = k.dram.iter().map(|d| d.activates).sum();
        Node {
            name: "DRAM (off-chip)".into(),
            source: Source::Published {
                source: self.source.to_string(),
            },
            instances: k.dram.len() as u32,
            dynamic_j: bursts as f64 * self.burst_bytes * 8.0 * self.energy_per_bit_j
                + acts as f64 * self.energy_per_activate_j,
            ..Node::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn hbm2_activate_and_bit_energies() {
        // 1.2 V × (65 mA × 48 ns − 55 mA × 34 ns − 40 mA × 14 ns) = 1.2 V × 0.69 nC
        let e = HBM2_8GB_CHANNEL.activate_energy_j();
        assert!(close(e, 0.828e-9, 1e-9), "{e}");
        let p = DramParams::hbm2(32.0);
        assert!(close(p.energy_per_bit_j, 2.76e-12, 1e-9));
        assert_eq!(p.burst_bytes, 32.0);
        assert_eq!(p.source, HBM2_SOURCE);
    }

    #[test]
    fn hbm2_background_of_a_v100() {
        // 4 stacks = 32 channels at 877 MHz
        let b = DramBackground::hbm2(4.0, 877e6);
        assert_eq!(b.channels, 32.0);
        // 1.2 V × 195 mA × 260 / 3900 = 15.6 mW a channel
        assert!(close(b.refresh_w, 32.0 * 15.6e-3, 1e-9), "{}", b.refresh_w);
        // 1.2 V × 40 mA (55 mA) × 0.877
        assert!(close(b.standby_precharged_w, 32.0 * 0.048 * 0.877, 1e-9));
        assert!(close(b.standby_active_w, 32.0 * 0.066 * 0.877, 1e-9));
        // 2 pins × 2.4 pF × 1.44 V² × 877 MHz
        assert!(close(
            b.clock_io_w,
            32.0 * 2.0 * 2.4e-12 * 1.44 * 877e6,
            1e-9
        ));
        let idle = b.background_w(0.0);
        let busy = b.background_w(1.0);
        // the totals docs/estimate.md quotes
        assert!(
            close(idle, 2.0403, 1e-4) && close(busy, 2.5454, 1e-4),
            "{idle} {busy}"
        );
        assert!(close(
            idle,
            b.refresh_w + b.standby_precharged_w + b.clock_io_w,
            1e-12
        ));
        assert!(busy > idle && b.background_w(0.5) < busy);
        assert_eq!(
            b.background_w(7.0),
            busy,
            "the fraction is clamped to 0..=1"
        );
        // Refresh does not depend on the clock; standby and the I/O clock scale with it.
        let slow = DramBackground::hbm2(4.0, 438.5e6);
        assert_eq!(slow.refresh_w, b.refresh_w);
        assert!(close(
            slow.standby_active_w,
            b.standby_active_w / 2.0,
            1e-12
        ));
        assert!(close(slow.clock_io_w, b.clock_io_w / 2.0, 1e-12));
    }

    #[test]
    fn kind_selects_the_parameters() {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        let burst = (cfg.dram.chips_per_channel
            * cfg.dram.bus_bytes_per_chip
            * cfg.dram.burst_length) as f64;
        assert_eq!(DramParams::of_config(&cfg), DramParams::gddr5(burst));
        assert!(DramBackground::of_config(&cfg).is_none());
        cfg.dram.kind = DramKind::Gddr5x;
        assert_eq!(DramParams::of_config(&cfg), DramParams::gddr5(burst));
        // A V100 in pseudo-channel mode: 64 channels of 8 bytes, burst length 4.
        cfg.dram.kind = DramKind::Hbm2;
        cfg.mem.n_channels = 64;
        cfg.dram.chips_per_channel = 1;
        cfg.dram.bus_bytes_per_chip = 8;
        cfg.dram.burst_length = 4;
        cfg.gpu.dram_mhz = 877.0;
        assert_eq!(DramParams::of_config(&cfg), DramParams::hbm2(32.0));
        assert_eq!(hbm2_stacks(&cfg), 4.0);
        assert_eq!(
            DramBackground::of_config(&cfg),
            Some(DramBackground::hbm2(4.0, 877e6))
        );
        // The same V100 as Accel-Sim configures it: 32 channels of 16 bytes.
        cfg.mem.n_channels = 32;
        cfg.dram.bus_bytes_per_chip = 16;
        assert_eq!(hbm2_stacks(&cfg), 4.0);
    }
}
