// Testbench for alu32.
// Check mode (default): random operations on random operands (+cycles=N,
// default 4000) checked against a behavioural model written here, plus, with
// +vec=FILE +n=COUNT (WIDTH=32 only), COUNT lines of 26 hex digits
// {op(8 bits), a, b, expected} computed independently.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: a random op and random
// operands every cycle, no checks.
// Either mode: +vcd=FILE [+vcddepth=D] dumps alu32_tb.dut.
module alu32_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter WIDTH = 32;
    localparam NMAX = 65536;
    localparam SHW = (WIDTH <= 2) ? 1 : $clog2(WIDTH);
    reg              clk = 1'b0;
    reg  [3:0]       op = 4'd0;
    reg  [WIDTH-1:0] a = 0, b = 0;
    wire [WIDTH-1:0] y;
    alu32 #(.WIDTH(WIDTH)) dut (.clk(clk), .op(op), .a(a), .b(b), .y(y));
    always #5 clk = ~clk;

    reg [103:0]     vec [0:NMAX-1];
    reg [8*512-1:0] fname, vcdfile;
    reg [7:0]       op8;
    reg [31:0]      ea, eb, ev;
    reg [WIDTH-1:0] expv;
    integer n, i, fails, checks, cycles, seed, k;
    reg stim;

    function [WIDTH-1:0] rnd;
        input integer dummy;
        begin
            rnd = 0;
            for (k = 0; k < WIDTH; k = k + 32) rnd = (rnd << 32) | $unsigned($random(seed));
            // bias some operands towards small / equal values for compares and shifts
            case ($unsigned($random(seed)) % 8)
                0: rnd = rnd % 64;
                1: rnd = {WIDTH{1'b1}} - (rnd % 64);
                default: ;
            endcase
        end
    endfunction

    function [WIDTH-1:0] model;
        input [3:0] o;
        input [WIDTH-1:0] x, z;
        reg lts, ltu;
        begin
            lts = $signed(x) < $signed(z);
            ltu = x < z;
            case (o)
                0: model = x + z;
                1: model = x - z;
                2: model = x & z;
                3: model = x | z;
                4: model = x ^ z;
                5: model = (z[SHW-1:0] >= WIDTH) ? 0 : x << z[SHW-1:0];
                6: model = (z[SHW-1:0] >= WIDTH) ? 0 : x >> z[SHW-1:0];
                7: if (z[SHW-1:0] >= WIDTH) model = {WIDTH{x[WIDTH-1]}};
                   else model = $signed(x) >>> z[SHW-1:0];
                8: model = lts;
                9: model = ltu;
                10: model = lts ? x : z;
                11: model = lts ? z : x;
                12: model = ltu ? x : z;
                13: model = ltu ? z : x;
                default: model = 0;
            endcase
        end
    endfunction

    task check;
        input [WIDTH-1:0] want;
        begin
            checks = checks + 1;
            if (y !== want) begin
                fails = fails + 1;
                if (fails <= 10)
                    $display("mismatch: op %0d a %h b %h -> %h, expected %h", op, a, b, y, want);
            end
        end
    endtask

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 4000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            op = $unsigned($random(seed)) % 14;
            a = rnd(0); b = rnd(0);
            if (!stim && ($unsigned($random(seed)) % 16 == 0)) b = a;
            expv = model(op, a, b);
            @(posedge clk); #1;
            if (!stim) check(expv);
        end
        if (stim) begin
            $display("STIM alu32: %0d cycles", cycles);
            $finish;
        end
        if ($value$plusargs("vec=%s", fname)) begin
            if (WIDTH != 32) $fatal(1, "alu32_tb: +vec needs WIDTH=32");
            if (!$value$plusargs("n=%d", n)) $fatal(1, "alu32_tb: +n=COUNT required");
            if (n < 1 || n > NMAX) $fatal(1, "alu32_tb: +n out of range");
            $readmemh(fname, vec, 0, n - 1);
            for (i = 0; i < n; i = i + 1) begin
                {op8, ea, eb, ev} = vec[i];
                op = op8[3:0]; a = ea; b = eb;
                @(posedge clk); #1;
                check(ev);
            end
        end
        if (fails != 0) begin
            $display("FAIL alu32: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "alu32_tb failed");
        end
        $display("PASS alu32: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
