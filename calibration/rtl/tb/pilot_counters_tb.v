// Testbench for pilot_counters.
// Check mode (default): +cycles=N (default 4000) random cycles of increments
// (probability 3/4, indices drawn from a few hot registers half the time so
// that counters saturate at small WIDTH, sometimes out of range), rare
// clears and a random read index; rd_data is checked every cycle against a
// behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: one increment every cycle of a
// random register index below NREGS (one pilot operand access per cycle)
// and a random read index.
// Either mode: +vcd=FILE [+vcddepth=D] dumps pilot_counters_tb.dut.
module pilot_counters_tb;
    integer vcddepth;
    parameter NREGS = 63;
    parameter WIDTH = 16;
    localparam IW = (NREGS <= 2) ? 1 : $clog2(NREGS);
    reg clk = 1'b0, rst = 1'b1;
    reg              clear = 0, inc = 0;
    reg  [IW-1:0]    idx = 0, rd_idx = 0;
    wire [WIDTH-1:0] rd_data;
    pilot_counters #(.NREGS(NREGS), .WIDTH(WIDTH)) dut (.clk(clk), .rst(rst), .clear(clear),
        .inc(inc), .idx(idx), .rd_idx(rd_idx), .rd_data(rd_data));
    always #5 clk = ~clk;

    reg [WIDTH-1:0] m [0:NREGS-1];
    reg [WIDTH-1:0] want;
    reg [8*512-1:0] vcdfile;
    integer i, e, fails, checks, cycles, seed;
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
        fails = 0; checks = 0;
        for (e = 0; e < NREGS; e = e + 1) m[e] = 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            inc = stim ? 1'b1 : (($unsigned($random(seed)) % 4) != 0);
            if (stim)
                idx = $unsigned($random(seed)) % NREGS;
            else if ($random(seed) & 1)
                idx = $unsigned($random(seed)) % 3;
            else
                idx = $unsigned($random(seed)) % (1 << IW);
            clear = !stim && (($unsigned($random(seed)) % 512) == 0);
            rd_idx = $unsigned($random(seed)) % (1 << IW);
            #1;
            want = (rd_idx < NREGS) ? m[rd_idx] : {WIDTH{1'b0}};
            if (!stim) begin
                checks = checks + 1;
                if (rd_data !== want) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d rd_idx %0d: %0d, expected %0d", i, rd_idx, rd_data, want);
                end
            end
            @(posedge clk);
            if (clear) begin
                for (e = 0; e < NREGS; e = e + 1) m[e] = 0;
            end else if (inc && idx < NREGS && m[idx] != {WIDTH{1'b1}}) begin
                m[idx] = m[idx] + 1;
            end
            #1;
        end
        if (stim) begin
            $display("STIM pilot_counters: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL pilot_counters: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "pilot_counters_tb failed");
        end
        $display("PASS pilot_counters: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
