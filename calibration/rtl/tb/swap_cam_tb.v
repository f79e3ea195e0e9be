// Testbench for swap_cam.
// Check mode (default): +cycles=N (default 3000) random cycles of writes
// (probability 1/2, 1 in 8 invalidating), occasional clears, and lookups
// whose key is, half the time, an original id known to be stored; hit,
// mapped and slot are checked against a behavioural model.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: one lookup every cycle with a
// random register id and, on 1 cycle in 16, one entry write (the table is
// filled once per kernel and read on every access).
// Either mode: +vcd=FILE [+vcddepth=D] dumps swap_cam_tb.dut.
module swap_cam_tb;
    integer vcddepth;
    parameter N = 4;
    localparam E  = 2 * N;
    localparam AW = (E <= 2) ? 1 : $clog2(E);
    reg clk = 1'b0, rst = 1'b1;
    reg  [5:0]    key = 0, worig = 0, wmapped = 0;
    reg  [AW-1:0] waddr = 0;
    reg           we = 0, wvalid = 0, clear = 0;
    wire          hit;
    wire [5:0]    mapped, slot;
    swap_cam #(.N(N)) dut (.clk(clk), .rst(rst), .key(key), .hit(hit), .mapped(mapped),
        .slot(slot), .we(we), .waddr(waddr), .worig(worig), .wmapped(wmapped),
        .wvalid(wvalid), .clear(clear));
    always #5 clk = ~clk;

    reg [5:0]   mo [0:E-1];
    reg [5:0]   mm [0:E-1];
    reg [E-1:0] mv;
    reg         whit;
    reg [5:0]   wmap, wslot;
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
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; mv = 0;
        for (e = 0; e < E; e = e + 1) begin mo[e] = 0; mm[e] = 0; end
        @(posedge clk); #1 rst = 1'b0;
        for (i = 0; i < cycles; i = i + 1) begin
            we = stim ? (($unsigned($random(seed)) % 16) == 0) : $random(seed);
            waddr = $unsigned($random(seed)) % E;
            worig = $unsigned($random(seed)) % 64;
            wmapped = $unsigned($random(seed)) % 64;
            wvalid = stim ? 1'b1 : (($unsigned($random(seed)) % 8) != 0);
            clear = !stim && (($unsigned($random(seed)) % 64) == 0);
            key = (!stim && ($random(seed) & 1)) ? mo[$unsigned($random(seed)) % E]
                                                 : $unsigned($random(seed)) % 64;
            #1;
            whit = 1'b0; wmap = 6'd0;
            for (e = 0; e < E; e = e + 1)
                if (mv[e] && mo[e] == key) begin
                    whit = 1'b1;
                    wmap = wmap | mm[e];
                end
            wslot = whit ? wmap : key;
            if (!stim) begin
                checks = checks + 1;
                if (hit !== whit || mapped !== wmap || slot !== wslot) begin
                    fails = fails + 1;
                    if (fails <= 10) $display("mismatch cycle %0d key %0d: hit %b mapped %0d slot %0d, expected %b %0d %0d",
                        i, key, hit, mapped, slot, whit, wmap, wslot);
                end
            end
            @(posedge clk);
            if (we) begin
                mo[waddr] = worig;
                mm[waddr] = wmapped;
                mv[waddr] = wvalid;
            end
            if (clear) mv = 0;
            #1;
        end
        if (stim) begin
            $display("STIM swap_cam: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL swap_cam: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "swap_cam_tb failed");
        end
        $display("PASS swap_cam: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
