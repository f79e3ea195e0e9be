// One tensor-core dot-product slice: y = c + a0*b0 + a1*b1 + a2*b2 + a3*b3
// with IEEE-754 binary16 a_i, b_i (full subnormal support), a binary32
// accumulator c and a binary32 result. Registered output.
//
// Rounding (stated, not IEEE-exact for the five-term sum):
// - each product a_i*b_i is exact (22-bit significand product);
// - every term (the four products and c) is placed in an F-bit window whose
//   top is the largest term "anchor": a product's anchor is ea+eb-28 (the
//   weight just above its 22-bit significand product, ea/eb the effective
//   biased exponents, 1 for subnormals), c's is ec-126; zero terms take no
//   part in the maximum. Bits a term loses by the right shift into the
//   window are discarded (each term truncated toward zero), so the window
//   keeps F bits below the largest anchor (F = 27: 24 significand bits and 3
//   guard bits of a binary32 result);
// - the signed sum of the five aligned terms is exact and is rounded once to
//   binary32, round to nearest even, with gradual underflow and overflow to
//   infinity (fp_round_pack).
// The result is the correctly rounded sum whenever no term loses bits in the
// alignment. An exact zero sum is +0, except that a sum of zero terms that
// are all negative zeros is -0. NaN inputs, inf*0 and inf-inf give the
// canonical quiet NaN 0x7fc00000; otherwise an infinite term gives an
// infinity of its sign.
//
// This is the alignment-with-truncation scheme observed on GPU tensor cores
// (Fasi, Higham, Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor
// cores", PeerJ Comput. Sci. 7:e330, 2021). The Rust reference model the
// testbench's vectors come from is calibration::rtl::vectors::hdot4::hdot4_reference.
module hdot4_f32acc (
    input             clk,
    input      [63:0] a,   // a3..a0, binary16 each (a0 in bits 15:0)
    input      [63:0] b,   // b3..b0
    input      [31:0] c,   // binary32 accumulator
    output reg [31:0] y
);
    wire [31:0] r;
    hdot4_f32acc_core u_core (.a(a), .b(b), .c(c), .y(r));
    always @(posedge clk) y <= r;
endmodule

// One exact binary16 product with its anchor, sign and special flags.
module hdot_f16_mul (
    input  [15:0] a,
    input  [15:0] b,
    output [21:0] p,       // significand product
    output [8:0]  anchor,  // ea + eb + 98 (0 for a zero product)
    output        sign,
    output        nan,     // NaN operand or inf * 0
    output        inf      // infinite, not NaN
);
    wire [4:0]  ea   = a[14:10];
    wire [4:0]  eb   = b[14:10];
    wire [10:0] ma   = {ea != 5'd0, a[9:0]};
    wire [10:0] mb   = {eb != 5'd0, b[9:0]};
    wire [4:0]  ea_i = (ea == 5'd0) ? 5'd1 : ea;
    wire [4:0]  eb_i = (eb == 5'd0) ? 5'd1 : eb;
    assign p    = ma * mb;
    wire   pz   = (p == 22'd0);
    assign anchor = pz ? 9'd0 : ({4'd0, ea_i} + {4'd0, eb_i} + 9'd98);
    assign sign = a[15] ^ b[15];
    wire nan_a  = (ea == 5'h1f) && (a[9:0] != 10'd0);
    wire nan_b  = (eb == 5'h1f) && (b[9:0] != 10'd0);
    wire inf_a  = (ea == 5'h1f) && (a[9:0] == 10'd0);
    wire inf_b  = (eb == 5'h1f) && (b[9:0] == 10'd0);
    wire zero_a = (a[14:0] == 15'd0);
    wire zero_b = (b[14:0] == 15'd0);
    assign nan  = nan_a | nan_b | (inf_a & zero_b) | (inf_b & zero_a);
    assign inf  = (inf_a | inf_b) & ~nan;
endmodule

module hdot4_f32acc_core (
    input  [63:0] a,
    input  [63:0] b,
    input  [31:0] c,
    output [31:0] y
);
    localparam F  = 27;        // window bits below the largest anchor
    localparam SW = F + 3;     // magnitude of a five-term sum

    // products
    wire [21:0] p0, p1, p2, p3;
    wire [8:0]  x0, x1, x2, x3;
    wire        s0, s1, s2, s3, n0, n1, n2, n3, i0, i1, i2, i3;
    hdot_f16_mul u_m0 (.a(a[15:0]),  .b(b[15:0]),  .p(p0), .anchor(x0), .sign(s0), .nan(n0), .inf(i0));
    hdot_f16_mul u_m1 (.a(a[31:16]), .b(b[31:16]), .p(p1), .anchor(x1), .sign(s1), .nan(n1), .inf(i1));
    hdot_f16_mul u_m2 (.a(a[47:32]), .b(b[47:32]), .p(p2), .anchor(x2), .sign(s2), .nan(n2), .inf(i2));
    hdot_f16_mul u_m3 (.a(a[63:48]), .b(b[63:48]), .p(p3), .anchor(x3), .sign(s3), .nan(n3), .inf(i3));

    // accumulator
    wire [7:0]  ec   = c[30:23];
    wire [23:0] mc   = {ec != 8'd0, c[22:0]};
    wire [7:0]  ec_i = (ec == 8'd0) ? 8'd1 : ec;
    wire        cz   = (mc == 24'd0);
    wire [8:0]  xc   = cz ? 9'd0 : {1'b0, ec_i};
    wire        sc   = c[31];
    wire        nan_c = (ec == 8'hff) && (c[22:0] != 23'd0);
    wire        inf_c = (ec == 8'hff) && (c[22:0] == 23'd0);

    // largest anchor
    wire [8:0] m01 = (x0 > x1) ? x0 : x1;
    wire [8:0] m23 = (x2 > x3) ? x2 : x3;
    wire [8:0] m03 = (m01 > m23) ? m01 : m23;
    wire [8:0] e   = (m03 > xc) ? m03 : xc;

    // alignment: each term at the top of the window, shifted right by its
    // anchor's distance from the largest (clamped to F: the term vanishes)
    wire [8:0] d0 = e - x0, d1 = e - x1, d2 = e - x2, d3 = e - x3, dc = e - xc;
    wire [4:0] k0 = (d0 > F) ? F : d0[4:0];
    wire [4:0] k1 = (d1 > F) ? F : d1[4:0];
    wire [4:0] k2 = (d2 > F) ? F : d2[4:0];
    wire [4:0] k3 = (d3 > F) ? F : d3[4:0];
    wire [4:0] kc = (dc > F) ? F : dc[4:0];
    wire [F-1:0] t0 = {p0, {(F - 22){1'b0}}} >> k0;
    wire [F-1:0] t1 = {p1, {(F - 22){1'b0}}} >> k1;
    wire [F-1:0] t2 = {p2, {(F - 22){1'b0}}} >> k2;
    wire [F-1:0] t3 = {p3, {(F - 22){1'b0}}} >> k3;
    wire [F-1:0] tc = {mc, {(F - 24){1'b0}}} >> kc;

    // signed sum (SW + 1 bits, two's complement)
    wire [SW:0] v0 = s0 ? -{4'd0, t0} : {4'd0, t0};
    wire [SW:0] v1 = s1 ? -{4'd0, t1} : {4'd0, t1};
    wire [SW:0] v2 = s2 ? -{4'd0, t2} : {4'd0, t2};
    wire [SW:0] v3 = s3 ? -{4'd0, t3} : {4'd0, t3};
    wire [SW:0] vc = sc ? -{4'd0, tc} : {4'd0, tc};
    wire [SW:0] sum = v0 + v1 + v2 + v3 + vc;
    wire        neg = sum[SW];
    wire [SW-1:0] mag = neg ? (~sum[SW-1:0] + 1'b1) : sum[SW-1:0];

    wire zero_sum = (mag == {SW{1'b0}});
    wire all_zero = (x0 == 9'd0) & (x1 == 9'd0) & (x2 == 9'd0) & (x3 == 9'd0) & cz;
    wire all_neg  = s0 & s1 & s2 & s3 & sc;
    wire sign     = zero_sum ? (all_zero & all_neg) : neg;

    // bit SW-1 of mag has weight 2^(e - 126 + 2) = 2^(exp - 127): exp = e + 3
    wire signed [11:0] ex = $signed({3'd0, e}) + 12'sd3;
    wire [31:0] rounded;
    fp_round_pack #(.SW(SW), .EW(12)) u_rp (
        .sign(sign), .exp(ex), .sig(mag), .sticky_in(1'b0), .result(rounded));

    // specials
    wire any_nan = n0 | n1 | n2 | n3 | nan_c;
    wire pos_inf = (i0 & ~s0) | (i1 & ~s1) | (i2 & ~s2) | (i3 & ~s3) | (inf_c & ~sc);
    wire neg_inf = (i0 & s0) | (i1 & s1) | (i2 & s2) | (i3 & s3) | (inf_c & sc);
    wire nan     = any_nan | (pos_inf & neg_inf);

    assign y = nan     ? 32'h7fc00000 :
               pos_inf ? 32'h7f800000 :
               neg_inf ? 32'hff800000 :
               rounded;
endmodule
