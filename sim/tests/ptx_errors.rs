//! Bad PTX is rejected with `file:line:col: what was expected`, never skipped or panicked on.

use sim::ptx::Module;

const HEAD: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

/// Parses `body` inside a kernel that starts on line 5 (body line 1 is file line 6).
fn err(body: &str) -> String {
    let text = format!("{HEAD}.visible .entry k(.param .u64 p)\n{{\n{body}\n}}\n");
    match Module::parse(&text, "t.ptx") {
        Ok(_) => panic!("expected an error for:\n{body}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unknown_instruction_is_an_error_with_position() {
    let e = err("    .reg .b32 %r<2>;\n    frobnicate.b32 %r1, %r0;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:7:5: unknown or unsupported instruction 'frobnicate'"
    );
}

#[test]
fn undeclared_register() {
    let e = err("    .reg .b32 %r<2>;\n    add.s32 %r1, %r0, %r7;\n    ret;");
    assert_eq!(e, "t.ptx:7:23: undeclared register or variable '%r7'");
}

#[test]
fn missing_semicolon() {
    let e = err("    .reg .b32 %r<2>;\n    mov.u32 %r1, 0\n    ret;");
    assert_eq!(
        e,
        "t.ptx:8:5: expected ',' or ';' after an operand, found 'ret'"
    );
}

#[test]
fn wrong_operand_count_and_width() {
    let e = err("    .reg .b32 %r<2>;\n    add.s32 %r1, %r0;\n    ret;");
    assert_eq!(e, "t.ptx:7:5: 'add' expects 3 operands, found 2");
    let e = err("    .reg .b32 %r<2>;\n    .reg .b64 %rd<2>;\n    add.s32 %r1, %rd0, 1;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:8:18: register '%rd0' has the wrong width for a 32-bit operand"
    );
}

#[test]
fn unknown_modifier_and_missing_type() {
    let e = err("    .reg .b32 %r<2>;\n    add.wrap.s32 %r1, %r0, 1;\n    ret;");
    assert_eq!(e, "t.ptx:7:5: unknown modifier '.wrap' for 'add'");
    let e = err("    .reg .b32 %r<2>;\n    add %r1, %r0, 1;\n    ret;");
    assert_eq!(e, "t.ptx:7:5: 'add' needs exactly one type modifier");
}

#[test]
fn undefined_label_and_duplicate_label() {
    let e = err("    bra NOWHERE;\n    ret;");
    assert_eq!(e, "t.ptx:6:9: undefined label 'NOWHERE'");
    let e = err("L:\n    ret;\nL:\n    ret;");
    assert_eq!(e, "t.ptx:8:1: label 'L' defined twice");
}

#[test]
fn unsupported_features() {
    // an external device function (a system call): the module loads, the kernel calling it
    // does not
    let text = format!(
        "{HEAD}.extern .func f()\n;\n\n\n.visible .entry k()\n{{\n call f, ();\n ret;\n}}\n\
         .visible .entry ok()\n{{\n ret;\n}}\n"
    );
    let e = Module::parse(&text, "t.ptx").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("t.ptx:10:7: 'call': 'f' is an external function without a body"),
        "{e}"
    );
    let m = Module::parse_lenient(&text, "t.ptx").unwrap();
    assert!(m.load("ok").is_ok());
    let e = m.load("k").unwrap_err().to_string();
    assert!(
        e.starts_with("t.ptx:10:7: kernel 'k' is refused: 'call':"),
        "{e}"
    );
    let e = m.load("nope").unwrap_err().to_string();
    assert_eq!(
        e,
        "t.ptx: no kernel named 'nope' (kernels: ok, k (refused))"
    );
    let e = err("    .reg .f16 %h<2>;\n    ex2.approx.f16 %h1, %h0;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:7:5: 'ex2' on .f16 is not supported (only cvt, mov, ld, st, add, sub, mul, fma, \
         neg, abs, min, max and setp)"
    );
    let e = err("    .reg .f32 %f<2>;\n    .reg .b64 %rd<2>;\n    tld4.r.2d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [%rd0, {%f1, %f1}];\n    ret;");
    assert!(
        e.starts_with("t.ptx:8:5: 'tld4': texture gathers and queries and surface instructions are not supported"),
        "{e}"
    );
    // texture fetches beyond the forms nvcc emits for texture objects, each named
    let tex = |i: &str| {
        err(&format!(
            "    .reg .f32 %f<4>;\n    .reg .b64 %rd<2>;\n    .reg .b32 %r<2>;\n    {i}\n    ret;"
        ))
    };
    for (i, want) in [
        (
            "tex.a2d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [%rd0, {%f1, %f1}];",
            "t.ptx:9:5: 'tex.a2d.v4.f32.f32': the .a2d geometry is not supported",
        ),
        (
            "tex.level.2d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [%rd0, {%f1, %f1}], %f2;",
            "t.ptx:9:5: 'tex.level.2d.v4.f32.f32': mipmapped fetches (.level) are not supported",
        ),
        (
            "tex.2d.v2.f16x2.f32 {%r0, %r1}, [%rd0, {%f1, %f1}];",
            "t.ptx:9:5: 'tex.2d.v2.f16x2.f32': only .v4 results are supported",
        ),
        (
            "tex.2d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [%rd0, {%f1}];",
            "'tex.2d.v4.f32.f32': 1 coordinates; a .2d fetch takes 2",
        ),
        (
            "tex.2d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [%rd0, %rd1, {%f1, %f1}];",
            "an explicit sampler '%rd1', the independent texture mode, is not supported",
        ),
        (
            "tex.1d.v4.f32.f32 {%f0, %f0, %f0, %f0}, [tref, {%f1}];",
            "'tref' is neither a register nor a kernel parameter holding a texture object",
        ),
    ] {
        let e = tex(i);
        assert!(e.contains(want), "{i}: {e}");
    }
    let e = err("    .reg .b32 %r<2>;\n    bar.sync 1;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:7:5: only 'bar.sync 0' (the whole CTA) is supported"
    );
    let e = err("    .reg .f32 %f<2>;\n    sqrt.f32 %f1, %f0;\n    ret;");
    assert_eq!(e, "t.ptx:7:5: 'sqrt.f32' needs .approx or .rn");
    let e = err("    .reg .f32 %f<2>;\n    div.rz.f32 %f1, %f0, %f0;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:7:5: rounding modes other than .rn are supported only on cvt, on float add, \
         sub, mul and fma (f32 fma) and on div.f64, not on 'div'"
    );
}

#[test]
fn state_space_mismatches() {
    let e =
        err("    .reg .b32 %r<2>;\n    .shared .b32 s[4];\n    ld.global.u32 %r1, [s];\n    ret;");
    assert_eq!(
        e,
        "t.ptx:8:24: variable 's' is not in the .global state space"
    );
    let e = err("    .reg .b32 %r<2>;\n    st.param.u32 [p], %r1;\n    ret;");
    assert_eq!(e, "t.ptx:7:5: st.param is not allowed");
    let e = err("    .reg .b64 %rd<2>;\n    ld.param.u64 %rd1, [q];\n    ret;");
    assert_eq!(e, "t.ptx:7:24: undeclared register or variable 'q'");
}

#[test]
fn declarations() {
    let e = err("    .reg .b32 %r<2>;\n    .reg .b32 %r1;\n    ret;");
    assert_eq!(e, "t.ptx:7:15: register '%r1' declared twice");
    let e = err("    .global .u32 g;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:6:5: .global variables must be declared at module scope"
    );
    let e = Module::parse(&format!("{HEAD}.const .u8 c[2] = {{1, 300}};\n"), "t.ptx").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.ptx:4:12: initialiser 300 does not fit the element type of 'c'"
    );
    let e = Module::parse(".version 1.4\n", "t.ptx").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.ptx:1:10: PTX version must be 2.0 or later"
    );
}

#[test]
fn lexical_errors() {
    let e = Module::parse(&format!("{HEAD}/* never closed\n"), "t.ptx").unwrap_err();
    assert_eq!(e.to_string(), "t.ptx:4:1: unterminated /* comment");
    let e = err("    mov.f32 %f1, 0f3F80;\n    ret;");
    assert_eq!(
        e,
        "t.ptx:6:18: expected 8 hex digits in floating literal '0f3F80'"
    );
    let e = Module::parse(&format!("{HEAD}.visible .entry k(\n"), "t.ptx").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.ptx:5:1: expected '.param', found end of file"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let e = err(&format!(
        "{}\n    ret;\n{}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    ));
    assert_eq!(e, "t.ptx:6:65: braces nested deeper than 64");
    let text = format!(
        "{HEAD}.const .u32 c[1] = {}1{};\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let e = Module::parse(&text, "t.ptx").unwrap_err();
    assert!(
        e.to_string().contains("braces nested deeper than 64"),
        "{e}"
    );
}

#[test]
fn too_many_live_predicates() {
    let mut body = String::from("    .reg .pred %p<17>;\n    .reg .b32 %r<2>;\n");
    for i in 0..17 {
        body.push_str(&format!("    setp.eq.u32 %p{i}, %r0, {i};\n"));
    }
    for i in 0..17 {
        body.push_str(&format!("    @%p{i} add.u32 %r1, %r1, 1;\n"));
    }
    body.push_str("    ret;");
    let e = err(&body);
    assert!(
        e.starts_with("t.ptx:4:10: kernel 'k': more than 16 predicates are live at once"),
        "{e}"
    );
}
