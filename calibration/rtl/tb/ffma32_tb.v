// Testbench for ffma32.
// Check mode (default): +vec=FILE +n=COUNT, FILE holds COUNT lines of 32 hex
//   digits {a, b, c, expected}; expected NaN matches any NaN.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random operands every cycle
//   (random sign and mantissa, exponent 127 +- 15).
// Either mode: +vcd=FILE [+vcddepth=D] dumps all signals of ffma32_tb.dut.
module ffma32_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    localparam NMAX = 65536;
    reg         clk = 1'b0;
    reg  [31:0] a = 32'd0, b = 32'd0, c = 32'd0;
    wire [31:0] y;
    ffma32 dut (.clk(clk), .a(a), .b(b), .c(c), .y(y));
    always #5 clk = ~clk;

    reg [127:0]  vec [0:NMAX-1];
    reg [8*512-1:0] fname, vcdfile;
    reg [31:0]   expv;
    integer n, i, fails, cycles, seed;

    function is_nan(input [31:0] v);
        is_nan = (v[30:23] == 8'hff) && (v[22:0] != 23'd0);
    endfunction

    function [31:0] rnd_float(input integer dummy);
        reg [31:0] r;
        begin
            r = $random(seed);
            rnd_float = {r[31], 8'd127 + {{3{r[27]}}, r[27:23]}, r[22:0]};
        end
    endfunction

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if ($test$plusargs("stim")) begin
            if (!$value$plusargs("cycles=%d", cycles)) cycles = 1000;
            for (i = 0; i < cycles; i = i + 1) begin
                a = rnd_float(0); b = rnd_float(0); c = rnd_float(0);
                @(posedge clk); #1;
            end
            $display("STIM ffma32: %0d cycles", cycles);
            $finish;
        end
        if (!$value$plusargs("vec=%s", fname)) $fatal(1, "ffma32_tb: +vec=FILE required");
        if (!$value$plusargs("n=%d", n)) $fatal(1, "ffma32_tb: +n=COUNT required");
        if (n < 1 || n > NMAX) $fatal(1, "ffma32_tb: +n out of range");
        $readmemh(fname, vec, 0, n - 1);
        fails = 0;
        for (i = 0; i < n; i = i + 1) begin
            {a, b, c, expv} = vec[i];
            @(posedge clk); #1;
            if (is_nan(expv) ? !is_nan(y) : (y !== expv)) begin
                fails = fails + 1;
                if (fails <= 10)
                    $display("mismatch %0d: fma(%h, %h, %h) = %h, expected %h", i, a, b, c, y, expv);
            end
        end
        if (fails != 0) begin
            $display("FAIL ffma32: %0d of %0d vectors wrong", fails, n);
            $fatal(1, "ffma32_tb failed");
        end
        $display("PASS ffma32: %0d/%0d vectors", n, n);
        $finish;
    end
endmodule
