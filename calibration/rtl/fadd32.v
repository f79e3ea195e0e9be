// IEEE-754 binary32 adder, round to nearest even, full subnormal support,
// canonical quiet NaN (0x7fc00000) for every NaN result. Registered output.
//
// Algorithm (single path): order the operands by magnitude (the bit patterns
// of finite binary32 magnitudes order like integers), align the smaller
// significand right by the exponent difference with three guard bits and the
// shifted-out bits jammed into the least significant bit as a sticky bit,
// add or subtract, then normalise/round/pack in fp_round_pack. Exact
// cancellation gives +0; (-0) + (-0) gives -0.
module fadd32 (
    input             clk,
    input      [31:0] a,
    input      [31:0] b,
    output reg [31:0] y
);
    wire [31:0] r;
    fadd32_core u_core (.a(a), .b(b), .y(r));
    always @(posedge clk) y <= r;
endmodule

module fadd32_core (
    input  [31:0] a,
    input  [31:0] b,
    output [31:0] y
);
    wire       a_gt  = (a[30:0] >= b[30:0]);
    wire [31:0] x    = a_gt ? a : b;   // larger magnitude
    wire [31:0] s    = a_gt ? b : a;   // smaller magnitude

    wire [7:0]  ex   = x[30:23];
    wire [7:0]  es   = s[30:23];
    wire [23:0] mx   = {ex != 8'd0, x[22:0]};
    wire [23:0] ms   = {es != 8'd0, s[22:0]};
    wire [7:0]  ex_i = (ex == 8'd0) ? 8'd1 : ex;
    wire [7:0]  es_i = (es == 8'd0) ? 8'd1 : es;
    wire [7:0]  d    = ex_i - es_i;
    wire [4:0]  dc   = (d > 8'd31) ? 5'd31 : d[4:0];

    // smaller significand with 3 guard bits, shifted right with sticky
    wire [58:0] wide = {ms, 3'b000, 32'd0} >> dc;
    wire [26:0] ysh  = wide[58:32] | {26'd0, |wide[31:0]};
    wire [27:0] xe   = {1'b0, mx, 3'b000};
    wire [27:0] ye   = {1'b0, ysh};
    wire        sub  = x[31] ^ s[31];
    wire [27:0] sum  = sub ? (xe - ye) : (xe + ye);

    wire        zero_sum  = (sum == 28'd0);
    wire        sign      = zero_sum ? (a[31] & b[31]) : x[31];
    wire signed [11:0] e1 = {4'd0, ex_i} + 12'sd1;

    wire [31:0] rounded;
    fp_round_pack #(.SW(28), .EW(12)) u_rp (
        .sign(sign), .exp(e1), .sig(sum), .sticky_in(1'b0), .result(rounded));

    wire nan_a = (a[30:23] == 8'hff) && (a[22:0] != 23'd0);
    wire nan_b = (b[30:23] == 8'hff) && (b[22:0] != 23'd0);
    wire inf_a = (a[30:23] == 8'hff) && (a[22:0] == 23'd0);
    wire inf_b = (b[30:23] == 8'hff) && (b[22:0] == 23'd0);
    wire nan   = nan_a | nan_b | (inf_a & inf_b & (a[31] ^ b[31]));

    assign y = nan   ? 32'h7fc00000 :
               inf_a ? a :
               inf_b ? b :
               rounded;
endmodule
