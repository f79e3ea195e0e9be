// Testbench for imul32.
// Check mode (default): random operands and signedness modes (+cycles=N,
// default 4000) checked against a behavioural model, plus, with +vec=FILE
// +n=COUNT (WIDTH=32 only), COUNT lines of 34 hex digits
// {mode(8 bits: bit0 a_signed, bit1 b_signed), a, b, lo, hi} computed
// independently.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random operands every cycle.
// Either mode: +vcd=FILE [+vcddepth=D] dumps imul32_tb.dut.
module imul32_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter WIDTH = 32;
    localparam NMAX = 65536;
    reg              clk = 1'b0;
    reg              as = 1'b0, bs = 1'b0;
    reg  [WIDTH-1:0] a = 0, b = 0;
    wire [WIDTH-1:0] lo, hi;
    imul32 #(.WIDTH(WIDTH)) dut (.clk(clk), .a_signed(as), .b_signed(bs), .a(a), .b(b), .lo(lo), .hi(hi));
    always #5 clk = ~clk;

    reg [135:0]     vec [0:NMAX-1];
    reg [8*512-1:0] fname, vcdfile;
    reg [7:0]       md;
    reg [31:0]      ea, eb, elo, ehi;
    reg [2*WIDTH-1:0] p;
    reg [2*WIDTH+1:0] px;
    integer n, i, fails, checks, cycles, seed, k;
    reg stim;

    function [WIDTH-1:0] rnd;
        input integer dummy;
        begin
            rnd = 0;
            for (k = 0; k < WIDTH; k = k + 32) rnd = (rnd << 32) | $unsigned($random(seed));
            case ($unsigned($random(seed)) % 8)
                0: rnd = rnd % 16;
                1: rnd = {WIDTH{1'b1}} - (rnd % 16);
                2: rnd = {1'b1, {(WIDTH - 1){1'b0}}} + (rnd % 4);
                default: ;
            endcase
        end
    endfunction

    task check;
        input [WIDTH-1:0] wlo, whi;
        begin
            checks = checks + 1;
            if (lo !== wlo || hi !== whi) begin
                fails = fails + 1;
                if (fails <= 10)
                    $display("mismatch: %b%b %h * %h -> %h:%h, expected %h:%h", bs, as, a, b, hi, lo, whi, wlo);
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
            {bs, as} = $random(seed);
            a = rnd(0); b = rnd(0);
            // model: sign-extend each operand per its mode, multiply in 2W+2 bits
            px = {{(WIDTH + 2){as & a[WIDTH-1]}}, a} * {{(WIDTH + 2){bs & b[WIDTH-1]}}, b};
            p = px[2*WIDTH-1:0];
            @(posedge clk); #1;
            if (!stim) check(p[WIDTH-1:0], p[2*WIDTH-1:WIDTH]);
        end
        if (stim) begin
            $display("STIM imul32: %0d cycles", cycles);
            $finish;
        end
        if ($value$plusargs("vec=%s", fname)) begin
            if (WIDTH != 32) $fatal(1, "imul32_tb: +vec needs WIDTH=32");
            if (!$value$plusargs("n=%d", n)) $fatal(1, "imul32_tb: +n=COUNT required");
            if (n < 1 || n > NMAX) $fatal(1, "imul32_tb: +n out of range");
            $readmemh(fname, vec, 0, n - 1);
            for (i = 0; i < n; i = i + 1) begin
                {md, ea, eb, elo, ehi} = vec[i];
                as = md[0]; bs = md[1]; a = ea; b = eb;
                @(posedge clk); #1;
                check(elo, ehi);
            end
        end
        if (fails != 0) begin
            $display("FAIL imul32: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "imul32_tb failed");
        end
        $display("PASS imul32: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
