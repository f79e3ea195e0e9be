// Testbench for issue_base (per-warp baseline issue logic).
// Check mode (default): directed checks of the instruction buffer and the
// scoreboards: (1) RAW on a GPR: a reader waits for its producer's
// write-back; (2) WAR: a writer waits for an in-flight reader; (3) two
// in-flight readers of one register hold a writer until both have written
// back; (4) predicates: a guarded instruction waits for the predicate's
// producer; (5) the buffer fills at IBN entries and a flush empties it;
// (6) +cycles=N random cycles against a behavioural scoreboard model
// (head_ready checked every cycle).
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random instructions fetched,
// issued when ready, written back in random order, no checks.
// Either mode: +vcd=FILE [+vcddepth=D] dumps issue_base_tb.dut.
module issue_base_tb;
    integer vcddepth;
    parameter P = 32;
    parameter RB = 8;
    parameter PB = 3;
    parameter NS = 3;
    parameter DD = 64;
    parameter IBN = 2;
    parameter CW = 2;
    localparam NREGS = (1 << RB) + (1 << PB);
    localparam FW = P + NS * (RB + 1) + (RB + 1) + 2 * (PB + 1) + DD;
    localparam OFF_D = P + NS * (RB + 1);
    localparam OFF_PS = OFF_D + RB + 1;
    localparam OFF_PD = OFF_PS + PB + 1;
    localparam OFF_PL = OFF_PD + PB + 1;
    reg clk = 1'b0, rst = 1'b1;
    reg fe_en = 0, iss_en = 0, flush = 0, wb_en = 0;
    reg [FW-1:0] fe_inst = 0, wb_inst = 0;
    wire full, empty, head_ready, issued;
    wire [FW-1:0] head_inst;
    issue_base #(.P(P), .RB(RB), .PB(PB), .NS(NS), .DD(DD), .IBN(IBN), .CW(CW)) dut (
        .clk(clk), .rst(rst), .fe_en(fe_en), .fe_inst(fe_inst), .full(full), .empty(empty),
        .iss_en(iss_en), .head_ready(head_ready), .head_inst(head_inst), .issued(issued),
        .flush(flush), .wb_en(wb_en), .wb_inst(wb_inst));
    always #5 clk = ~clk;

    integer fails, checks, i, k, cycles, seed, nfl, pick;
    reg stim;
    reg [8*512-1:0] vcdfile;
    reg [FW-1:0] fl [0:15];      // in-flight instructions (issued, not written back)
    reg [FW-1:0] mq [0:IBN-1];   // model of the buffer
    integer mcount;
    reg [NREGS-1:0] mpend;
    integer mrd [0:NREGS-1];
    reg want;

    // an instruction: sources s0, s1 (the others absent), destination d,
    // guard predicate ps, predicate destination pd; v* are present bits
    function [FW-1:0] inst;
        input [P-1:0] pc;
        input [RB-1:0] s0; input v0; input [RB-1:0] s1; input v1;
        input [RB-1:0] d; input dv;
        input [PB-1:0] ps; input psv; input [PB-1:0] pd; input pdv;
        begin
            inst = 0;
            inst[0 +: P] = pc;
            inst[P +: RB] = s0; inst[P + RB] = v0;
            inst[P + (RB + 1) +: RB] = s1; inst[P + (RB + 1) + RB] = v1;
            inst[OFF_D +: RB] = d; inst[OFF_D + RB] = dv;
            inst[OFF_PS +: PB] = ps; inst[OFF_PS + PB] = psv;
            inst[OFF_PD +: PB] = pd; inst[OFF_PD + PB] = pdv;
            inst[OFF_PL +: 16] = pc[15:0] ^ 16'h5a5a;
        end
    endfunction

    function [FW-1:0] rnd_inst;
        input integer sd;
        integer j;
        begin
            rnd_inst = 0;
            rnd_inst[0 +: P] = $random(seed);
            for (j = 0; j < NS; j = j + 1) begin
                rnd_inst[P + j * (RB + 1) +: RB] = $unsigned($random(seed)) % 8;
                rnd_inst[P + j * (RB + 1) + RB] = $random(seed);
            end
            rnd_inst[OFF_D +: RB] = $unsigned($random(seed)) % 8;
            rnd_inst[OFF_D + RB] = $random(seed);
            rnd_inst[OFF_PS +: PB] = $unsigned($random(seed)) % 2;
            rnd_inst[OFF_PS + PB] = (($unsigned($random(seed)) % 4) == 0);
            rnd_inst[OFF_PD +: PB] = $unsigned($random(seed)) % 2;
            rnd_inst[OFF_PD + PB] = (($unsigned($random(seed)) % 4) == 0);
            rnd_inst[OFF_PL +: 16] = $random(seed);
        end
    endfunction

    task check_bit;
        input got; input w; input [8*48-1:0] what;
        begin
            checks = checks + 1;
            if (got !== w) begin
                fails = fails + 1;
                $display("%0s: got %b, expected %b", what, got, w);
            end
        end
    endtask

    task cyc;   // one cycle with the given controls, then release them
        input fe; input [FW-1:0] fi; input is; input we; input [FW-1:0] wi; input fl_;
        begin
            fe_en = fe; fe_inst = fi; iss_en = is; wb_en = we; wb_inst = wi; flush = fl_;
            @(posedge clk); #1;
            fe_en = 0; iss_en = 0; wb_en = 0; flush = 0;
        end
    endtask

    // behavioural scoreboard check of instruction x
    function model_ready;
        input [FW-1:0] x;
        integer j, r;
        begin
            model_ready = 1;
            for (j = 0; j <= NS; j = j + 1) begin
                if (j < NS) begin
                    r = x[P + j * (RB + 1) +: RB];
                    if (x[P + j * (RB + 1) + RB] && (mpend[r] || mrd[r] == (1 << CW) - 1)) model_ready = 0;
                end else begin
                    r = (1 << RB) + x[OFF_PS +: PB];
                    if (x[OFF_PS + PB] && (mpend[r] || mrd[r] == (1 << CW) - 1)) model_ready = 0;
                end
            end
            r = x[OFF_D +: RB];
            if (x[OFF_D + RB] && (mpend[r] || mrd[r] != 0)) model_ready = 0;
            r = (1 << RB) + x[OFF_PD +: PB];
            if (x[OFF_PD + PB] && (mpend[r] || mrd[r] != 0)) model_ready = 0;
        end
    endfunction

    task model_apply;   // x issues (dir = 1) or writes back (dir = -1)
        input [FW-1:0] x; input integer dir;
        integer j, r;
        begin
            for (j = 0; j <= NS; j = j + 1) begin
                r = (j < NS) ? x[P + j * (RB + 1) +: RB] : (1 << RB) + x[OFF_PS +: PB];
                if ((j < NS) ? x[P + j * (RB + 1) + RB] : x[OFF_PS + PB]) begin
                    mrd[r] = mrd[r] + dir;
                    if (mrd[r] < 0) mrd[r] = 0;
                    if (mrd[r] > (1 << CW) - 1) mrd[r] = (1 << CW) - 1;
                end
            end
        end
    endtask

    reg [FW-1:0] a, b, c, d;
    reg [NREGS-1:0] setp, clrp;
    integer r;
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
        if (!stim) begin
            // (1) RAW: a writes r1, b reads r1
            a = inst(32'h100, 0, 0, 0, 0, 8'd1, 1, 0, 0, 0, 0);
            b = inst(32'h108, 8'd1, 1, 0, 0, 8'd2, 1, 0, 0, 0, 0);
            cyc(1, a, 0, 0, 0, 0);
            cyc(1, b, 0, 0, 0, 0);
            check_bit(full, IBN == 2, "two entries fill the buffer");
            check_bit(head_ready, 1, "a ready");
            check_bit(head_inst == a, 1, "head is a");
            cyc(0, 0, 1, 0, 0, 0);                    // issue a
            check_bit(head_inst == b, 1, "head is b");
            check_bit(head_ready, 0, "b waits for r1 (RAW)");
            cyc(0, 0, 0, 1, a, 0);                    // a writes back
            check_bit(head_ready, 1, "b ready after a's write-back");
            cyc(0, 0, 1, 0, 0, 0);                    // issue b (reads r1, writes r2)
            check_bit(empty, 1, "buffer empty");
            // (2) WAR: c writes r1 while b (reader of r1) is in flight
            c = inst(32'h110, 0, 0, 0, 0, 8'd1, 1, 0, 0, 0, 0);
            cyc(1, c, 0, 0, 0, 0);
            check_bit(head_ready, 0, "c waits for b's read of r1 (WAR)");
            cyc(0, 0, 0, 1, b, 0);
            check_bit(head_ready, 1, "c ready after b's write-back");
            cyc(0, 0, 1, 0, 0, 0);
            cyc(0, 0, 0, 1, c, 0);
            // (3) two readers of r7, then a writer of r7
            a = inst(32'h200, 8'd7, 1, 0, 0, 0, 0, 0, 0, 0, 0);
            b = inst(32'h208, 8'd7, 1, 8'd7, 1, 8'd9, 1, 0, 0, 0, 0);
            d = inst(32'h210, 0, 0, 0, 0, 8'd7, 1, 0, 0, 0, 0);
            cyc(1, a, 0, 0, 0, 0);
            cyc(1, b, 1, 0, 0, 0);                    // a issues, b enters
            cyc(1, d, 1, 0, 0, 0);                    // b issues, d enters
            check_bit(head_ready, 0, "writer waits for two readers");
            cyc(0, 0, 0, 1, a, 0);
            check_bit(head_ready, 0, "writer still waits after one reader");
            cyc(0, 0, 0, 1, b, 0);
            check_bit(head_ready, 1, "writer ready after both readers");
            cyc(0, 0, 1, 0, 0, 0);
            cyc(0, 0, 0, 1, d, 0);
            // (4) predicates: a sets p3, b is guarded by p3
            a = inst(32'h300, 0, 0, 0, 0, 0, 0, 0, 0, 3'd3, 1);
            b = inst(32'h308, 0, 0, 0, 0, 8'd4, 1, 3'd3, 1, 0, 0);
            cyc(1, a, 0, 0, 0, 0);
            cyc(1, b, 1, 0, 0, 0);
            check_bit(head_ready, 0, "guarded instruction waits for its predicate");
            cyc(0, 0, 0, 1, a, 0);
            check_bit(head_ready, 1, "guarded instruction ready");
            // (5) flush empties the buffer
            cyc(1, a, 0, 0, 0, 0);
            cyc(0, 0, 0, 0, 0, 1);
            check_bit(empty, 1, "flush empties the buffer");
            // (6) random traffic against the model
            rst = 1'b1; @(posedge clk); #1 rst = 1'b0;
        end
        mpend = 0; mcount = 0; nfl = 0;
        for (r = 0; r < NREGS; r = r + 1) mrd[r] = 0;
        rst = 1'b1; @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            fe_en = (mcount < IBN) && ($random(seed) & 1);
            fe_inst = rnd_inst(seed);
            iss_en = (nfl < 16);
            pick = (nfl > 0) ? $unsigned($random(seed)) % nfl : 0;
            wb_en = (nfl > 0) && (($unsigned($random(seed)) % 3) != 0);
            wb_inst = fl[pick];
            flush = !stim && (($unsigned($random(seed)) % 64) == 0);
            #1;
            want = (mcount > 0) && model_ready(mq[0]);
            if (!stim) begin
                checks = checks + 1;
                if (head_ready !== want || (mcount > 0 && head_inst !== mq[0])) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("cycle %0d: head_ready %b, expected %b", i, head_ready, want);
                end
            end
            @(posedge clk);
            // model: write-back, issue, buffer
            setp = 0; clrp = 0;
            if (wb_en) begin
                model_apply(wb_inst, -1);
                if (wb_inst[OFF_D + RB]) clrp[wb_inst[OFF_D +: RB]] = 1'b1;
                if (wb_inst[OFF_PD + PB]) clrp[(1 << RB) + wb_inst[OFF_PD +: PB]] = 1'b1;
                for (k = pick; k < nfl - 1; k = k + 1) fl[k] = fl[k + 1];
                nfl = nfl - 1;
            end
            if (iss_en && want) begin
                model_apply(mq[0], 1);
                if (mq[0][OFF_D + RB]) setp[mq[0][OFF_D +: RB]] = 1'b1;
                if (mq[0][OFF_PD + PB]) setp[(1 << RB) + mq[0][OFF_PD +: PB]] = 1'b1;
                fl[nfl] = mq[0];
                nfl = nfl + 1;
                for (k = 0; k < IBN - 1; k = k + 1) mq[k] = mq[k + 1];
                mcount = mcount - 1;
            end
            mpend = (mpend & ~(clrp & ~setp)) | setp;
            if (flush) mcount = 0;
            else if (fe_en && mcount < IBN) begin
                mq[mcount] = fe_inst;
                mcount = mcount + 1;
            end
            #1;
        end
        fe_en = 0; iss_en = 0; wb_en = 0; flush = 0;
        if (stim) begin
            $display("STIM issue_base: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL issue_base: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "issue_base_tb failed");
        end
        $display("PASS issue_base: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
