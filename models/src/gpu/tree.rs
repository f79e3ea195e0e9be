//! The estimate tree of a [`ChipModel`] for one run's activity: every SM and chip component as
//! a leaf with its area, dynamic energy (events × energy per event), leakage energy (leakage
//! power × the time its SM or the chip is powered, see [`IdleSms`]) and source, grouped into
//! front end, issue, register file, execution, memory pipeline and clock per SM, then the
//! memory system and DRAM.

use super::chip::{ChipModel, UnitCost};
use super::estimate::{Estimate, IdleSms, Node, Part, SmUse, Source};
use sim::activity::{KernelActivity, PipeActivity};
use std::collections::BTreeMap;

fn leaf(
    name: &str,
    source: Source,
    instances: u32,
    c: UnitCost,
    dynamic_j: f64,
    runtime_s: f64,
) -> Node {
    Node {
        name: name.to_string(),
        part: Part::Other,
        source,
        instances,
        area_m2: c.area_m2 * instances as f64,
        dynamic_j,
        leakage_j: c.leakage_w * instances as f64 * runtime_s,
        gating_overhead_j: 0.0,
        leakage_w: c.leakage_w * instances as f64,
        children: Vec::new(),
    }
}

fn pipe_energy(m: &ChipModel, p: &PipeActivity) -> f64 {
    let mut e = 0.0;
    for (class, ol) in &p.ops {
        let per = m
            .op_energy_j
            .get(&(p.pipe.clone(), class.clone()))
            .copied()
            .unwrap_or(0.0);
        e += ol.lanes as f64 * (per + m.pipe_reg_j_per_lane_op);
    }
    e
}

impl ChipModel {
    /// Static view: area and leakage of every component, no activity.
    pub fn static_estimate(&self, label: &str) -> Node {
        let act = KernelActivity::empty(label);
        self.tree(&act, 0.0)
    }

    /// The estimate tree for one kernel's (or an aggregate's) activity.
    pub fn tree(&self, k: &KernelActivity, runtime_s: f64) -> Node {
        let n = self.n_sm;
        let sum = |f: &dyn Fn(&sim::activity::SmActivity) -> u64| -> f64 {
            k.sms.iter().map(f).sum::<u64>() as f64
        };
        let lg = |name: &str| {
            self.sm_logic
                .get(name)
                .copied()
                .unwrap_or((0, UnitCost::default()))
        };
        // SM components leak while their SM is powered: every cycle of the run, or, with idle
        // SMs power-gated, only the cycles in which the SM had a resident CTA.
        let sm_runtime_s = match self.idle_sms {
            IdleSms::Leaking => runtime_s,
            IdleSms::Gated if n > 0 => sum(&|s| s.active_cycles) / self.core_clock_hz / n as f64,
            IdleSms::Gated => 0.0,
        };
        let mut sm_children = Vec::new();
        // --- Front end
        let ic_reads = sum(&|s| s.icache.reads);
        let ic_miss = sum(&|s| s.icache.misses);
        let fe = vec![
            self.store_leaf("instruction cache data", n, ic_reads, ic_miss, sm_runtime_s),
            self.store_leaf("instruction cache tags", n, ic_reads, ic_miss, sm_runtime_s),
            self.logic_leaf("fetch/decode", n, sum(&|s| s.decoder_insts), sm_runtime_s),
            self.logic_leaf(
                "instruction buffer",
                n,
                sum(&|s| s.ibuffer.writes + s.ibuffer.reads),
                sm_runtime_s,
            )
            .tagged(Part::InstructionBuffer),
        ];
        sm_children.push(Node::group("front end", fe).tagged(Part::FrontEnd));
        // --- Issue
        let evals = sum(&|s| s.sched.iter().map(|x| x.warp_evals).sum());
        let sb = sum(&|s| s.scoreboard.reads + s.scoreboard.writes);
        sm_children.push(
            Node::group(
                "issue",
                vec![
                    self.logic_leaf("warp scheduler", n, evals, sm_runtime_s),
                    self.logic_leaf("scoreboard", n, sb, sm_runtime_s)
                        .tagged(Part::Scoreboard),
                ],
            )
            .tagged(Part::Issue),
        );
        // --- Register file and operand collection
        let rf_r = sum(&|s| s.rf.reads.iter().sum());
        let rf_w = sum(&|s| s.rf.writes.iter().sum());
        let operands = sum(&|s| s.opcoll.iter().map(|o| o.operands).sum());
        sm_children.push(
            Node::group(
                "register file",
                vec![
                    self.store_leaf("register file", n, rf_r, rf_w, sm_runtime_s)
                        .tagged(Part::RegisterFile),
                    self.logic_leaf("operand collectors", n, operands, sm_runtime_s)
                        .tagged(Part::OperandCollectors),
                    self.logic_leaf("operand crossbar", n, operands, sm_runtime_s),
                ],
            )
            .tagged(Part::RegisterFileGroup),
        );
        // --- Execution
        let mut exec_e: BTreeMap<&str, f64> = BTreeMap::new();
        for s in &k.sms {
            for p in &s.exec {
                let key = match p.pipe.as_str() {
                    "int" => "SP integer ALUs",
                    "fp" => "SP FP units",
                    "sfu" => "SFU lanes",
                    "dp" => "DP lanes",
                    // the tensor cores' energy is their multiply-accumulates', below
                    "tensor" => continue,
                    _ => "LD/ST address units",
                };
                *exec_e.entry(key).or_default() += pipe_energy(self, p);
            }
        }
        let mut ex = Vec::new();
        for name in [
            "SP integer ALUs",
            "SP integer multipliers",
            "SP FP units",
            "SFU lanes",
            "DP lanes",
        ] {
            if let Some(&(inst, c)) = self.sm_logic.get(name) {
                let e = exec_e.get(name).copied().unwrap_or(0.0);
                let part = match name {
                    "SP integer ALUs" | "SP integer multipliers" => Part::IntUnits,
                    "SP FP units" => Part::FpUnits,
                    "SFU lanes" => Part::SfuUnits,
                    _ => Part::Other,
                };
                ex.push(
                    leaf(name, self.source_of(name), inst * n, c, e, sm_runtime_s).tagged(part),
                );
            }
        }
        if let Some(&(inst, c)) = self.sm_logic.get(super::chip::TENSOR_CORES) {
            // binary16 and bfloat16 products on the same slices (a bfloat16 multiplier is
            // narrower; costed as binary16)
            let macs = k.tensor.as_ref().map_or(0, |t| t.macs()) as f64;
            ex.push(
                leaf(
                    super::chip::TENSOR_CORES,
                    self.source_of(super::chip::TENSOR_CORES),
                    inst * n,
                    c,
                    macs * c.read_j,
                    sm_runtime_s,
                )
                .tagged(Part::TensorCores),
            );
        }
        sm_children.push(Node::group("execution", ex).tagged(Part::Execution));
        // --- Memory pipeline in the SM
        let l1_acc = sum(&|s| {
            let r = &s.l1d.read;
            let w = &s.l1d.write;
            r.hit + r.hit_reserved + r.miss + w.hit + w.hit_reserved + w.miss
        });
        let l1_fill = sum(&|s| s.l1d.fills);
        let smem_lanes = sum(&|s| s.smem.lanes);
        let cc = sum(&|s| s.const_cache.reads);
        let cc_miss = sum(&|s| s.const_cache.misses);
        // texture-cache lookups and fills (none when texture fetches go through the L1D)
        let tc = sum(&|s| s.tex_cache.reads);
        let tc_miss = sum(&|s| s.tex_cache.misses);
        let ldst_e = exec_e.get("LD/ST address units").copied().unwrap_or(0.0);
        let (ai, ac) = lg("LD/ST address units");
        let coal = sum(&|s| s.ldst.insts);
        sm_children.push(Node::group(
            "memory pipeline",
            vec![
                leaf(
                    "LD/ST address units",
                    self.source_of("LD/ST address units"),
                    ai * n,
                    ac,
                    ldst_e,
                    sm_runtime_s,
                ),
                self.logic_leaf("LD/ST coalescer", n, coal, sm_runtime_s),
                self.store_leaf("L1D data", n, l1_acc, l1_fill, sm_runtime_s),
                self.store_leaf("L1D tags", n, l1_acc, l1_fill, sm_runtime_s),
                // Each active lane of a shared-memory instruction reads or writes one bank word.
                self.store_leaf("shared memory", n, smem_lanes, 0.0, sm_runtime_s),
                self.store_leaf("constant cache data", n, cc, cc_miss, sm_runtime_s),
                self.store_leaf("constant cache tags", n, cc, cc_miss, sm_runtime_s),
                self.store_leaf("texture cache data", n, tc, tc_miss, sm_runtime_s),
                self.store_leaf("texture cache tags", n, tc, tc_miss, sm_runtime_s),
            ],
        ));
        // --- Clock and pipeline registers (per SM, every active cycle)
        let active = sum(&|s| s.active_cycles);
        sm_children.push(Node {
            name: "clock distribution".into(),
            source: Source::Wire,
            instances: n,
            dynamic_j: active * self.clock_sm_j_per_cycle,
            ..Node::default()
        });
        let sms = Node {
            name: format!("SMs ({n})"),
            part: Part::Sms,
            instances: n,
            children: sm_children,
            ..Node::default()
        };
        let uncore = self.uncore(k, runtime_s);
        let dram = self.dram.node(k, runtime_s).tagged(Part::Dram);
        let mut root = Node::group("chip", vec![sms, uncore, dram]);
        root.derive_sources();
        root
    }

    /// The memory system outside the SMs for activity `k` over `runtime_s` s: L2 data and tags,
    /// the interconnect, the memory controllers and the uncore clock.
    fn uncore(&self, k: &KernelActivity, runtime_s: f64) -> Node {
        let mut l2_r = 0.0;
        let mut l2_w = 0.0;
        let mut l2_fill = 0.0;
        for s in &k.l2 {
            l2_r += (s.read.hit + s.read.miss + s.atomic.hit + s.atomic.miss + s.writebacks) as f64;
            l2_w += (s.write.hit + s.write.miss + s.atomic.hit + s.atomic.miss) as f64;
            l2_fill += s.fills as f64;
        }
        let l2_node = |name: &str, label: &str| {
            let (inst, c) = self
                .chip_storage
                .get(name)
                .copied()
                .unwrap_or((0, UnitCost::default()));
            leaf(
                label,
                self.source_of(name),
                inst,
                c,
                l2_r * c.read_j + (l2_w + l2_fill) * c.write_j,
                runtime_s,
            )
        };
        let flits: f64 = k
            .icnt
            .req_flits
            .iter()
            .chain(k.icnt.rep_flits.iter())
            .sum::<u64>() as f64;
        let dram_req: f64 = k.dram.iter().map(|d| d.reads + d.writes).sum::<u64>() as f64;
        let cycles = k.cycles as f64;
        Node::group(
            "memory system",
            vec![
                l2_node("L2 data", "L2 data"),
                l2_node("L2 tags", "L2 tags"),
                leaf(
                    "interconnect",
                    self.source_of("interconnect"),
                    1,
                    self.icnt,
                    flits * self.icnt_flit_j,
                    runtime_s,
                ),
                leaf(
                    "memory controllers",
                    self.source_of("memory controllers"),
                    self.n_channels,
                    self.mc,
                    dram_req * self.mc.read_j,
                    runtime_s,
                ),
                Node {
                    name: "uncore clock".into(),
                    source: Source::Wire,
                    instances: 1,
                    dynamic_j: cycles * self.clock_uncore_j_per_cycle,
                    ..Node::default()
                },
            ],
        )
    }

    /// The recorded source of a component's cost ([`Source::Mixed`] if none was recorded).
    fn source_of(&self, name: &str) -> Source {
        self.sources.get(name).cloned().unwrap_or(Source::Mixed)
    }

    fn store_leaf(&self, name: &str, n: u32, reads: f64, writes: f64, runtime_s: f64) -> Node {
        let c = self.sm_storage.get(name).copied().unwrap_or_default();
        leaf(
            name,
            self.source_of(name),
            n,
            c,
            reads * c.read_j + writes * c.write_j,
            runtime_s,
        )
    }

    fn logic_leaf(&self, name: &str, n: u32, events: f64, runtime_s: f64) -> Node {
        let (inst, c) = self
            .sm_logic
            .get(name)
            .copied()
            .unwrap_or((0, UnitCost::default()));
        leaf(
            name,
            self.source_of(name),
            inst * n,
            c,
            events * c.read_j,
            runtime_s,
        )
    }

    /// Costs a whole run: the tree of `k` with run time from its cycles.
    pub fn estimate(
        &self,
        label: &str,
        tech: &str,
        temperature_k: f64,
        k: &KernelActivity,
    ) -> Estimate {
        let runtime_s = k.cycles as f64 / self.core_clock_hz;
        let root = self.tree(k, runtime_s);
        let sm_use = self.sm_use(k, runtime_s, &root);
        Estimate {
            label: label.to_string(),
            tech: tech.to_string(),
            vdd_v: self.vdd_v,
            temperature_k,
            core_clock_hz: self.core_clock_hz,
            runtime_s,
            sm_use,
            root,
        }
    }

    /// How many SMs had work in `k`, their powered time, and the leakage of the SMs' idle
    /// time (`root` is `k`'s tree; its first child is the SM group).
    pub fn sm_use(&self, k: &KernelActivity, runtime_s: f64, root: &Node) -> SmUse {
        let n = self.n_sm;
        let busy_sms = k.sms.iter().filter(|s| s.active_cycles > 0).count() as u32;
        let powered_sm_s =
            k.sms.iter().map(|s| s.active_cycles).sum::<u64>() as f64 / self.core_clock_hz;
        let sm_leakage_w = root
            .children
            .first()
            .map(|sms| sms.totals().leakage_w)
            .unwrap_or(0.0);
        let idle_sm_s = (n as f64 * runtime_s - powered_sm_s).max(0.0);
        let idle_sm_leakage_j = if n > 0 {
            sm_leakage_w / n as f64 * idle_sm_s
        } else {
            0.0
        };
        SmUse {
            sms: n,
            busy_sms,
            powered_sm_s,
            idle_sms: self.idle_sms,
            idle_sm_leakage_j,
        }
    }
}
