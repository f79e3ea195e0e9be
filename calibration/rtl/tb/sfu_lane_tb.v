// Testbench for sfu_lane.
// Check mode (default): +vec=FILE +n=COUNT, FILE holds COUNT lines of 34 hex
//   digits {op(8 bits), x, lo, hi, ref}. A NaN `lo` expects a NaN; otherwise
//   the result must have lo's sign and a magnitude between lo and hi (the
//   generator derives them from the lane's relative error bound and its
//   flush-to-zero convention). The largest distance in ulps from `ref` (the
//   correctly rounded value) is reported per operation.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random op and random positive
//   normal operands (exponent 127 +- 15) every cycle.
// Either mode: +vcd=FILE [+vcddepth=D] dumps sfu_lane_tb.dut.
module sfu_lane_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter TBITS = 10;
    localparam NMAX = 65536;
    reg         clk = 1'b0;
    reg         op = 1'b0;
    reg  [31:0] x = 32'h3f800000;
    wire [31:0] y;
    sfu_lane #(.TBITS(TBITS)) dut (.clk(clk), .op(op), .x(x), .y(y));
    always #5 clk = ~clk;

    reg [135:0]     vec [0:NMAX-1];
    reg [8*512-1:0] fname, vcdfile;
    reg [7:0]       op8;
    reg [31:0]      lo, hi, rf, r;
    integer n, i, fails, cycles, seed, d;
    integer max_ulp [0:1];

    function is_nan(input [31:0] v);
        is_nan = (v[30:23] == 8'hff) && (v[22:0] != 23'd0);
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
                r = $random(seed);
                op = r[31];
                x = {1'b0, 8'd127 + {{3{r[27]}}, r[27:23]}, r[22:0]};
                @(posedge clk); #1;
            end
            $display("STIM sfu_lane: %0d cycles", cycles);
            $finish;
        end
        if (!$value$plusargs("vec=%s", fname)) $fatal(1, "sfu_lane_tb: +vec=FILE required");
        if (!$value$plusargs("n=%d", n)) $fatal(1, "sfu_lane_tb: +n=COUNT required");
        if (n < 1 || n > NMAX) $fatal(1, "sfu_lane_tb: +n out of range");
        $readmemh(fname, vec, 0, n - 1);
        fails = 0; max_ulp[0] = 0; max_ulp[1] = 0;
        for (i = 0; i < n; i = i + 1) begin
            {op8, x, lo, hi, rf} = vec[i];
            op = op8[0];
            @(posedge clk); #1;
            if (is_nan(lo) ? !is_nan(y)
                           : (y[31] !== lo[31] || y[30:0] < lo[30:0] || y[30:0] > hi[30:0])) begin
                fails = fails + 1;
                if (fails <= 10)
                    $display("mismatch %0d: op %0d x %h -> %h, allowed %h..%h (ref %h)",
                             i, op, x, y, lo, hi, rf);
            end else if (!is_nan(lo) && lo != hi && rf[30:0] != 31'd0) begin
                d = (y[30:0] > rf[30:0]) ? y[30:0] - rf[30:0] : rf[30:0] - y[30:0];
                if (d > max_ulp[op]) max_ulp[op] = d;
            end
        end
        if (fails != 0) begin
            $display("FAIL sfu_lane: %0d of %0d vectors wrong", fails, n);
            $fatal(1, "sfu_lane_tb failed");
        end
        $display("PASS sfu_lane: %0d/%0d vectors (TBITS=%0d, max error rcp %0d ulp, rsqrt %0d ulp)",
                 n, n, TBITS, max_ulp[0], max_ulp[1]);
        $finish;
    end
endmodule
