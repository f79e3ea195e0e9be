//! Recursive device functions as subroutines with real call and return (`inline.rs` inlines
//! every other call). A function that can reach itself through the module's call graph
//! (direct calls and the candidates of indirect calls) is emitted once, after the kernel's own
//! code, as a body that starts at `$L__subN` and ends with its one return; each call of it
//! becomes a call sequence with the ABI of a real GPU's recursive call:
//!
//! ```text
//! st.local  [%sp$+SO+k], r           save: a register live after the call that the callee
//!                                     (or anything it calls) may write; predicates through
//!                                     selp/setp and a 32-bit scratch register
//! ld.local / st.local                 the arguments: from the caller's call-frame .param
//!                                     variables (local memory, as for an inlined call) into
//!                                     the callee's frame
//! add.u64   %sp$, %sp$, FS            the stack pointer moves past the caller's frame
//! %call.N   %ra$, %sp$, need, $L__subN  return address into %ra$; checks `need` bytes fit
//! sub.u64   %sp$, %sp$, FS
//! ld.local / st.local                 the return values into the caller's .param variables
//! ld.local  r, [%sp$+SO+k]            restore
//! ```
//!
//! The callee's frame (at its stack pointer), per activation: the return address (stored by
//! the callee's first instruction, reloaded before `%return.N %ra$`), its argument and return
//! parameters (what its `ld.param`/`st.param` address), its own `.local` variables (its
//! `__local_depot`: `mov.u64 %SPL, __local_depotN` becomes `add.u64 %SPL, %sp$, off`), and
//! the save area of its own call sites. The kernel's frame is the save area of its call sites.
//! The stack starts at the end of the kernel's static `.local` bytes ([`STACK_VAR`]), so the
//! stack pointer is a local address, and generic pointers into a caller's frame stay valid in
//! the callee.
//!
//! Which registers to save needs liveness, which needs the code: the kernel is built twice
//! (`build.rs`): once with no saves, to learn each call site's live registers and each
//! function's written registers over the interprocedural graph
//! (`regalloc::successor_lists`), then with the saves ([`CallInfo::saves`]). A register that
//! is live across a call but that the callee never writes is not saved; liveness keeps it live
//! through the callee, so register allocation keeps it apart from the callee's registers.
//!
//! `need` (checked by the call against the stack limit, `emu/exec.rs`): the callee's frame
//! and the argument area of every function it calls, so that no store of the activation falls
//! outside the stack before the next check.

use super::ast::*;
use super::isa::Ty;
use crate::SimError;
use std::collections::{HashMap, HashSet};

/// Opcode of the internal call instruction (not valid PTX).
pub const CALL_OPCODE: &str = "%call";
/// Opcode of the internal return instruction (not valid PTX).
pub const RETURN_OPCODE: &str = "%return";
/// The stack pointer register (a local address, 64-bit).
pub const SP_REG: &str = "%sp$";
/// The return-address register (a byte PC, 32-bit).
pub const RA_REG: &str = "%ra$";
/// The zero-sized `.local` variable at the end of the kernel's static local bytes where the
/// stack starts (aligned to 16 bytes).
pub const STACK_VAR: &str = "__stack$";
/// Scratch registers of the argument copies and predicate saves: 8, 4 and 2 (or 1) bytes.
const CP64: &str = "%cp64$";
const CP32: &str = "%cp32$";
const CP16: &str = "%cp16$";

/// One call site of a recursive function, in emission order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// The function whose body holds the call (`None`: the kernel's own code).
    pub owner: Option<usize>,
    /// The called function (index into [`CallInfo::funcs`]).
    pub callee: usize,
}

/// The recursive functions a kernel calls and its call sites; as input to the second build,
/// also the registers each call site saves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallInfo {
    /// The functions emitted as subroutines, by index (the order they are first called).
    pub funcs: Vec<String>,
    /// Call sites in emission order (the n-th call instruction of the code is site n).
    pub sites: Vec<Site>,
    /// Per call site, the registers saved around it (name and declared type); empty in the
    /// first build.
    pub saves: Vec<Vec<(String, Ty)>>,
    /// Stack bytes the kernel's own code needs (its save area and the argument area of the
    /// functions it calls), checked at launch against the stack limit.
    pub kernel_need: u64,
}

impl CallInfo {
    /// True when the kernel calls no recursive function.
    pub fn is_empty(&self) -> bool {
        self.funcs.is_empty()
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a.max(1)) * a.max(1)
}

fn param_bytes(p: &ParamDecl) -> u64 {
    u64::from(p.ty.bytes()) * u64::from(p.elems.unwrap_or(1))
}

/// Bytes of a saved value of declared type `ty` (a predicate as 4).
fn save_bytes(ty: Ty) -> u64 {
    if ty == Ty::Pred {
        4
    } else {
        u64::from(ty.bytes()).max(1)
    }
}

/// Offsets of the saved registers (largest first, each naturally aligned) and the area's size
/// (a multiple of 8).
fn save_layout(saves: &[(String, Ty)]) -> (Vec<u64>, u64) {
    let mut order: Vec<usize> = (0..saves.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(save_bytes(saves[i].1)));
    let mut offs = vec![0u64; saves.len()];
    let mut off = 0u64;
    for i in order {
        let b = save_bytes(saves[i].1);
        off = align_up(off, b);
        offs[i] = off;
        off += b;
    }
    (offs, align_up(off, 8))
}

/// The frame of one activation of a function.
#[derive(Clone, Debug, Default)]
struct Frame {
    /// Offset of each argument parameter.
    params: Vec<u64>,
    /// Offset of each return parameter.
    rets: Vec<u64>,
    /// End of the parameters (what a caller writes before the call).
    arg_end: u64,
    /// The function's own `.local` variables (not call-frame `.param` variables): name and
    /// offset.
    depot: Vec<(String, u64)>,
    /// Offset of the save area of the function's call sites.
    save_off: u64,
    /// Frame size (a multiple of 16).
    size: u64,
}

fn frame_of(f: &RawFunc, body: &RawKernel, save_size: u64) -> Frame {
    let mut fr = Frame::default();
    let mut off = 8u64; // the return address (4 bytes), padded
    for p in &f.params {
        off = align_up(off, u64::from(p.align.max(1)));
        fr.params.push(off);
        off += param_bytes(p);
    }
    for p in &f.rets {
        off = align_up(off, u64::from(p.align.max(1)));
        fr.rets.push(off);
        off += param_bytes(p);
    }
    fr.arg_end = off;
    for v in &body.vars {
        if v.space != VarSpace::Local || body.frame_params.contains(&v.name) {
            continue;
        }
        off = align_up(off, u64::from(v.align.max(1)));
        fr.depot.push((v.name.clone(), off));
        off += v.elems.unwrap_or(0) * u64::from(v.ty.bytes());
    }
    fr.save_off = align_up(off, 8);
    fr.size = align_up(fr.save_off + save_size, 16);
    fr
}

/// The set of functions that can reach themselves through direct calls and the candidates of
/// indirect calls.
pub fn recursive_set<'a>(
    bodies: &HashMap<&'a str, &'a RawFunc>,
    edges: impl Fn(&'a RawFunc) -> Vec<&'a str>,
) -> HashSet<&'a str> {
    let mut succ: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut names: Vec<&str> = bodies.keys().copied().collect();
    names.sort_unstable();
    for &n in &names {
        succ.insert(n, edges(bodies[n]));
    }
    let mut out = HashSet::new();
    for &n in &names {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut todo: Vec<&str> = succ[n].clone();
        while let Some(x) = todo.pop() {
            if x == n {
                out.insert(n);
                break;
            }
            if seen.insert(x) {
                if let Some(s) = succ.get(x) {
                    todo.extend(s.iter().copied());
                }
            }
        }
    }
    out
}

/// State of the emission of one kernel's recursive calls.
pub struct Subs<'p> {
    plan: &'p CallInfo,
    /// What this emission finds (functions and sites in order).
    pub found: CallInfo,
    /// Functions whose body is emitted already.
    emitted: usize,
    /// The body being emitted: `None` for the kernel's code.
    owner: Option<usize>,
}

fn inst(opcode: &str, mods: &[&str], operands: Vec<RawOpnd>, pos: Pos) -> Stmt {
    Stmt::Inst(RawInst {
        guard: None,
        opcode: opcode.to_string(),
        mods: mods.iter().map(|m| m.to_string()).collect(),
        operands: operands.into_iter().map(|o| (o, pos)).collect(),
        pos,
    })
}

fn name(s: &str) -> RawOpnd {
    RawOpnd::Name(s.to_string())
}

fn imm(v: u64) -> RawOpnd {
    RawOpnd::Imm(InitVal::Int(i128::from(v)))
}

fn sp_at(off: u64) -> RawOpnd {
    RawOpnd::Addr(Some(SP_REG.to_string()), off as i64)
}

/// The scratch register and `ld`/`st` type of a copy of `w` bytes.
fn scratch(w: u64) -> (&'static str, &'static str) {
    match w {
        8 => (CP64, "b64"),
        4 => (CP32, "b32"),
        2 => (CP16, "b16"),
        _ => (CP16, "u8"),
    }
}

fn perr(file: &str, pos: Pos, msg: String) -> SimError {
    SimError::Parse {
        file: file.to_string(),
        line: pos.line as usize,
        col: pos.col as usize,
        msg,
    }
}

impl<'p> Subs<'p> {
    /// An emission that saves the registers `plan` lists (none in a first build).
    pub fn new(plan: &'p CallInfo) -> Subs<'p> {
        Subs {
            plan,
            found: CallInfo::default(),
            emitted: 0,
            owner: None,
        }
    }

    fn index(&mut self, f: &str) -> usize {
        match self.found.funcs.iter().position(|n| n == f) {
            Some(i) => i,
            None => {
                self.found.funcs.push(f.to_string());
                self.found.funcs.len() - 1
            }
        }
    }

    /// Save-area size of the call sites of `owner` (from the plan).
    fn save_size(&self, owner: Option<usize>) -> u64 {
        self.plan
            .sites
            .iter()
            .zip(&self.plan.saves)
            .filter(|(s, _)| s.owner == owner)
            .map(|(_, v)| save_layout(v).1)
            .max()
            .unwrap_or(0)
    }

    fn frame(&self, funcs: &super::inline::Funcs, i: usize) -> Frame {
        let Some((f, b)) = self.found.funcs.get(i).and_then(|n| funcs.body_of(n)) else {
            return Frame::default();
        };
        frame_of(f, b, self.save_size(Some(i)))
    }

    /// (frame size, save-area offset) of the body `owner`.
    fn owner_frame(&self, funcs: &super::inline::Funcs, owner: Option<usize>) -> (u64, u64) {
        match owner {
            None => (align_up(self.save_size(None), 16), 0),
            Some(i) => {
                let fr = self.frame(funcs, i);
                (fr.size, fr.save_off)
            }
        }
    }

    /// Bytes above its stack pointer an activation of `owner` may touch: its frame and the
    /// argument area of each function it calls (from the plan).
    fn need(&self, funcs: &super::inline::Funcs, owner: Option<usize>) -> u64 {
        let own = self.owner_frame(funcs, owner).0;
        let args = self
            .plan
            .sites
            .iter()
            .filter(|s| s.owner == owner)
            .map(|s| self.frame(funcs, s.callee).arg_end)
            .max()
            .unwrap_or(0);
        own + args
    }

    /// Emits the call sequence of a call of the recursive function `f` (name `fname`) from
    /// the current body: `rets` and `args` are the caller's call-frame variables.
    #[allow(clippy::too_many_arguments)]
    pub fn call(
        &mut self,
        funcs: &super::inline::Funcs,
        fname: &str,
        rets: &[String],
        args: &[String],
        k: &RawKernel,
        out: &mut Vec<Stmt>,
        pos: Pos,
        file: &str,
    ) -> Result<(), SimError> {
        let Some((f, _)) = funcs.body_of(fname) else {
            return Err(perr(file, pos, format!("internal: '{fname}' has no body")));
        };
        let fi = self.index(fname);
        let n = self.found.sites.len();
        self.found.sites.push(Site {
            owner: self.owner,
            callee: fi,
        });
        let (fs, so) = self.owner_frame(funcs, self.owner);
        let callee = self.frame(funcs, fi);
        let saves: &[(String, Ty)] = self.plan.saves.get(n).map_or(&[], |v| v.as_slice());
        let (offs, _) = save_layout(saves);
        for ((r, ty), &o) in saves.iter().zip(&offs) {
            if *ty == Ty::Pred {
                out.push(inst(
                    "selp",
                    &["b32"],
                    vec![name(CP32), imm(1), imm(0), name(r)],
                    pos,
                ));
                out.push(inst(
                    "st",
                    &["local", "b32"],
                    vec![sp_at(so + o), name(CP32)],
                    pos,
                ));
            } else {
                let t = format!("b{}", save_bytes(*ty) * 8);
                out.push(inst(
                    "st",
                    &["local", &t],
                    vec![sp_at(so + o), name(r)],
                    pos,
                ));
            }
        }
        // the arguments, from the caller's call-frame variables into the callee's frame
        let var_align = |v: &str| {
            k.vars
                .iter()
                .find(|x| x.name == v)
                .map_or(1, |x| u64::from(x.align.max(1)))
        };
        let copy = |out: &mut Vec<Stmt>, p: &ParamDecl, frame_off: u64, var: &str, to: bool| {
            let size = param_bytes(p);
            let al = u64::from(p.align.max(1)).min(var_align(var));
            let w = [8u64, 4, 2, 1]
                .into_iter()
                .find(|&w| size.is_multiple_of(w) && al.is_multiple_of(w))
                .unwrap_or(1);
            let (reg, t) = scratch(w);
            let mut o = 0;
            while o < size {
                let v = RawOpnd::Addr(Some(var.to_string()), o as i64);
                let fr = sp_at(fs + frame_off + o);
                let (src, dst) = if to { (v, fr) } else { (fr, v) };
                out.push(inst("ld", &["local", t], vec![name(reg), src], pos));
                out.push(inst("st", &["local", t], vec![dst, name(reg)], pos));
                o += w;
            }
        };
        for ((p, &off), a) in f.params.iter().zip(&callee.params).zip(args) {
            copy(out, p, off, a, true);
        }
        out.push(inst(
            "add",
            &["u64"],
            vec![name(SP_REG), name(SP_REG), imm(fs)],
            pos,
        ));
        let need = self.need(funcs, Some(fi));
        out.push(inst(
            CALL_OPCODE,
            &[&fi.to_string()],
            vec![
                name(RA_REG),
                name(SP_REG),
                imm(need),
                name(&format!("$L__sub{fi}")),
            ],
            pos,
        ));
        out.push(inst(
            "sub",
            &["u64"],
            vec![name(SP_REG), name(SP_REG), imm(fs)],
            pos,
        ));
        for ((p, &off), r) in f.rets.iter().zip(&callee.rets).zip(rets) {
            copy(out, p, off, r, false);
        }
        for ((r, ty), &o) in saves.iter().zip(&offs) {
            if *ty == Ty::Pred {
                out.push(inst(
                    "ld",
                    &["local", "b32"],
                    vec![name(CP32), sp_at(so + o)],
                    pos,
                ));
                out.push(inst(
                    "setp",
                    &["ne", "b32"],
                    vec![name(r), name(CP32), imm(0)],
                    pos,
                ));
            } else {
                let t = format!("b{}", save_bytes(*ty) * 8);
                out.push(inst(
                    "ld",
                    &["local", &t],
                    vec![name(r), sp_at(so + o)],
                    pos,
                ));
            }
        }
        Ok(())
    }

    /// The next function whose body is still to be emitted, as (index, name); it becomes the
    /// current body.
    pub fn next_body(&mut self) -> Option<(usize, String)> {
        let i = self.emitted;
        let n = self.found.funcs.get(i)?.clone();
        self.emitted += 1;
        self.owner = Some(i);
        Some((i, n))
    }

    /// The body of function `i` (`f`, whose definition is `b`) renamed apart with `sfx` and
    /// laid out in its frame: the return address stored first, parameter and local-variable
    /// accesses at the stack pointer, every `ret` a branch to the one return at the end. The
    /// renamed registers, call-frame variables and prototypes are declared in `k`. The calls
    /// in it are left for the caller to expand.
    pub fn body(
        &self,
        funcs: &super::inline::Funcs,
        i: usize,
        k: &mut RawKernel,
        file: &str,
    ) -> Result<(Vec<Stmt>, Vec<Stmt>), SimError> {
        let fname = &self.found.funcs[i];
        let Some((f, b)) = funcs.body_of(fname) else {
            return Err(perr(
                file,
                k.pos,
                format!("internal: '{fname}' has no body"),
            ));
        };
        let fr = self.frame(funcs, i);
        let sfx = format!("$s{i}");
        let depot: HashMap<&str, u64> = fr.depot.iter().map(|(n, o)| (n.as_str(), *o)).collect();
        let mut map = super::inline::import_decls(k, b, &sfx, |v| depot.contains_key(v));
        for st in &b.body {
            if let Stmt::Label(l, _) = st {
                map.insert(l.clone(), format!("{l}{sfx}"));
            }
        }
        let params: HashMap<&str, u64> = f
            .params
            .iter()
            .zip(&fr.params)
            .chain(f.rets.iter().zip(&fr.rets))
            .map(|(p, &o)| (p.name.as_str(), o))
            .collect();
        let end = format!("$L__sub{i}_ret");
        let pos = f.pos;
        let mut seg = vec![
            Stmt::Label(format!("$L__sub{i}"), pos),
            inst("st", &["local", "u32"], vec![sp_at(0), name(RA_REG)], pos),
        ];
        for st in &b.body {
            match st {
                Stmt::Label(l, p) => seg.push(Stmt::Label(format!("{l}{sfx}"), *p)),
                Stmt::Inst(ci) => {
                    let mut ci = ci.clone();
                    frame_operands(&mut ci, fname, &params, &depot, file)?;
                    ci.rename_names(|n| map.get(n).cloned());
                    if ci.opcode == "ret" {
                        ci.opcode = "bra".to_string();
                        ci.mods.retain(|m| m == "uni");
                        ci.operands = vec![(RawOpnd::Name(end.clone()), ci.pos)];
                    }
                    seg.push(Stmt::Inst(ci));
                }
            }
        }
        let tail = vec![
            Stmt::Label(end, pos),
            inst("ld", &["local", "u32"], vec![name(RA_REG), sp_at(0)], pos),
            inst(RETURN_OPCODE, &[&i.to_string()], vec![name(RA_REG)], pos),
        ];
        Ok((seg, tail))
    }

    /// Declares the stack registers and variable in `k` and starts `out` with the stack
    /// pointer's initialisation; `out` is the kernel's expanded code.
    pub fn finish_kernel(k: &mut RawKernel, out: &mut Vec<Stmt>) {
        let pos = k.pos;
        for (r, ty) in [
            (SP_REG, Ty::B64),
            (RA_REG, Ty::B32),
            (CP64, Ty::B64),
            (CP32, Ty::B32),
            (CP16, Ty::B16),
        ] {
            k.regs.push((r.to_string(), ty, pos));
        }
        k.vars.push(VarDecl {
            space: VarSpace::Local,
            align: 16,
            ty: Ty::B8,
            name: STACK_VAR.to_string(),
            elems: Some(0),
            is_extern: false,
            init: None,
            syms: Vec::new(),
            pos,
        });
        out.insert(
            0,
            inst("mov", &["u64"], vec![name(SP_REG), name(STACK_VAR)], pos),
        );
        // the kernel's code must not run into the functions' bodies
        out.push(inst("exit", &[], vec![], pos));
    }

    /// Stack bytes the kernel's own code needs (from the plan).
    pub fn kernel_need(&self, funcs: &super::inline::Funcs) -> u64 {
        self.need(funcs, None)
    }
}

/// Rewrites the accesses of a recursive function's instruction to its parameters and own
/// `.local` variables (original names) into accesses at the stack pointer; any other use of
/// them is refused.
fn frame_operands(
    ri: &mut RawInst,
    fname: &str,
    params: &HashMap<&str, u64>,
    depot: &HashMap<&str, u64>,
    file: &str,
) -> Result<(), SimError> {
    let is_mem = matches!(ri.opcode.as_str(), "ld" | "st");
    let mut to_local = false;
    let is_mov = ri.opcode == "mov" && ri.operands.len() == 2;
    for (idx, (o, p)) in ri.operands.iter_mut().enumerate() {
        match o {
            RawOpnd::Addr(Some(n), off) if is_mem => {
                if let Some(&b) = params.get(n.as_str()).or_else(|| depot.get(n.as_str())) {
                    *o = RawOpnd::Addr(Some(SP_REG.to_string()), b as i64 + *off);
                    to_local = true;
                }
            }
            RawOpnd::Name(n) | RawOpnd::NameOff(n, _) if is_mov && idx == 1 => {
                if let Some(&b) = depot.get(n.as_str()) {
                    let off = match o {
                        RawOpnd::NameOff(_, x) => *x,
                        _ => 0,
                    };
                    *o = RawOpnd::Imm(InitVal::Int(i128::from(b) + i128::from(off)));
                    ri.opcode = "add".to_string();
                    break;
                }
                if params.contains_key(n.as_str()) {
                    return Err(perr(
                        file,
                        *p,
                        format!(
                            "recursive function '{fname}' takes the address of its parameter \
                             '{n}', which is not supported"
                        ),
                    ));
                }
            }
            RawOpnd::Name(n) | RawOpnd::NameOff(n, _) | RawOpnd::Addr(Some(n), _)
                if params.contains_key(n.as_str()) || depot.contains_key(n.as_str()) =>
            {
                return Err(perr(
                    file,
                    *p,
                    format!(
                        "recursive function '{fname}' uses '{n}' in a way not supported \
                         (its parameters and local variables are reached by ld/st, and \
                         a local variable's address by mov)"
                    ),
                ));
            }
            _ => {}
        }
    }
    if ri.opcode == "add" && is_mov {
        // mov.u64 %r, depot+off  →  add.u64 %r, %sp$, off
        let off = ri.operands[1].clone();
        let p = off.1;
        ri.operands = vec![ri.operands[0].clone(), (name(SP_REG), p), off];
    }
    if to_local {
        for m in ri.mods.iter_mut() {
            if m == "param" {
                *m = "local".to_string();
            }
        }
    }
    Ok(())
}
