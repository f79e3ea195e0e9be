// Testbench for crossbar.
// Check mode (default): +cycles=N (default 3000) random inputs and selects,
// every output checked against in[sel].
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random words on every input
// and a random select per output every cycle (N words moved per cycle).
// Either mode: +vcd=FILE [+vcddepth=D] dumps crossbar_tb.dut.
module crossbar_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter N     = 4;
    parameter WIDTH = 32;
    localparam SW = (N <= 2) ? 1 : $clog2(N);
    reg  [N*WIDTH-1:0] in = 0;
    reg  [N*SW-1:0]    sel = 0;
    wire [N*WIDTH-1:0] out;
    crossbar #(.N(N), .WIDTH(WIDTH)) dut (.in(in), .sel(sel), .out(out));

    reg [8*512-1:0] vcdfile;
    integer i, o, k, s, fails, checks, cycles, seed;
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
        fails = 0; checks = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            for (k = 0; k < N * WIDTH; k = k + 32) in = (in << 32) | $unsigned($random(seed));
            for (o = 0; o < N; o = o + 1) sel[o*SW +: SW] = $unsigned($random(seed)) % N;
            #10;
            if (!stim)
                for (o = 0; o < N; o = o + 1) begin
                    s = sel[o*SW +: SW];
                    checks = checks + 1;
                    if (out[o*WIDTH +: WIDTH] !== in[s*WIDTH +: WIDTH]) begin
                        fails = fails + 1;
                        if (fails <= 10) $display("mismatch cycle %0d out %0d sel %0d", i, o, s);
                    end
                end
        end
        if (stim) begin
            $display("STIM crossbar: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL crossbar: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "crossbar_tb failed");
        end
        $display("PASS crossbar: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
