//! The parts of the parser that let it take a whole compiler-emitted module: recovery past a
//! kernel it cannot take (its body is skipped by balanced braces and the error kept for that
//! kernel), `.func` declarations and definitions, texture declarations, the `call` syntax
//! (with the `.callprototype`/`.calltargets` declarations of indirect calls),
//! call-frame `.param` variables, and per-block renaming of registers redeclared in sibling
//! or nested `{ }` blocks.

use super::*;

impl Parser<'_> {
    /// After a kernel failed to parse at `.entry`: its name and position, with the cursor moved
    /// past its body (balanced braces), or `None` when the text is too broken to find the end.
    pub(super) fn skip_entry(&mut self) -> Option<(String, Pos)> {
        let pos = self.pos();
        self.bump(); // .entry
        let Tok::Ident(name) = self.peek().clone() else {
            return None;
        };
        while !self.is_punct('{') {
            if *self.peek() == Tok::Eof {
                return None;
            }
            self.bump();
        }
        self.skip_braces().then_some((name, pos))
    }

    /// With the cursor on `{`: moves past the matching `}`; false at end of file.
    pub(super) fn skip_braces(&mut self) -> bool {
        let mut depth = 0u64;
        loop {
            match self.peek() {
                Tok::Punct('{') => depth += 1,
                Tok::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return true;
                    }
                }
                Tok::Eof => return false,
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips a `.func` declaration or definition (`.func [(ret params)] name [(params)]
    /// [directives] { body }` or `... ;`) and returns its name.
    pub(super) fn skip_func(&mut self) -> PResult<String> {
        let p = self.pos();
        self.bump(); // .func
        let mut name = None;
        let mut parens = 0u32;
        loop {
            match self.peek().clone() {
                Tok::Punct('(') => parens += 1,
                Tok::Punct(')') => parens = parens.saturating_sub(1),
                Tok::Ident(n) if parens == 0 && name.is_none() => name = Some(n),
                Tok::Punct(';') if parens == 0 => {
                    self.bump();
                    break;
                }
                Tok::Punct('{') if parens == 0 => {
                    if !self.skip_braces() {
                        return self.expected("'}' closing the .func body");
                    }
                    break;
                }
                Tok::Eof => return self.expected("the end of the .func declaration"),
                _ => {}
            }
            self.bump();
        }
        match name {
            Some(n) => Ok(n),
            None => self.err_at(p, "expected a .func name"),
        }
    }

    /// Is the cursor on a module-scope texture, surface or sampler reference (`.global .texref
    /// t;`, `.tex .u32 t;`)?
    pub(super) fn texture_decl_ahead(&self) -> bool {
        (0..4).any(|k| {
            matches!(self.peek_at(k), Tok::Dot(d) if matches!(d.as_str(),
                "texref" | "surfref" | "samplerref" | "tex" | "surf"))
        })
    }

    /// Skips a texture, surface or sampler declaration up to its `;` and returns its name.
    pub(super) fn skip_texture_decl(&mut self) -> PResult<String> {
        let mut name = String::new();
        loop {
            match self.peek().clone() {
                Tok::Ident(n) if name.is_empty() => name = n,
                Tok::Punct(';') => {
                    self.bump();
                    return Ok(name);
                }
                Tok::Punct('{') => {
                    if !self.skip_braces() {
                        return self.expected("'}'");
                    }
                    continue;
                }
                Tok::Eof => return self.expected("';' ending the texture declaration"),
                _ => {}
            }
            self.bump();
        }
    }

    /// The rest of a texture operand `[tex, {c0, ...}]` after `[tex,`: the coordinate vector
    /// and the closing bracket. The form with an explicit sampler (`[tex, smp, {c}]`, the
    /// independent texture mode) is refused by name.
    pub(super) fn tex_operand_rest(&mut self, tex: String) -> PResult<RawOpnd> {
        if let Tok::Ident(smp) = self.peek().clone() {
            return self.expected(&format!(
                "a coordinate vector {{..}} after the texture (an explicit sampler '{smp}', \
                 the independent texture mode, is not supported)"
            ));
        }
        let RawOpnd::Vec(coords) = self.operand()? else {
            return self.expected("a coordinate vector {..} after the texture");
        };
        self.expect_punct(']')?;
        Ok(RawOpnd::TexAddr(tex, coords))
    }

    /// Parses a `.func` declaration or definition; a body that does not parse is kept as its
    /// error (only the kernels that call the function are refused).
    pub(super) fn func(&mut self) -> PResult<RawFunc> {
        let start = self.i;
        let pos = self.pos();
        self.bump(); // .func
        let header = (|| -> PResult<(Vec<ParamDecl>, String, Vec<ParamDecl>)> {
            let mut rets = Vec::new();
            if self.eat_punct('(') {
                rets = self.param_list(false)?;
            }
            let name = self.ident("a function name")?;
            let mut params = Vec::new();
            if self.eat_punct('(') {
                params = self.param_list(false)?;
            }
            Ok((rets, name, params))
        })();
        let Ok((rets, name, params)) = header else {
            // an unusual header: skip the whole function and keep its name only
            self.i = start;
            let name = self.skip_func()?;
            return Ok(RawFunc {
                name,
                pos,
                rets: Vec::new(),
                params: Vec::new(),
                body: Err((pos, "the .func header is not in the PTX subset".into())),
            });
        };
        // performance directives (.noreturn, .maxnreg ...) up to the body or the ';'
        while !self.is_punct('{') && !self.is_punct(';') {
            if *self.peek() == Tok::Eof {
                return self.expected("the body of the .func");
            }
            self.bump();
        }
        if self.eat_punct(';') {
            return Ok(RawFunc {
                name,
                pos,
                rets,
                params,
                body: Ok(None),
            });
        }
        let body_start = self.i;
        self.bump(); // {
        let mut k = RawKernel {
            name: name.clone(),
            pos,
            ..Default::default()
        };
        self.scopes.clear();
        self.declared.clear();
        self.scopes.push(Default::default());
        let r = self.body(&mut k);
        self.scopes.clear();
        self.declared.clear();
        let body = match r {
            Ok(()) => Ok(Some(k)),
            Err(e) => {
                self.i = body_start;
                if !self.skip_braces() {
                    return Err(e);
                }
                match e {
                    SimError::Parse { line, col, msg, .. } => Err((
                        Pos {
                            line: line as u32,
                            col: col as u32,
                        },
                        msg,
                    )),
                    other => Err((pos, other.to_string())),
                }
            }
        };
        Ok(RawFunc {
            name,
            pos,
            rets,
            params,
            body,
        })
    }

    /// After `label:`, with the cursor on `.callprototype` or `.calltargets`: `.callprototype
    /// [(ret)] _ [(params)] [.noreturn];` or `.calltargets f, g, ...;`.
    pub(super) fn call_proto(&mut self, name: String, pos: Pos) -> PResult<CallProto> {
        if self.eat_dot("calltargets") {
            let mut targets = vec![self.ident("a function name")?];
            while self.eat_punct(',') {
                targets.push(self.ident("a function name")?);
            }
            self.expect_punct(';')?;
            return Ok(CallProto {
                name,
                sig: CallSig::Targets(targets),
                pos,
            });
        }
        self.bump(); // .callprototype
        let mut rets = Vec::new();
        if self.eat_punct('(') {
            rets = self.param_list(true)?;
        }
        match self.peek() {
            Tok::Ident(u) if u == "_" => {
                self.bump();
            }
            _ => return self.expected("'_' in the call prototype"),
        }
        let mut params = Vec::new();
        if self.eat_punct('(') {
            params = self.param_list(true)?;
        }
        self.eat_dot("noreturn");
        self.expect_punct(';')?;
        Ok(CallProto {
            name,
            sig: CallSig::Proto { rets, params },
            pos,
        })
    }

    /// The operands of `call[.uni] [(rets),] target[, (args)][, proto];` as `[Vec(rets),
    /// Name(target), Vec(args)]`, and `Name(proto)` fourth when the call names a prototype or
    /// target list (an indirect call).
    pub(super) fn call_rest(
        &mut self,
        guard: Option<(String, bool, Pos)>,
        opcode: String,
        mods: Vec<String>,
        ipos: Pos,
    ) -> PResult<RawInst> {
        let names = |p: &mut Self| -> PResult<Vec<String>> {
            let mut v = Vec::new();
            if p.eat_punct(')') {
                return Ok(v);
            }
            loop {
                v.push(p.ident("a parameter name")?);
                if p.eat_punct(')') {
                    return Ok(v);
                }
                p.expect_punct(',')?;
            }
        };
        let mut rets = Vec::new();
        if self.eat_punct('(') {
            rets = names(self)?;
            self.expect_punct(',')?;
        }
        let tp = self.pos();
        let target = self.ident("a function name")?;
        let mut args = Vec::new();
        let mut proto = None;
        if self.eat_punct(',') {
            if self.eat_punct('(') {
                args = names(self)?;
                if self.eat_punct(',') {
                    proto = Some((self.pos(), self.ident("a call prototype")?));
                }
            } else {
                proto = Some((self.pos(), self.ident("a call prototype")?));
            }
        }
        self.expect_punct(';')?;
        let mut operands = vec![
            (RawOpnd::Vec(rets), ipos),
            (RawOpnd::Name(target), tp),
            (RawOpnd::Vec(args), ipos),
        ];
        if let Some((pp, name)) = proto {
            operands.push((RawOpnd::Name(name), pp));
        }
        Ok(RawInst {
            guard,
            opcode,
            mods,
            operands,
            pos: ipos,
        })
    }

    /// Declares register `name` in the innermost block and returns the name it gets: its own,
    /// or, inside a nested block, a unique one (`name$sK`) when the kernel declared that name
    /// before — in a sibling block, or in an enclosing one, which the inner declaration then
    /// shadows until the block ends.
    pub(super) fn declare(&mut self, name: String) -> String {
        if self.declared.insert(name.clone()) || self.scopes.len() <= 1 {
            // first use of the name, or a redeclaration at kernel scope (reported later as
            // "declared twice")
            return name;
        }
        let mut k = 1u32;
        let unique = loop {
            let u = format!("{name}$s{k}");
            if !self.declared.contains(&u) {
                break u;
            }
            k += 1;
        };
        self.declared.insert(unique.clone());
        if let Some(m) = self.scopes.last_mut() {
            m.insert(name, unique.clone());
        }
        unique
    }

    /// The name `n` refers to in the current block.
    pub(super) fn resolve(&self, n: &str) -> Option<String> {
        self.scopes.iter().rev().find_map(|m| m.get(n).cloned())
    }

    /// Applies the block renames to an instruction's register operands and guard.
    pub(super) fn rename(&self, ri: &mut RawInst) {
        ri.rename_names(|n| self.resolve(n));
    }
}

/// Turns `ld.param`/`st.param` whose address is a call-frame variable into `.local` accesses.
pub(in crate::ptx) fn frame_to_local(ri: &mut RawInst, frames: &[String]) {
    if !matches!(ri.opcode.as_str(), "ld" | "st") || !ri.mods.iter().any(|m| m == "param") {
        return;
    }
    let hits = ri
        .operands
        .iter()
        .any(|(o, _)| matches!(o, RawOpnd::Addr(Some(n), _) if frames.iter().any(|f| f == n)));
    if hits {
        for m in ri.mods.iter_mut().filter(|m| *m == "param") {
            *m = "local".to_string();
        }
    }
}
