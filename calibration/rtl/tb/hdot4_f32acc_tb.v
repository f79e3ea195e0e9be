// Testbench for hdot4_f32acc.
// Check mode (default): +vec=FILE +n=COUNT, FILE holds COUNT lines of 48 hex
//   digits {a3..a0, b3..b0, c, expected} (binary16 a, b; binary32 c and
//   result); expected NaN matches any NaN.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random operands every cycle
//   (binary16 with random sign and mantissa, exponent 15 +- 5; binary32
//   accumulator with exponent 127 +- 10).
// Either mode: +vcd=FILE [+vcddepth=D] dumps all signals of hdot4_f32acc_tb.dut.
module hdot4_f32acc_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    localparam NMAX = 65536;
    reg         clk = 1'b0;
    reg  [63:0] a = 64'd0, b = 64'd0;
    reg  [31:0] c = 32'd0;
    wire [31:0] y;
    hdot4_f32acc dut (.clk(clk), .a(a), .b(b), .c(c), .y(y));
    always #5 clk = ~clk;

    reg [191:0]  vec [0:NMAX-1];
    reg [8*512-1:0] fname, vcdfile;
    reg [31:0]   expv;
    integer n, i, k, fails, cycles, seed;

    function is_nan(input [31:0] v);
        is_nan = (v[30:23] == 8'hff) && (v[22:0] != 23'd0);
    endfunction

    function [15:0] rnd_half(input integer dummy);
        reg [31:0] r;
        reg [4:0]  e;
        begin
            r = $random(seed);
            e = 5'd10 + r[14:10] % 5'd11;
            rnd_half = {r[31], e, r[9:0]};
        end
    endfunction

    function [31:0] rnd_float(input integer dummy);
        reg [31:0] r;
        reg [7:0]  e;
        begin
            r = $random(seed);
            e = 8'd117 + r[30:23] % 8'd21;
            rnd_float = {r[31], e, r[22:0]};
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
                for (k = 0; k < 4; k = k + 1) begin
                    a[16*k +: 16] = rnd_half(0);
                    b[16*k +: 16] = rnd_half(0);
                end
                c = rnd_float(0);
                @(posedge clk); #1;
            end
            $display("STIM hdot4_f32acc: %0d cycles", cycles);
            $finish;
        end
        if (!$value$plusargs("vec=%s", fname)) $fatal(1, "hdot4_f32acc_tb: +vec=FILE required");
        if (!$value$plusargs("n=%d", n)) $fatal(1, "hdot4_f32acc_tb: +n=COUNT required");
        if (n < 1 || n > NMAX) $fatal(1, "hdot4_f32acc_tb: +n out of range");
        $readmemh(fname, vec, 0, n - 1);
        fails = 0;
        for (i = 0; i < n; i = i + 1) begin
            {a, b, c, expv} = vec[i];
            @(posedge clk); #1;
            if (is_nan(expv) ? !is_nan(y) : (y !== expv)) begin
                fails = fails + 1;
                if (fails <= 10)
                    $display("mismatch %0d: hdot4(%h, %h, %h) = %h, expected %h", i, a, b, c, y, expv);
            end
        end
        if (fails != 0) begin
            $display("FAIL hdot4_f32acc: %0d of %0d vectors wrong", fails, n);
            $fatal(1, "hdot4_f32acc_tb failed");
        end
        $display("PASS hdot4_f32acc: %0d/%0d vectors", n, n);
        $finish;
    end
endmodule
