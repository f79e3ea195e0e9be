// Testbench for arb_fixed.
// Check mode (default): exhaustive over all request vectors when N <= 12,
// otherwise +cycles=N (default 3000) random ones; grant must be one-hot on
// the lowest-index request (zero when there is none).
// Stimulus mode: +stim [+cycles=N] [+seed=S]: each requester requests with
// probability 1/2 every cycle.
// Either mode: +vcd=FILE [+vcddepth=D] dumps arb_fixed_tb.dut.
module arb_fixed_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter N = 8;
    reg  [N-1:0] req = 0;
    wire [N-1:0] grant;
    arb_fixed #(.N(N)) dut (.req(req), .grant(grant));

    reg [N-1:0] want;
    reg [8*512-1:0] vcdfile;
    integer i, k, fails, checks, cycles, seed, total;
    reg stim;

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        total = (!stim && N <= 12) ? (1 << N) : cycles;
        fails = 0; checks = 0;
        for (i = 0; i < total; i = i + 1) begin
            if (!stim && N <= 12) req = i;
            else for (k = 0; k < N; k = k + 32) req = (req << 32) | $unsigned($random(seed));
            #10;
            want = 0;
            for (k = N - 1; k >= 0; k = k - 1) if (req[k]) want = 1 << k;
            if (!stim) begin
                checks = checks + 1;
                if (grant !== want) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch req %b: grant %b, expected %b", req, grant, want);
                end
            end
        end
        if (stim) begin
            $display("STIM arb_fixed: %0d cycles", total);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL arb_fixed: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "arb_fixed_tb failed");
        end
        $display("PASS arb_fixed: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
