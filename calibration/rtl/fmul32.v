// IEEE-754 binary32 multiplier, round to nearest even, full subnormal
// support, canonical quiet NaN (0x7fc00000). Registered output.
//
// Algorithm: exact 24x24 significand product (48 bits, subnormal operands
// enter with their hidden bit 0 and exponent 1); the product's top bit has
// biased exponent ea+eb-126. fp_round_pack normalises (leading-zero count),
// denormalises on underflow with a sticky bit, rounds to nearest even and
// saturates to infinity on overflow.
module fmul32 (
    input             clk,
    input      [31:0] a,
    input      [31:0] b,
    output reg [31:0] y
);
    wire [31:0] r;
    fmul32_core u_core (.a(a), .b(b), .y(r));
    always @(posedge clk) y <= r;
endmodule

module fmul32_core (
    input  [31:0] a,
    input  [31:0] b,
    output [31:0] y
);
    wire [7:0]  ea   = a[30:23];
    wire [7:0]  eb   = b[30:23];
    wire [23:0] ma   = {ea != 8'd0, a[22:0]};
    wire [23:0] mb   = {eb != 8'd0, b[22:0]};
    wire [7:0]  ea_i = (ea == 8'd0) ? 8'd1 : ea;
    wire [7:0]  eb_i = (eb == 8'd0) ? 8'd1 : eb;
    wire        sign = a[31] ^ b[31];

    wire [47:0] prod = ma * mb;
    wire signed [11:0] ep = $signed({4'd0, ea_i}) + $signed({4'd0, eb_i}) - 12'sd126;

    wire [31:0] rounded;
    fp_round_pack #(.SW(48), .EW(12)) u_rp (
        .sign(sign), .exp(ep), .sig(prod), .sticky_in(1'b0), .result(rounded));

    wire nan_a  = (ea == 8'hff) && (a[22:0] != 23'd0);
    wire nan_b  = (eb == 8'hff) && (b[22:0] != 23'd0);
    wire inf_a  = (ea == 8'hff) && (a[22:0] == 23'd0);
    wire inf_b  = (eb == 8'hff) && (b[22:0] == 23'd0);
    wire zero_a = (a[30:0] == 31'd0);
    wire zero_b = (b[30:0] == 31'd0);
    wire nan    = nan_a | nan_b | (inf_a & zero_b) | (inf_b & zero_a);
    wire inf    = inf_a | inf_b;

    assign y = nan ? 32'h7fc00000 :
               inf ? {sign, 8'hff, 23'd0} :
               rounded;
endmodule
