// Per-warp issue logic of SOCGPU (issue-stage sections 2 and 4): an N-entry
// instruction buffer whose entries stay until write-back, the dependence
// matrix (dep_matrix.v), the insert comparators, the a3 reconvergence check,
// the seniority ranks, the flush detector with its two PC registers and the
// "First" local selection (a priority encoder).
//
// An instruction is one FW-bit bus laid out as in issue_base.v:
//   pc (P) | NS x {src (RB), present} | {dst (RB), present} |
//   {psrc (PB), present} | {pdst (PB), present} | payload (DD)
// plus a ctl bit (barrier, branch or return). An entry stores the
// instruction, ctl, its seniority (ceil(log2 N) bits) and nt_next_pc
// (pc + ISZ); valid and issued live in the dependence matrix, so an entry
// is E_s = 1 + FW + 1 + 1 + ceil(log2 N) + P bits.
//
//  insert (ins_en, not full, no flush): the lowest free entry takes the
//    instruction with seniority = number of valid entries; its DM row has a
//    1 for every valid entry P with A.dst in P.srcs or P.dsts (WAR, WAW),
//    some A.src in P.dsts (RAW), or A.ctl, or P.ctl (predicates compared
//    like GPRs). The fetch PC advances by ISZ.
//  candidates: valid, not issued, no dependence (the DM row NOR) and
//    (nt_next_pc < tos_rpc or seniority 0).
//  issue (iss_en with a candidate): the lowest-index candidate issues:
//    issued is set, last_issued_nt_pc <= its nt_next_pc.
//  flush check (the cycle after an issue, against the SIMT stack's updated
//    tos_next_pc): when tos_next_pc != last_issued_nt_pc every valid
//    non-issued entry is removed and fetch_pc <= tos_next_pc.
//  write-back (wb_en, wb_idx): the entry leaves and its DM column clears;
//    every valid entry younger than it moves up one seniority rank.
module issue_socgpu #(
    parameter N   = 8,
    parameter P   = 32,
    parameter RB  = 8,
    parameter PB  = 3,
    parameter NS  = 3,
    parameter DD  = 64,
    parameter ISZ = 8,
    parameter IW  = (N <= 2) ? 1 : $clog2(N),
    parameter FW  = P + NS * (RB + 1) + (RB + 1) + 2 * (PB + 1) + DD
) (
    input           clk,
    input           rst,
    input           ins_en,
    input  [FW-1:0] ins_inst,
    input           ins_ctl,
    output          full,
    input  [P-1:0]  tos_rpc,
    input  [P-1:0]  tos_next_pc,
    input           iss_en,
    output [N-1:0]  cand,
    output          sel_valid,
    output [IW-1:0] sel_idx,
    output [FW-1:0] sel_inst,
    output          issued_now,
    input           wb_en,
    input  [IW-1:0] wb_idx,
    output          flush,
    output [P-1:0]  fetch_pc,
    output [N-1:0]  valid,
    output [N-1:0]  oldest
);
    localparam OFF_D = P + NS * (RB + 1);
    localparam OFF_PS = OFF_D + RB + 1;
    localparam OFF_PD = OFF_PS + PB + 1;

    reg [FW-1:0] inst [0:N-1];
    reg [N-1:0]  ctl;
    reg [P-1:0]  ntpc [0:N-1];
    reg [IW-1:0] sen [0:N-1];
    reg [P-1:0]  last_nt, fpc;
    reg          chk;
    wire [N-1:0] issued, nodep, ready;
    assign fetch_pc = fpc;

    // lowest free entry and the number of valid entries
    reg [IW-1:0] ins_idx, nvalid;
    reg          has_free;
    integer e;
    always @* begin
        ins_idx = 0;
        has_free = 1'b0;
        nvalid = 0;
        for (e = N - 1; e >= 0; e = e - 1)
            if (!valid[e]) begin
                ins_idx = e;
                has_free = 1'b1;
            end
        for (e = 0; e < N; e = e + 1) nvalid = nvalid + valid[e];
    end
    assign full = !has_free;
    wire do_ins = ins_en && has_free && !flush;

    // insert comparators: the new instruction against every entry
    function dep;
        input [FW-1:0] a; input actl; input [FW-1:0] p; input pctl;
        integer i, j;
        reg r;
        begin
            r = actl | pctl;
            // A.dst against P.srcs and P.dst (WAR, WAW); A.srcs against P.dst (RAW)
            for (i = 0; i < NS; i = i + 1) begin
                if (a[OFF_D + RB] && p[P + i * (RB + 1) + RB] &&
                    a[OFF_D +: RB] == p[P + i * (RB + 1) +: RB]) r = 1'b1;
                if (p[OFF_D + RB] && a[P + i * (RB + 1) + RB] &&
                    p[OFF_D +: RB] == a[P + i * (RB + 1) +: RB]) r = 1'b1;
            end
            if (a[OFF_D + RB] && p[OFF_D + RB] && a[OFF_D +: RB] == p[OFF_D +: RB]) r = 1'b1;
            // predicates: A.pdst against P.psrc and P.pdst; A.psrc against P.pdst
            if (a[OFF_PD + PB] && p[OFF_PS + PB] && a[OFF_PD +: PB] == p[OFF_PS +: PB]) r = 1'b1;
            if (a[OFF_PD + PB] && p[OFF_PD + PB] && a[OFF_PD +: PB] == p[OFF_PD +: PB]) r = 1'b1;
            if (a[OFF_PS + PB] && p[OFF_PD + PB] && a[OFF_PS +: PB] == p[OFF_PD +: PB]) r = 1'b1;
            dep = r;
        end
    endfunction
    reg [N-1:0] row;
    always @*
        for (e = 0; e < N; e = e + 1) row[e] = dep(ins_inst, ins_ctl, inst[e], ctl[e]);

    // flush detector: the cycle after an issue
    assign flush = chk && (tos_next_pc != last_nt);

    dep_matrix #(.N(N)) dm (
        .clk(clk), .rst(rst), .ins_en(do_ins), .ins_idx(ins_idx), .ins_row(row),
        .iss_en(issued_now), .iss_idx(sel_idx), .wb_en(wb_en), .wb_idx(wb_idx), .flush(flush),
        .valid(valid), .issued(issued), .nodep(nodep), .ready(ready));

    // a3 and the candidate set
    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : g_c
            assign oldest[g] = valid[g] && (sen[g] == 0);
            assign cand[g] = ready[g] && ((ntpc[g] < tos_rpc) || sen[g] == 0);
        end
    endgenerate

    // First: lowest-index candidate
    reg [IW-1:0] pick;
    always @* begin
        pick = 0;
        for (e = N - 1; e >= 0; e = e - 1) if (cand[e]) pick = e;
    end
    assign sel_valid = |cand;
    assign sel_idx = pick;
    assign sel_inst = inst[pick];
    assign issued_now = iss_en && sel_valid && !flush;

    // entry state, seniority, PC registers
    always @(posedge clk) begin
        if (rst) begin
            chk <= 1'b0;
            last_nt <= 0;
            fpc <= 0;
            ctl <= 0;
            for (e = 0; e < N; e = e + 1) sen[e] <= 0;
        end else begin
            chk <= issued_now;
            if (issued_now) last_nt <= ntpc[pick];
            if (flush) fpc <= tos_next_pc;
            else if (do_ins) fpc <= fpc + ISZ;
            for (e = 0; e < N; e = e + 1)
                if (wb_en && valid[e] && sen[e] > sen[wb_idx]) sen[e] <= sen[e] - 1'b1;
            if (do_ins) begin
                inst[ins_idx] <= ins_inst;
                ctl[ins_idx] <= ins_ctl;
                ntpc[ins_idx] <= ins_inst[P-1:0] + ISZ;
                sen[ins_idx] <= (wb_en && valid[wb_idx]) ? nvalid - 1'b1 : nvalid;
            end
        end
    end
endmodule
