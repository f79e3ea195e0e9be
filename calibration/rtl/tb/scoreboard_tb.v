// Testbench for scoreboard.
// Check mode (default): +cycles=N (default 3000) random cycles: a check of
// NSRC random sources and a destination (each present with probability 3/4,
// registers drawn half the time from the pending set), a reserve on 1 cycle
// in 2 and a release of a pending register on 1 cycle in 2; collision and
// the pending vector are checked against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: a full check, a reserve and a
// release attempt every cycle.
// Either mode: +vcd=FILE dumps scoreboard_tb.dut.
module scoreboard_tb;
    parameter NREGS = 64;
    parameter NSRC  = 3;
    localparam RW = (NREGS <= 2) ? 1 : $clog2(NREGS);
    reg clk = 1'b0, rst = 1'b1;
    reg  [NSRC*RW-1:0] chk_src = 0;
    reg  [NSRC-1:0]    chk_src_v = 0;
    reg  [RW-1:0]      chk_dst = 0, iss_dst = 0, wb_dst = 0;
    reg                chk_dst_v = 0, iss_en = 0, wb_en = 0;
    wire               collision;
    wire [NREGS-1:0]   pending;
    scoreboard #(.NREGS(NREGS), .NSRC(NSRC)) dut (.clk(clk), .rst(rst), .chk_src(chk_src),
        .chk_src_v(chk_src_v), .chk_dst(chk_dst), .chk_dst_v(chk_dst_v), .collision(collision),
        .iss_en(iss_en), .iss_dst(iss_dst), .wb_en(wb_en), .wb_dst(wb_dst), .pending(pending));
    always #5 clk = ~clk;

    reg [NREGS-1:0] mp;
    reg             want;
    reg [8*512-1:0] vcdfile;
    integer i, s, e, n, fails, checks, cycles, seed;
    reg stim;

    // a register index, half the time one that is pending (if any)
    function [RW-1:0] pick_reg;
        input integer dummy;
        integer cnt, q;
        begin
            pick_reg = $unsigned($random(seed)) % NREGS;
            if ($random(seed) & 1) begin
                cnt = 0;
                for (q = 0; q < NREGS; q = q + 1)
                    if (mp[q]) begin
                        cnt = cnt + 1;
                        if (($unsigned($random(seed)) % cnt) == 0) pick_reg = q;
                    end
            end
        end
    endfunction

    initial begin
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(0, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; mp = 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            for (s = 0; s < NSRC; s = s + 1) begin
                chk_src[s*RW +: RW] = pick_reg(0);
                chk_src_v[s] = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            end
            chk_dst = pick_reg(0);
            chk_dst_v = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            iss_en = stim ? 1'b1 : $random(seed);
            iss_dst = $unsigned($random(seed)) % NREGS;
            wb_en = stim ? 1'b1 : $random(seed);
            wb_dst = pick_reg(0);
            #1;
            want = chk_dst_v & mp[chk_dst];
            for (s = 0; s < NSRC; s = s + 1) want = want | (chk_src_v[s] & mp[chk_src[s*RW +: RW]]);
            if (!stim) begin
                checks = checks + 1;
                if (collision !== want || pending !== mp) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d: collision %b expected %b", i, collision, want);
                end
            end
            @(posedge clk);
            if (wb_en) mp[wb_dst] = 1'b0;
            if (iss_en) mp[iss_dst] = 1'b1;
            #1;
        end
        if (stim) begin
            $display("STIM scoreboard: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL scoreboard: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "scoreboard_tb failed");
        end
        $display("PASS scoreboard: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
