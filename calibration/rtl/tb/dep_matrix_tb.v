// Testbench for dep_matrix.
// Check mode (default): (1) the worked example of issue-stage section 2.6
// (N >= 4): entries E0=i+7, E1=i+8, E2=i+3, E3=i with E1->E0 and E2->E3;
// candidates {E0,E3}; after E0's write-back E1 becomes a candidate, after
// E3's E2 does; (2) a branch inserted after valid entries (whole row set)
// waits for all of them, and an entry inserted after a valid branch depends
// on it; (3) +cycles=N (default 3000) random cycles of inserts into the
// lowest free entry with random dependence rows, issues of ready entries,
// write-backs of issued entries and rare flushes, with valid, issued, nodep
// and ready checked every cycle against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: the random traffic of (3)
// without checks (an insert, an issue and a write-back attempted every cycle).
// Either mode: +vcd=FILE [+vcddepth=D] dumps dep_matrix_tb.dut.
module dep_matrix_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter N = 8;
    localparam IW = (N <= 2) ? 1 : $clog2(N);
    reg clk = 1'b0, rst = 1'b1;
    reg           ins_en = 0, iss_en = 0, wb_en = 0, flush = 0;
    reg  [IW-1:0] ins_idx = 0, iss_idx = 0, wb_idx = 0;
    reg  [N-1:0]  ins_row = 0;
    wire [N-1:0]  valid, issued, nodep, ready;
    dep_matrix #(.N(N)) dut (.clk(clk), .rst(rst), .ins_en(ins_en), .ins_idx(ins_idx),
        .ins_row(ins_row), .iss_en(iss_en), .iss_idx(iss_idx), .wb_en(wb_en), .wb_idx(wb_idx),
        .flush(flush), .valid(valid), .issued(issued), .nodep(nodep), .ready(ready));
    always #5 clk = ~clk;

    reg [N-1:0] mv, mi, mdm [0:N-1];
    reg [N-1:0] w_nodep, w_ready, kill, r;
    reg [8*512-1:0] vcdfile;
    integer i, e, c, k, fails, checks, cycles, seed, cand, pick;
    reg stim;

    task expect_ready;
        input [N-1:0] want;
        input [8*40-1:0] what;
        begin
            checks = checks + 1;
            if (ready !== want) begin
                fails = fails + 1;
                $display("%0s: ready %b, expected %b", what, ready, want);
            end
        end
    endtask

    task op;   // one cycle: drive, clock, release
        input ie; input [IW-1:0] ii; input [N-1:0] ir;
        input se; input [IW-1:0] si;
        input we; input [IW-1:0] wi;
        begin
            ins_en = ie; ins_idx = ii; ins_row = ir;
            iss_en = se; iss_idx = si; wb_en = we; wb_idx = wi;
            @(posedge clk); #1;
            ins_en = 0; iss_en = 0; wb_en = 0;
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
        fails = 0; checks = 0;
        @(posedge clk); #1 rst = 1'b0;
        if (!stim && N >= 4) begin
            // (1) worked example, program order E3, E2, E0, E1
            op(1, 3, 0, 0, 0, 0, 0);
            op(1, 2, 1 << 3, 0, 0, 0, 0);
            op(1, 0, 0, 0, 0, 0, 0);
            op(1, 1, 1 << 0, 0, 0, 0, 0);
            expect_ready(4'b1001, "example: candidates");
            op(0, 0, 0, 1, 0, 0, 0);                  // issue E0
            op(0, 0, 0, 0, 0, 1, 0);                  // write-back E0
            expect_ready(4'b1010, "example: after E0 wb");
            op(0, 0, 0, 1, 3, 0, 0);                  // issue E3
            op(0, 0, 0, 0, 0, 1, 3);                  // write-back E3
            expect_ready(4'b0110, "example: after E3 wb");
            // (2) a branch (whole row) after E1 and E2, then an entry after it
            op(1, 0, {N{1'b1}}, 0, 0, 0, 0);          // branch in E0
            op(1, 3, 1 << 0, 0, 0, 0, 0);             // E3 depends on the branch
            expect_ready(4'b0110, "branch waits");
            op(0, 0, 0, 1, 1, 0, 0);
            op(0, 0, 0, 1, 2, 1, 1);                  // issue E2, wb E1
            op(0, 0, 0, 0, 0, 1, 2);                  // wb E2
            expect_ready(4'b0001, "branch ready");
            op(0, 0, 0, 1, 0, 0, 0);
            op(0, 0, 0, 0, 0, 1, 0);
            expect_ready(4'b1000, "after branch wb");
            op(0, 0, 0, 1, 3, 0, 0);
            op(0, 0, 0, 0, 0, 1, 3);
            checks = checks + 1;
            if (valid !== 0) begin fails = fails + 1; $display("not empty: %b", valid); end
        end
        // (3) random traffic against the model
        rst = 1'b1; @(posedge clk); #1 rst = 1'b0;
        mv = 0; mi = 0;
        for (e = 0; e < N; e = e + 1) mdm[e] = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            // insert into the lowest free entry
            ins_en = 0; ins_idx = 0;
            for (e = N - 1; e >= 0; e = e - 1) if (!mv[e]) begin ins_en = 1; ins_idx = e; end
            if (!stim && ($unsigned($random(seed)) % 4) == 0) ins_en = 0;
            for (k = 0; k < N; k = k + 32) r = (r << 32) | $unsigned($random(seed));
            ins_row = r & $random(seed);
            // issue a random candidate
            cand = 0; pick = -1;
            for (e = 0; e < N; e = e + 1) begin
                if (mv[e] && !mi[e] && mdm[e] == 0) begin
                    cand = cand + 1;
                    if (($unsigned($random(seed)) % cand) == 0) pick = e;
                end
            end
            iss_en = (pick >= 0); iss_idx = (pick >= 0) ? pick : 0;
            // write back a random issued entry
            cand = 0; pick = -1;
            for (e = 0; e < N; e = e + 1) begin
                if (mv[e] && mi[e]) begin
                    cand = cand + 1;
                    if (($unsigned($random(seed)) % cand) == 0) pick = e;
                end
            end
            wb_en = (pick >= 0) && ($random(seed) & 1); wb_idx = (pick >= 0) ? pick : 0;
            flush = !stim && (($unsigned($random(seed)) % 50) == 0);
            #1;
            for (e = 0; e < N; e = e + 1) begin
                w_nodep[e] = (mdm[e] == 0);
                w_ready[e] = mv[e] & ~mi[e] & w_nodep[e];
            end
            if (!stim) begin
                checks = checks + 1;
                if (valid !== mv || issued !== mi || nodep !== w_nodep || ready !== w_ready) begin
                    fails = fails + 1;
                    if (fails <= 10)
                        $display("mismatch cycle %0d: v %b i %b nd %b rdy %b, expected %b %b %b %b",
                                 i, valid, issued, nodep, ready, mv, mi, w_nodep, w_ready);
                end
            end
            @(posedge clk);
            // model update (spec semantics)
            kill = 0;
            if (wb_en) kill[wb_idx] = 1'b1;
            if (flush)
                for (e = 0; e < N; e = e + 1)
                    if (mv[e] && !mi[e] && !(iss_en && iss_idx == e)) kill[e] = 1'b1;
            for (e = 0; e < N; e = e + 1) begin
                if (kill[e]) mdm[e] = 0;
                for (c = 0; c < N; c = c + 1) if (kill[c]) mdm[e][c] = 1'b0;
            end
            if (iss_en) mi[iss_idx] = 1'b1;
            mv = mv & ~kill;
            if (ins_en && !flush) begin
                mdm[ins_idx] = ins_row & (mv | kill) & ~kill;   // valid at insert, not leaving
                mdm[ins_idx][ins_idx] = 1'b0;
                mv[ins_idx] = 1'b1; mi[ins_idx] = 1'b0;
            end
            #1;
        end
        ins_en = 0; iss_en = 0; wb_en = 0; flush = 0;
        if (stim) begin
            $display("STIM dep_matrix: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL dep_matrix: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "dep_matrix_tb failed");
        end
        $display("PASS dep_matrix: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
