// Testbench for crossbar.
// Check mode (default): +cycles=N (default 3000) random inputs and a random
// input per output (one-hot grant), every output checked against that input;
// every 7th cycle one output gets no grant and is checked to be 0.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random words on every input
// and a random one-hot grant per output every cycle (N words moved per cycle).
// Either mode: +vcd=FILE [+vcddepth=D] dumps crossbar_tb.dut.
module crossbar_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter N     = 4;
    parameter WIDTH = 32;
    localparam SW = (N <= 2) ? 1 : $clog2(N);
    reg  [N*WIDTH-1:0] in = 0;
    reg  [N*SW-1:0]    sel = 0;
    reg  [N*N-1:0]     grant = 0;
    reg  [N-1:0]       none = 0;
    wire [N*WIDTH-1:0] out;
    crossbar #(.N(N), .WIDTH(WIDTH)) dut (.in(in), .grant(grant), .out(out));

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
            none = 0;
            if (!stim && i % 7 == 6) none[$unsigned($random(seed)) % N] = 1'b1;
            for (o = 0; o < N; o = o + 1)
                for (k = 0; k < N; k = k + 1)
                    grant[o*N + k] = !none[o] && (sel[o*SW +: SW] == k);
            #10;
            if (!stim)
                for (o = 0; o < N; o = o + 1) begin
                    s = sel[o*SW +: SW];
                    checks = checks + 1;
                    if (out[o*WIDTH +: WIDTH] !== (none[o] ? {WIDTH{1'b0}} : in[s*WIDTH +: WIDTH])) begin
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
