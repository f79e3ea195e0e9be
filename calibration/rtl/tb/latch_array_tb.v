// Testbench for latch_array.
// Check mode (default): +cycles=N (default 3000) random cycles; each write
// port writes with probability 1/2 to a random entry, each read port reads a
// random entry; read data is checked against a behavioural model (writes
// visible one cycle later than in flop_array; highest-numbered port wins).
// Stimulus mode: +stim [+cycles=N] [+seed=S]: every read and write port is
// active every cycle with random addresses and data (R+W accesses/cycle).
// Either mode: +vcd=FILE [+vcddepth=D] dumps latch_array_tb.dut.
module latch_array_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter ENTRIES = 16;
    parameter WIDTH   = 32;
    parameter RPORTS  = 2;
    parameter WPORTS  = 1;
    localparam LAT = 1;            // extra write-to-read latency of the DUT
    localparam AW = (ENTRIES <= 2) ? 1 : $clog2(ENTRIES);
    reg clk = 1'b0;
    reg  [RPORTS*AW-1:0]    raddr = 0;
    wire [RPORTS*WIDTH-1:0] rdata;
    reg  [WPORTS-1:0]       we = 0;
    reg  [WPORTS*AW-1:0]    waddr = 0;
    reg  [WPORTS*WIDTH-1:0] wdata = 0;
    latch_array #(.ENTRIES(ENTRIES), .WIDTH(WIDTH), .RPORTS(RPORTS), .WPORTS(WPORTS)) dut (
        .clk(clk), .raddr(raddr), .rdata(rdata), .we(we), .waddr(waddr), .wdata(wdata));
    always #5 clk = ~clk;

    reg [WIDTH-1:0] mdl [0:ENTRIES-1];
    reg [WPORTS-1:0]       p_we;
    reg [WPORTS*AW-1:0]    p_waddr;
    reg [WPORTS*WIDTH-1:0] p_wdata;
    reg [8*512-1:0] vcdfile;
    integer i, p, k, fails, checks, cycles, seed;
    reg stim;

    function [WIDTH-1:0] rnd;
        input integer dummy;
        begin
            rnd = 0;
            for (k = 0; k < WIDTH; k = k + 32) rnd = (rnd << 32) | $unsigned($random(seed));
        end
    endfunction

    task apply_writes;
        input [WPORTS-1:0]       w_en;
        input [WPORTS*AW-1:0]    w_addr;
        input [WPORTS*WIDTH-1:0] w_data;
        begin
            for (p = 0; p < WPORTS; p = p + 1)
                if (w_en[p]) mdl[w_addr[p*AW +: AW]] = w_data[p*WIDTH +: WIDTH];
        end
    endtask

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 3000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0; p_we = 0; p_waddr = 0; p_wdata = 0;
        @(posedge clk); #1;
        for (i = 0; i < cycles; i = i + 1) begin
            for (p = 0; p < WPORTS; p = p + 1) begin
                we[p] = stim ? 1'b1 : $random(seed);
                waddr[p*AW +: AW] = $unsigned($random(seed)) % ENTRIES;
                wdata[p*WIDTH +: WIDTH] = rnd(0);
            end
            for (p = 0; p < RPORTS; p = p + 1)
                raddr[p*AW +: AW] = $unsigned($random(seed)) % ENTRIES;
            #1;
            if (!stim)
                for (p = 0; p < RPORTS; p = p + 1) begin
                    checks = checks + 1;
                    if (rdata[p*WIDTH +: WIDTH] !== mdl[raddr[p*AW +: AW]]) begin
                        fails = fails + 1;
                        if (fails <= 10)
                            $display("mismatch cycle %0d port %0d addr %0d: %h, expected %h", i, p,
                                     raddr[p*AW +: AW], rdata[p*WIDTH +: WIDTH], mdl[raddr[p*AW +: AW]]);
                    end
                end
            @(posedge clk);
            if (LAT == 0) apply_writes(we, waddr, wdata);
            else begin
                apply_writes(p_we, p_waddr, p_wdata);
                p_we = we; p_waddr = waddr; p_wdata = wdata;
            end
            #1;
        end
        if (stim) begin
            $display("STIM latch_array: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL latch_array: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "latch_array_tb failed");
        end
        $display("PASS latch_array: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
