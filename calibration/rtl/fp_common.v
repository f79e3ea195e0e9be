// Shared IEEE-754 binary32 building blocks: leading-zero counter and the
// normalise / round-to-nearest-even / pack stage used by fadd32, fmul32 and
// ffma32. Subnormals are fully supported (gradual underflow, no flush to zero).
// Verilog-2005, synthesisable, combinational.

// Leading-zero count of a W-bit vector; all-zero input gives W.
module fp_lzc #(
    parameter W = 24,
    parameter LW = 5
) (
    input  [W-1:0]  x,
    output [LW-1:0] cnt
);
    reg [LW-1:0] c;
    integer i;
    always @* begin
        c = W[LW-1:0];
        for (i = 0; i < W; i = i + 1)
            if (x[i]) c = W - 1 - i;
    end
    assign cnt = c;
endmodule

// Normalise, round to nearest even and pack a binary32 result.
//
// The exact (or sticky-jammed) magnitude is sig * 2^(exp - 127 - (SW-1)):
// bit SW-1 of `sig` has weight 2^(exp-127), so `exp` is the biased exponent
// of the most significant bit position. `sticky_in` ORs extra discarded bits
// below bit 0. The stage shifts left by the leading-zero count while the
// exponent stays >= 1; if the exponent is below 1 it shifts right (gradual
// underflow) collecting a sticky bit. It then keeps 24 bits, rounds to
// nearest even using the round bit and sticky bits, renormalises on mantissa
// carry, and encodes subnormals (exponent field 0) and overflow (infinity).
// A zero `sig` (with sticky clear) gives a zero of sign `sign`.
module fp_round_pack #(
    parameter SW = 28,
    parameter EW = 12
) (
    input                 sign,
    input  signed [EW-1:0] exp,
    input  [SW-1:0]       sig,
    input                 sticky_in,
    output [31:0]         result
);
    localparam LW = $clog2(SW + 1);

    wire [LW-1:0] lz;
    fp_lzc #(.W(SW), .LW(LW)) u_lzc (.x(sig), .cnt(lz));

    wire signed [EW:0] exp_x  = {exp[EW-1], exp};
    wire signed [EW:0] lz_s   = {{(EW + 1 - LW){1'b0}}, lz};
    wire signed [EW:0] e_mlz  = exp_x - lz_s;
    wire               e_pos  = (exp_x >= 1);
    wire               lz_ok  = (e_mlz >= 1);
    // left shift amount when exp >= 1
    wire signed [EW:0] lsh_s  = lz_ok ? lz_s : (exp_x - 1);
    wire [LW-1:0]      lsh    = lsh_s[LW-1:0];
    // right shift amount when exp < 1 (clamped to SW+1)
    wire signed [EW:0] rsh_s  = 1 - exp_x;
    wire [LW:0]        rsh    = (rsh_s > SW + 1) ? (SW + 1) : rsh_s[LW:0];

    wire [SW-1:0]      sig_l  = sig << lsh;
    wire [2*SW+1:0]    wide_r = {sig, {(SW + 2){1'b0}}} >> rsh;
    wire [SW-1:0]      sig_r  = wide_r[2*SW+1:SW+2];
    wire               st_r   = |wide_r[SW+1:0];

    wire [SW-1:0]      n      = e_pos ? sig_l : sig_r;
    wire signed [EW:0] e_n    = e_pos ? (exp_x - lsh_s) : 1;
    wire               sticky = sticky_in | (~e_pos & st_r);

    wire [23:0] m    = n[SW-1:SW-24];
    wire        rbit = n[SW-25];
    wire        rest = (|n[SW-26:0]) | sticky;
    wire        inc  = rbit & (rest | m[0]);
    wire [24:0] m1   = {1'b0, m} + inc;
    wire [23:0] mant = m1[24] ? m1[24:1] : m1[23:0];
    wire signed [EW:0] e_f = m1[24] ? e_n + 1 : e_n;

    wire        ovf  = (e_f >= 255);
    wire [7:0]  fld  = mant[23] ? e_f[7:0] : 8'd0;

    assign result = ovf ? {sign, 8'hff, 23'd0} : {sign, fld, mant[22:0]};
endmodule
