// Testbench for tric_ctrl.
// Check mode (default): +cycles=N (default 4000) random cycles of wake
// requests (to a few hot entries half the time), releases of held entries,
// rare allocation changes and a random wake latency; the ON vector is checked
// every cycle against a behavioural model of the same rules.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: a wake request and a release
// of a random entry every cycle at latency 3, no allocation changes after
// every entry is allocated.
// Either mode: +vcd=FILE [+vcddepth=D] dumps tric_ctrl_tb.dut.
module tric_ctrl_tb;
    integer vcddepth;
    parameter N  = 16;
    parameter HW = 2;
    parameter LW = 2;
    localparam IW = (N <= 2) ? 1 : $clog2(N);
    reg clk = 1'b0, rst = 1'b1;
    reg           wake = 0, rel = 0, alloc = 0, alloc_on = 0;
    reg  [IW-1:0] wake_idx = 0, rel_idx = 0, alloc_idx = 0;
    reg  [LW-1:0] lat = 1;
    wire [N-1:0]  on;
    tric_ctrl #(.N(N), .HW(HW), .LW(LW)) dut (.clk(clk), .rst(rst), .wake(wake),
        .wake_idx(wake_idx), .rel(rel), .rel_idx(rel_idx), .alloc(alloc),
        .alloc_idx(alloc_idx), .alloc_on(alloc_on), .lat(lat), .on(on));
    always #5 clk = ~clk;

    integer mst [0:N-1];
    integer mh  [0:N-1];
    integer mw  [0:N-1];
    integer hmax, h, i, e, fails, checks, cycles, seed, up, r;
    reg [N-1:0] want;
    reg [8*512-1:0] vcdfile;
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
        hmax = (1 << HW) - 1;
        fails = 0; checks = 0;
        for (e = 0; e < N; e = e + 1) begin
            mst[e] = 0; mh[e] = 0; mw[e] = 0;
        end
        @(posedge clk); #1;
        rst = 0;
        // allocate every entry (OFF -> DROWSY), one per cycle
        for (e = 0; e < N; e = e + 1) begin
            alloc = 1; alloc_on = 1; alloc_idx = e;
            @(posedge clk); #1;
            mst[e] = 1; mh[e] = 0;
        end
        alloc = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            if (stim) begin
                lat = (3 < (1 << LW)) ? 3 : (1 << LW) - 1;
                wake = 1; wake_idx = $unsigned($random(seed)) % N;
                rel = 1; rel_idx = $unsigned($random(seed)) % N;
                alloc = 0;
            end else begin
                lat = $unsigned($random(seed)) % (1 << LW);
                wake = ($unsigned($random(seed)) % 4) != 0;
                wake_idx = ($unsigned($random(seed)) % 2) ? ($unsigned($random(seed)) % 3)
                                                          : ($unsigned($random(seed)) % N);
                rel = ($unsigned($random(seed)) % 4) != 0;
                rel_idx = $unsigned($random(seed)) % N;
                alloc = ($unsigned($random(seed)) % 64) == 0;
                alloc_idx = $unsigned($random(seed)) % N;
                alloc_on = $unsigned($random(seed)) % 2;
            end
            @(posedge clk);
            // behavioural model of the edge
            for (e = 0; e < N; e = e + 1) begin
                if (alloc && alloc_idx == e) begin
                    mst[e] = alloc_on ? 1 : 0;
                    mh[e] = 0;
                end else begin
                    up = (wake && wake_idx == e && mst[e] != 0 && mh[e] != hmax) ? 1 : 0;
                    r = (rel && rel_idx == e && mh[e] != 0) ? 1 : 0;
                    h = mh[e] + up - r;
                    mh[e] = h;
                    if (mst[e] == 1) begin
                        if (wake && wake_idx == e) begin
                            if (lat <= 1) mst[e] = 3;
                            else begin
                                mst[e] = 2; mw[e] = lat - 1;
                            end
                        end
                    end else if (mst[e] == 2) begin
                        if (mw[e] == 1) mst[e] = 3;
                        mw[e] = mw[e] - 1;
                    end else if (mst[e] == 3) begin
                        if (h == 0) mst[e] = 1;
                    end
                end
            end
            #1;
            for (e = 0; e < N; e = e + 1) want[e] = (mst[e] == 3);
            checks = checks + 1;
            if (on !== want) begin
                fails = fails + 1;
                if (fails < 5)
                    $display("cycle %0d: on %b, want %b", i, on, want);
            end
        end
        if (stim) begin
            $display("STIM tric_ctrl: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL tric_ctrl: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "tric_ctrl_tb failed");
        end
        $display("PASS tric_ctrl: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
