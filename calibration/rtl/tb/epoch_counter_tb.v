// Testbench for epoch_counter.
// Check mode (default): +cycles=N (default 4000) random cycles: per-cycle
// dispatch counts drawn from phases of low and high activity, a random
// threshold per phase, rare restarts; mode, epoch_end and count are checked
// every cycle against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: a random dispatch count
// (0 .. 2^IW - 1) every cycle with a fixed threshold of 85.
// Either mode: +vcd=FILE [+vcddepth=D] dumps epoch_counter_tb.dut.
module epoch_counter_tb;
    integer vcddepth;
    parameter W     = 9;
    parameter EW    = 6;
    parameter EPOCH = 50;
    parameter IW    = 4;
    reg clk = 1'b0, rst = 1'b1;
    reg           restart = 0;
    reg  [IW-1:0] cnt_in = 0;
    reg  [W-1:0]  thr = 0;
    wire          mode, epoch_end;
    wire [W-1:0]  count;
    epoch_counter #(.W(W), .EW(EW), .EPOCH(EPOCH), .IW(IW)) dut (.clk(clk), .rst(rst),
        .restart(restart), .cnt_in(cnt_in), .thr(thr), .mode(mode), .epoch_end(epoch_end),
        .count(count));
    always #5 clk = ~clk;

    integer mc, mcyc, mmode, tot, maxc;
    reg [8*512-1:0] vcdfile;
    integer i, fails, checks, cycles, seed, phase;
    reg stim;

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        stim = $test$plusargs("stim");
        if (!$value$plusargs("cycles=%d", cycles)) cycles = stim ? 1000 : 4000;
        fails = 0; checks = 0; mc = 0; mcyc = 0; mmode = 1; phase = 0;
        maxc = (1 << W) - 1;
        thr = stim ? 85 : 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            if (!stim && (i % 137) == 0) begin
                phase = $unsigned($random(seed)) % 3;
                thr = $unsigned($random(seed)) % (1 << W);
            end
            if (stim)
                cnt_in = $unsigned($random(seed)) % (1 << IW);
            else if (phase == 0)
                cnt_in = $unsigned($random(seed)) % 2;
            else
                cnt_in = $unsigned($random(seed)) % (1 << IW);
            restart = !stim && (($unsigned($random(seed)) % 700) == 0);
            #1;
            if (!stim) begin
                checks = checks + 1;
                if (mode !== mmode[0] || epoch_end !== (mcyc == EPOCH - 1) || count !== mc) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d: mode %b end %b count %0d, expected %0d %0d %0d",
                        i, mode, epoch_end, count, mmode, mcyc == EPOCH - 1, mc);
                end
            end
            @(posedge clk);
            tot = mc + cnt_in;
            if (tot > maxc) tot = maxc;
            if (restart) begin
                mc = 0; mcyc = 0; mmode = 1;
            end else if (mcyc == EPOCH - 1) begin
                mmode = (tot < thr) ? 0 : 1;
                mc = 0; mcyc = 0;
            end else begin
                mc = tot; mcyc = mcyc + 1;
            end
            #1;
        end
        if (stim) begin
            $display("STIM epoch_counter: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL epoch_counter: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "epoch_counter_tb failed");
        end
        $display("PASS epoch_counter: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
