// Testbench for issue_socgpu (per-warp SOCGPU issue logic); the directed
// checks (1)-(4) run at N = 8, the invariants (5) at any N.
// Check mode (default): (1) insert comparators: RAW, WAR and WAW set the
// dependence row, unrelated instructions issue out of order, the "First"
// policy picks the lowest index, a write-back releases dependants and
// re-ranks seniority; (2) a branch depends on every valid entry and a later
// instruction depends on the branch; (3) a3: an entry past the
// reconvergence PC is no candidate unless it is the oldest; (4) a flush
// after an issue whose next PC differs from the SIMT stack's removes the
// non-issued entries and redirects the fetch PC; (5) +cycles=N random
// cycles checking invariants every cycle: candidates are valid, exactly one
// valid entry is the oldest, the selection is the lowest candidate.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random inserts, issues and
// write-backs, no checks.
// Either mode: +vcd=FILE [+vcddepth=D] dumps issue_socgpu_tb.dut.
module issue_socgpu_tb;
    integer vcddepth;
    parameter N = 8;
    parameter P = 32;
    parameter RB = 8;
    parameter PB = 3;
    parameter NS = 3;
    parameter DD = 64;
    localparam ISZ = 8;
    localparam IW = (N <= 2) ? 1 : $clog2(N);
    localparam FW = P + NS * (RB + 1) + (RB + 1) + 2 * (PB + 1) + DD;
    localparam OFF_D = P + NS * (RB + 1);
    localparam OFF_PS = OFF_D + RB + 1;
    localparam OFF_PD = OFF_PS + PB + 1;
    localparam OFF_PL = OFF_PD + PB + 1;
    reg clk = 1'b0, rst = 1'b1;
    reg ins_en = 0, ins_ctl = 0, iss_en = 0, wb_en = 0;
    reg [FW-1:0] ins_inst = 0;
    reg [P-1:0] tos_rpc = {P{1'b1}}, tos_next_pc = 0;
    reg [IW-1:0] wb_idx = 0;
    wire full, sel_valid, issued_now, flush;
    wire [N-1:0] cand, valid, oldest;
    wire [IW-1:0] sel_idx;
    wire [FW-1:0] sel_inst;
    wire [P-1:0] fetch_pc;
    issue_socgpu #(.N(N), .P(P), .RB(RB), .PB(PB), .NS(NS), .DD(DD), .ISZ(ISZ)) dut (
        .clk(clk), .rst(rst), .ins_en(ins_en), .ins_inst(ins_inst), .ins_ctl(ins_ctl),
        .full(full), .tos_rpc(tos_rpc), .tos_next_pc(tos_next_pc), .iss_en(iss_en),
        .cand(cand), .sel_valid(sel_valid), .sel_idx(sel_idx), .sel_inst(sel_inst),
        .issued_now(issued_now), .wb_en(wb_en), .wb_idx(wb_idx), .flush(flush),
        .fetch_pc(fetch_pc), .valid(valid), .oldest(oldest));
    always #5 clk = ~clk;

    integer fails, checks, i, e, k, cycles, seed, nold, pick;
    reg stim;
    reg [8*512-1:0] vcdfile;
    reg [N-1:0] iss_m;   // issued entries (tracked by the testbench)
    reg [P-1:0] nxt_tos;

    function [FW-1:0] inst;
        input [P-1:0] pc;
        input [RB-1:0] s0; input v0;
        input [RB-1:0] d; input dv;
        input [PB-1:0] ps; input psv; input [PB-1:0] pd; input pdv;
        begin
            inst = 0;
            inst[0 +: P] = pc;
            inst[P +: RB] = s0; inst[P + RB] = v0;
            inst[OFF_D +: RB] = d; inst[OFF_D + RB] = dv;
            inst[OFF_PS +: PB] = ps; inst[OFF_PS + PB] = psv;
            inst[OFF_PD +: PB] = pd; inst[OFF_PD + PB] = pdv;
            inst[OFF_PL +: 16] = pc[15:0];
        end
    endfunction

    task expect_vec;
        input [N-1:0] got; input [N-1:0] w; input [8*48-1:0] what;
        begin
            checks = checks + 1;
            if (got !== w) begin
                fails = fails + 1;
                $display("%0s: got %b, expected %b", what, got, w);
            end
        end
    endtask

    // one cycle: insert (ie, x, c), issue (se, the SIMT stack following the
    // issued instruction unless redirect), write-back (we, wi)
    task cyc;
        input ie; input [FW-1:0] x; input c; input se; input we; input [IW-1:0] wi;
        input redirect; input [P-1:0] target;
        begin
            ins_en = ie; ins_inst = x; ins_ctl = c; iss_en = se; wb_en = we; wb_idx = wi;
            #1;
            nxt_tos = tos_next_pc;
            if (issued_now) begin
                iss_m[sel_idx] = 1'b1;
                nxt_tos = redirect ? target : sel_inst[P-1:0] + ISZ;
            end
            if (we) iss_m[wi] = 1'b0;
            @(posedge clk);
            tos_next_pc = nxt_tos;   // the SIMT stack is updated at the issue's clock edge
            #1;
            ins_en = 0; iss_en = 0; wb_en = 0; ins_ctl = 0;
        end
    endtask

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; iss_m = 0;
        @(posedge clk); #1 rst = 1'b0;
        if (!stim && N == 8) begin
            // (1) A: r1 <- ; B: r2 <- r1 (RAW on A); C: r3 <- ; D: r4 <- r9
            cyc(1, inst(32'h100, 0, 0, 8'd1, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            cyc(1, inst(32'h108, 8'd1, 1, 8'd2, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            cyc(1, inst(32'h110, 0, 0, 8'd3, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            cyc(1, inst(32'h118, 8'd9, 1, 8'd4, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            expect_vec(valid, 8'b0000_1111, "four entries");
            expect_vec(cand, 8'b0000_1101, "B waits for A (RAW)");
            expect_vec(oldest, 8'b0000_0001, "A is the oldest");
            expect_vec(sel_idx, 0, "First picks the lowest index");
            cyc(0, 0, 0, 1, 0, 0, 0, 0);                       // issue A
            expect_vec(cand, 8'b0000_1100, "A issued");
            cyc(0, 0, 0, 1, 0, 0, 0, 0);                       // issue C out of order
            expect_vec(cand, 8'b0000_1000, "C issued");
            cyc(0, 0, 0, 0, 1, 0, 0, 0);                       // A writes back
            expect_vec(cand, 8'b0000_1010, "B released by A's write-back");
            expect_vec(oldest, 8'b0000_0010, "B is now the oldest");
            // WAR: E writes r9, read by D  -> E (entry 0) depends on D
            // WAW: F writes r3, written by C -> F (entry 4) depends on C
            cyc(1, inst(32'h120, 0, 0, 8'd9, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            cyc(1, inst(32'h128, 0, 0, 8'd3, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            expect_vec(valid, 8'b0001_1111, "six entries");
            expect_vec(cand, 8'b0000_1010, "E waits for D (WAR), F for C (WAW)");
            // predicates: G sets p2 (entry 5), H is guarded by p2 (entry 6)
            cyc(1, inst(32'h130, 0, 0, 0, 0, 0, 0, 3'd2, 1), 0, 0, 0, 0, 0, 0);
            cyc(1, inst(32'h138, 0, 0, 8'd5, 1, 3'd2, 1, 0, 0), 0, 0, 0, 0, 0, 0);
            expect_vec(cand, 8'b0010_1010, "H waits for G's predicate");
            // (3) a3: reconvergence PC 0x11c: D (nt 0x120) and G (0x138) are past it
            tos_rpc = 32'h11c;
            #1;
            expect_vec(cand, 8'b0000_0010, "a3 holds entries past the reconvergence PC");
            tos_rpc = {P{1'b1}};
            #1;
            // (2) a branch (entry 7) depends on every valid entry
            cyc(1, inst(32'h140, 0, 0, 0, 0, 0, 0, 0, 0), 1, 0, 0, 0, 0, 0);
            expect_vec(valid, 8'b1111_1111, "full");
            checks = checks + 1;
            if (!full) begin fails = fails + 1; $display("full not set"); end
            expect_vec(cand, 8'b0010_1010, "the branch waits");
            // drain everything but the branch: issue B, D, G; write back B, C, D, G
            cyc(0, 0, 0, 1, 0, 0, 0, 0);                       // B (1)
            cyc(0, 0, 0, 1, 1, 1, 0, 0);                       // D (3), wb B
            cyc(0, 0, 0, 1, 1, 2, 0, 0);                       // G (5), wb C
            cyc(0, 0, 0, 0, 1, 3, 0, 0);                       // wb D
            expect_vec(cand, 8'b0001_0001, "E released by D, F by C");
            cyc(0, 0, 0, 0, 1, 5, 0, 0);                       // wb G
            expect_vec(cand, 8'b0101_0001, "E, F, H candidates; the branch waits for them");
            // issue E, F, H and write them back; then the branch is the only entry
            cyc(0, 0, 0, 1, 0, 0, 0, 0);
            cyc(0, 0, 0, 1, 0, 0, 0, 0);
            cyc(0, 0, 0, 1, 0, 0, 0, 0);
            cyc(0, 0, 0, 0, 1, 0, 0, 0);
            cyc(0, 0, 0, 0, 1, 4, 0, 0);
            cyc(0, 0, 0, 0, 1, 6, 0, 0);
            expect_vec(cand, 8'b1000_0000, "branch ready");
            expect_vec(oldest, 8'b1000_0000, "branch is the oldest");
            // an instruction after the valid branch depends on it
            cyc(1, inst(32'h148, 0, 0, 8'd7, 1, 0, 0, 0, 0), 0, 0, 0, 0, 0, 0);
            expect_vec(cand, 8'b1000_0000, "the entry after the branch waits");
            // (4) the branch issues and is taken: flush the non-issued entry
            cyc(1, inst(32'h150, 0, 0, 8'd8, 1, 0, 0, 0, 0), 0, 1, 0, 0, 1, 32'h400);
            checks = checks + 1;
            if (!flush) begin fails = fails + 1; $display("flush not raised"); end
            cyc(0, 0, 0, 0, 0, 0, 0, 0);
            expect_vec(valid, 8'b1000_0000, "flush removes the non-issued entries");
            checks = checks + 1;
            if (fetch_pc !== 32'h400) begin
                fails = fails + 1; $display("fetch_pc %h after the flush", fetch_pc);
            end
            cyc(0, 0, 0, 0, 1, 7, 0, 0);
            expect_vec(valid, 0, "empty");
        end
        // (5) random traffic, invariants
        rst = 1'b1; @(posedge clk); #1 rst = 1'b0;
        iss_m = 0; tos_rpc = {P{1'b1}};
        for (i = 0; i < cycles; i = i + 1) begin
            ins_en = $random(seed);
            ins_ctl = (($unsigned($random(seed)) % 16) == 0);
            ins_inst = inst($random(seed), $unsigned($random(seed)) % 8, $random(seed),
                            $unsigned($random(seed)) % 8, $random(seed), $unsigned($random(seed)) % 2,
                            (($unsigned($random(seed)) % 4) == 0), $unsigned($random(seed)) % 2,
                            (($unsigned($random(seed)) % 4) == 0));
            iss_en = $random(seed);
            k = 0; pick = -1;
            for (e = 0; e < N; e = e + 1)
                if (iss_m[e] && valid[e]) begin
                    k = k + 1;
                    if (($unsigned($random(seed)) % k) == 0) pick = e;
                end
            wb_en = (pick >= 0) && $random(seed);
            wb_idx = (pick >= 0) ? pick : 0;
            #1;
            if (!stim) begin
                nold = 0;
                for (e = 0; e < N; e = e + 1) nold = nold + oldest[e];
                k = -1;
                for (e = N - 1; e >= 0; e = e - 1) if (cand[e]) k = e;
                checks = checks + 1;
                if ((cand & ~valid) != 0 || (valid != 0 && nold != 1) || (valid == 0 && nold != 0) ||
                    (k >= 0 && sel_idx != k) || (sel_valid != (k >= 0))) begin
                    fails = fails + 1;
                    if (fails <= 10)
                        $display("cycle %0d: valid %b cand %b oldest %b sel %0d", i, valid, cand,
                                 oldest, sel_idx);
                end
            end
            nxt_tos = tos_next_pc;
            if (issued_now) begin
                iss_m[sel_idx] = 1'b1;
                nxt_tos = (($unsigned($random(seed)) % 32) == 0) ? $random(seed)
                                                                 : sel_inst[P-1:0] + ISZ;
            end
            if (wb_en) iss_m[wb_idx] = 1'b0;
            @(posedge clk);
            tos_next_pc = nxt_tos;
            #1;
            iss_m = iss_m & valid;
        end
        ins_en = 0; iss_en = 0; wb_en = 0;
        if (stim) begin
            $display("STIM issue_socgpu: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL issue_socgpu: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "issue_socgpu_tb failed");
        end
        $display("PASS issue_socgpu: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
