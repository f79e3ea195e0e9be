// Testbench for cam.
// Check mode (default): +cycles=N (default 3000) random cycles of writes
// (probability 1/2, 1 in 8 invalidating), occasional flushes, and searches
// whose key is, half the time, a word known to be stored; match lines and
// hit are checked against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: one search every cycle with
// a random key (half of them stored words) and a write on 1 cycle in 4.
// Either mode: +vcd=FILE [+vcddepth=D] dumps cam_tb.dut.
module cam_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter ENTRIES = 16;
    parameter WIDTH   = 32;
    localparam AW = (ENTRIES <= 2) ? 1 : $clog2(ENTRIES);
    reg clk = 1'b0, rst = 1'b1;
    reg  [WIDTH-1:0]   key = 0, wdata = 0;
    reg  [AW-1:0]      waddr = 0;
    reg                we = 0, wvalid = 0, flush = 0;
    wire [ENTRIES-1:0] match;
    wire               hit;
    cam #(.ENTRIES(ENTRIES), .WIDTH(WIDTH)) dut (.clk(clk), .rst(rst), .key(key), .match(match),
        .hit(hit), .we(we), .waddr(waddr), .wdata(wdata), .wvalid(wvalid), .flush(flush));
    always #5 clk = ~clk;

    reg [WIDTH-1:0]   mw [0:ENTRIES-1];
    reg [ENTRIES-1:0] mv, want;
    reg [8*512-1:0]   vcdfile;
    integer i, e, k, fails, checks, cycles, seed;
    reg stim;

    function [WIDTH-1:0] rnd;
        input integer dummy;
        begin
            rnd = 0;
            for (k = 0; k < WIDTH; k = k + 32) rnd = (rnd << 32) | $unsigned($random(seed));
            // small alphabet half the time so that duplicate entries occur
            if ($random(seed) & 1) rnd = rnd % 8;
        end
    endfunction

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; mv = 0;
        for (e = 0; e < ENTRIES; e = e + 1) mw[e] = 0;
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            we = stim ? (($unsigned($random(seed)) % 4) == 0) : $random(seed);
            waddr = $unsigned($random(seed)) % ENTRIES;
            wdata = rnd(0);
            wvalid = stim ? 1'b1 : (($unsigned($random(seed)) % 8) != 0);
            flush = !stim && (($unsigned($random(seed)) % 64) == 0);
            key = ($random(seed) & 1) ? mw[$unsigned($random(seed)) % ENTRIES] : rnd(0);
            #1;
            for (e = 0; e < ENTRIES; e = e + 1) want[e] = mv[e] && (mw[e] == key);
            if (!stim) begin
                checks = checks + 1;
                if (match !== want || hit !== (|want)) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d key %h: match %b hit %b, expected %b", i, key, match, hit, want);
                end
            end
            @(posedge clk);
            if (we) begin
                mw[waddr] = wdata;
                mv[waddr] = wvalid;
            end
            if (flush) mv = 0;
            #1;
        end
        if (stim) begin
            $display("STIM cam: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL cam: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "cam_tb failed");
        end
        $display("PASS cam: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
