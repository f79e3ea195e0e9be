// Testbench for scoreboard.
// Check mode (default): +cycles=N (default 4000) random cycles: a check of
// NSRC sources and a destination (each present with probability 3/4,
// registers drawn half the time from the pending-write or pending-read
// sets); an issue on 1 cycle in 2 (the checked instruction when it has no
// collision, otherwise a random one); a write-back on 1 cycle in 2 of an
// instruction that issued earlier (random order). collision, pending and
// reading are checked against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: a full check every cycle, the
// checked instruction issues when it has no collision, and one in-flight
// instruction writes back every cycle.
// Either mode: +vcd=FILE [+vcddepth=D] dumps scoreboard_tb.dut.
module scoreboard_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter NREGS = 64;
    parameter NSRC  = 3;
    parameter RCW   = 2;
    localparam RW = (NREGS <= 2) ? 1 : $clog2(NREGS);
    localparam CMAX = (1 << RCW) - 1;
    localparam QN = 64;   // in-flight instruction queue of the testbench
    reg clk = 1'b0, rst = 1'b1;
    reg  [NSRC*RW-1:0] chk_src = 0, iss_src = 0, wb_src = 0;
    reg  [NSRC-1:0]    chk_src_v = 0, iss_src_v = 0, wb_src_v = 0;
    reg  [RW-1:0]      chk_dst = 0, iss_dst = 0, wb_dst = 0;
    reg                chk_dst_v = 0, iss_en = 0, iss_dst_v = 0, wb_en = 0, wb_dst_v = 0;
    wire               collision;
    wire [NREGS-1:0]   pending, reading;
    scoreboard #(.NREGS(NREGS), .NSRC(NSRC), .RCW(RCW)) dut (.clk(clk), .rst(rst),
        .chk_src(chk_src), .chk_src_v(chk_src_v), .chk_dst(chk_dst), .chk_dst_v(chk_dst_v),
        .collision(collision), .iss_en(iss_en), .iss_dst(iss_dst), .iss_dst_v(iss_dst_v),
        .iss_src(iss_src), .iss_src_v(iss_src_v), .wb_en(wb_en), .wb_dst(wb_dst),
        .wb_dst_v(wb_dst_v), .wb_src(wb_src), .wb_src_v(wb_src_v), .pending(pending),
        .reading(reading));
    always #5 clk = ~clk;

    reg [NREGS-1:0] mp, mr;
    integer         mc [0:NREGS-1];
    integer         cnt [0:NREGS-1];
    // in-flight instructions: {dst_v, dst, src_v, src}
    reg [NSRC*RW-1:0] q_src [0:QN-1];
    reg [NSRC-1:0]    q_src_v [0:QN-1];
    reg [RW-1:0]      q_dst [0:QN-1];
    reg               q_dst_v [0:QN-1];
    integer         qn, qi;
    reg             want;
    reg [8*512-1:0] vcdfile;
    integer i, s, r, fails, checks, cycles, seed;
    reg stim;

    function [RW-1:0] pick_reg;
        input integer dummy;
        integer c, q, m;
        begin
            pick_reg = $unsigned($random(seed)) % NREGS;
            m = $unsigned($random(seed)) % 3;
            if (m != 0) begin
                c = 0;
                for (q = 0; q < NREGS; q = q + 1)
                    if ((m == 1) ? mp[q] : (mc[q] != 0)) begin
                        c = c + 1;
                        if (($unsigned($random(seed)) % c) == 0) pick_reg = q;
                    end
            end
        end
    endfunction

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 4000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; mp = 0; qn = 0;
        for (r = 0; r < NREGS; r = r + 1) mc[r] = 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            for (s = 0; s < NSRC; s = s + 1) begin
                chk_src[s*RW +: RW] = pick_reg(0);
                chk_src_v[s] = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            end
            chk_dst = pick_reg(0);
            chk_dst_v = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            // model of the check
            for (r = 0; r < NREGS; r = r + 1) cnt[r] = 0;
            for (s = 0; s < NSRC; s = s + 1)
                if (chk_src_v[s]) cnt[chk_src[s*RW +: RW]] = cnt[chk_src[s*RW +: RW]] + 1;
            want = chk_dst_v & (mp[chk_dst] | (mc[chk_dst] != 0));
            for (s = 0; s < NSRC; s = s + 1)
                if (chk_src_v[s] && (mp[chk_src[s*RW +: RW]] ||
                                     mc[chk_src[s*RW +: RW]] + cnt[chk_src[s*RW +: RW]] > CMAX))
                    want = 1'b1;
            // issue: the checked instruction if free of collisions (else, in
            // check mode, sometimes a random one), while the queue has room
            iss_en = (qn < QN) && (stim ? !want : $random(seed));
            if (!want || stim) begin
                iss_src = chk_src; iss_src_v = chk_src_v; iss_dst = chk_dst; iss_dst_v = chk_dst_v;
            end else begin
                for (s = 0; s < NSRC; s = s + 1) iss_src[s*RW +: RW] = pick_reg(0);
                iss_src_v = $random(seed); iss_dst = pick_reg(0); iss_dst_v = $random(seed);
            end
            // write-back of a random in-flight instruction
            wb_en = (qn > 0) && (stim || $random(seed));
            qi = (qn > 0) ? $unsigned($random(seed)) % qn : 0;
            if (wb_en) begin
                wb_src = q_src[qi]; wb_src_v = q_src_v[qi]; wb_dst = q_dst[qi]; wb_dst_v = q_dst_v[qi];
            end
            #1;
            if (!stim) begin
                checks = checks + 1;
                for (r = 0; r < NREGS; r = r + 1) mr[r] = (mc[r] != 0);
                if (collision !== want || pending !== mp || reading !== mr) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d: collision %b expected %b", i, collision, want);
                end
            end
            @(posedge clk);
            for (r = 0; r < NREGS; r = r + 1) cnt[r] = mc[r];
            if (wb_en) begin
                if (wb_dst_v) mp[wb_dst] = 1'b0;
                for (s = 0; s < NSRC; s = s + 1)
                    if (wb_src_v[s]) cnt[wb_src[s*RW +: RW]] = cnt[wb_src[s*RW +: RW]] - 1;
                q_src[qi] = q_src[qn-1]; q_src_v[qi] = q_src_v[qn-1];
                q_dst[qi] = q_dst[qn-1]; q_dst_v[qi] = q_dst_v[qn-1];
                qn = qn - 1;
            end
            if (iss_en) begin
                if (iss_dst_v) mp[iss_dst] = 1'b1;
                for (s = 0; s < NSRC; s = s + 1)
                    if (iss_src_v[s]) cnt[iss_src[s*RW +: RW]] = cnt[iss_src[s*RW +: RW]] + 1;
                q_src[qn] = iss_src; q_src_v[qn] = iss_src_v; q_dst[qn] = iss_dst; q_dst_v[qn] = iss_dst_v;
                qn = qn + 1;
            end
            for (r = 0; r < NREGS; r = r + 1)
                mc[r] = (cnt[r] < 0) ? 0 : (cnt[r] > CMAX) ? CMAX : cnt[r];
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
