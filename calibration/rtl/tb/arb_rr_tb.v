// Testbench for arb_rr.
// Check mode (default): +cycles=N (default 3000) random request vectors
// (dense and sparse phases) and random accept (en); grant is checked against
// a behavioural round-robin model (first requester at or after the pointer,
// pointer moves past an accepted grant), and a fairness check: with every
// requester requesting continuously, N consecutive grants cover all N.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: each requester requests with
// probability 1/2, en = 1, every cycle.
// Either mode: +vcd=FILE [+vcddepth=D] dumps arb_rr_tb.dut.
module arb_rr_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter N = 8;
    reg clk = 1'b0, rst = 1'b1, en = 1'b0;
    reg  [N-1:0] req = 0;
    wire [N-1:0] grant;
    arb_rr #(.N(N)) dut (.clk(clk), .rst(rst), .en(en), .req(req), .grant(grant));
    always #5 clk = ~clk;

    reg [N-1:0] want, seen;
    reg [8*512-1:0] vcdfile;
    integer i, j, k, g, ptr, fails, checks, cycles, seed;
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
        fails = 0; checks = 0; ptr = 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            for (k = 0; k < N; k = k + 32) req = (req << 32) | $unsigned($random(seed));
            if (!stim && (i / 256) % 2 == 1) req = req & ({N{1'b0}} | $random(seed)) & ({N{1'b0}} | $random(seed));
            en = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            #1;
            want = 0; g = -1;
            for (j = 0; j < N; j = j + 1)
                if (g < 0 && req[(ptr + j) % N]) g = (ptr + j) % N;
            if (g >= 0) want[g] = 1'b1;
            if (!stim) begin
                checks = checks + 1;
                if (grant !== want) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d req %b ptr %0d: grant %b, expected %b", i, req, ptr, grant, want);
                end
            end
            @(posedge clk);
            if (en && g >= 0) ptr = (g + 1) % N;
            #1;
        end
        if (!stim) begin
            // fairness: all request, every grant accepted
            req = {N{1'b1}}; en = 1'b1; seen = 0;
            for (j = 0; j < N; j = j + 1) begin
                #1 seen = seen | grant;
                @(posedge clk); #1;
            end
            checks = checks + 1;
            if (seen !== {N{1'b1}}) begin
                fails = fails + 1;
                $display("fairness: granted set %b after %0d cycles", seen, N);
            end
        end
        if (stim) begin
            $display("STIM arb_rr: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL arb_rr: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "arb_rr_tb failed");
        end
        $display("PASS arb_rr: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
