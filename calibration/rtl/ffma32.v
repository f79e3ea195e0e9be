// IEEE-754 binary32 fused multiply-add y = a*b + c with a single rounding
// (round to nearest even), full subnormal support, canonical quiet NaN
// (0x7fc00000). Registered output.
//
// Algorithm: the exact 48-bit product and the addend (extended to 48 bits)
// are both normalised (leading-zero shift, so subnormal operands get an
// exponent below 1). The operand with the larger magnitude, X, is placed at
// the top of a 51-bit field (48 bits + 3 guard bits) and the other, Y, is
// shifted right by the exponent difference with the shifted-out bits jammed
// into bit 0. With both operands normalised, a difference d >= 2 leaves the
// result's leading one within one bit of the top, so the jammed bit is far
// below the rounding position; d <= 1 keeps every bit exactly. The 52-bit
// sum/difference is normalised, rounded and packed by fp_round_pack.
// A zero result is -0 only if both the product and c are -0 (so exact
// cancellation gives +0).
module ffma32 (
    input             clk,
    input      [31:0] a,
    input      [31:0] b,
    input      [31:0] c,
    output reg [31:0] y
);
    wire [31:0] r;
    ffma32_core u_core (.a(a), .b(b), .c(c), .y(r));
    always @(posedge clk) y <= r;
endmodule

module ffma32_core (
    input  [31:0] a,
    input  [31:0] b,
    input  [31:0] c,
    output [31:0] y
);
    localparam signed [11:0] TINY = -12'sd600;  // exponent given to zero operands

    wire [7:0]  ea   = a[30:23];
    wire [7:0]  eb   = b[30:23];
    wire [7:0]  ec   = c[30:23];
    wire [23:0] ma   = {ea != 8'd0, a[22:0]};
    wire [23:0] mb   = {eb != 8'd0, b[22:0]};
    wire [23:0] mc   = {ec != 8'd0, c[22:0]};
    wire [7:0]  ea_i = (ea == 8'd0) ? 8'd1 : ea;
    wire [7:0]  eb_i = (eb == 8'd0) ? 8'd1 : eb;
    wire [7:0]  ec_i = (ec == 8'd0) ? 8'd1 : ec;
    wire        sp   = a[31] ^ b[31];
    wire        sc   = c[31];

    // exact product, normalised so bit 47 is set
    wire [47:0] prod = ma * mb;
    wire [5:0]  lzp;
    fp_lzc #(.W(48), .LW(6)) u_lzp (.x(prod), .cnt(lzp));
    wire [47:0] pn   = prod << lzp;
    wire        pz   = (prod == 48'd0);
    wire signed [11:0] ep = pz ? TINY :
        $signed({4'd0, ea_i}) + $signed({4'd0, eb_i}) - 12'sd126 - $signed({6'd0, lzp});

    // addend, normalised so bit 47 is set
    wire [4:0]  lzc_c;
    fp_lzc #(.W(24), .LW(5)) u_lzc (.x(mc), .cnt(lzc_c));
    wire [47:0] cn   = {mc << lzc_c, 24'd0};
    wire        cz   = (mc == 24'd0);
    wire signed [11:0] ecn = cz ? TINY : $signed({4'd0, ec_i}) - $signed({7'd0, lzc_c});

    // order by magnitude
    wire        p_big = (ep > ecn) || ((ep == ecn) && (pn >= cn));
    wire [47:0] xs    = p_big ? pn : cn;
    wire [47:0] ys    = p_big ? cn : pn;
    wire signed [11:0] ex = p_big ? ep : ecn;
    wire signed [11:0] ey = p_big ? ecn : ep;
    wire        sx    = p_big ? sp : sc;
    wire        sy    = p_big ? sc : sp;
    wire signed [12:0] d  = ex - ey;
    wire [5:0]  dc    = (d > 63) ? 6'd63 : d[5:0];

    wire [114:0] wide = {ys, 3'b000, 64'd0} >> dc;
    wire [50:0]  ysh  = wide[114:64] | {50'd0, |wide[63:0]};
    wire [51:0]  xe   = {1'b0, xs, 3'b000};
    wire [51:0]  ye   = {1'b0, ysh};
    wire         sub  = sx ^ sy;
    wire [51:0]  sum  = sub ? (xe - ye) : (xe + ye);

    wire         zero_sum = (sum == 52'd0);
    wire         sign     = zero_sum ? (sp & sc) : sx;
    wire signed [11:0] e1 = ex + 12'sd1;

    wire [31:0] rounded;
    fp_round_pack #(.SW(52), .EW(12)) u_rp (
        .sign(sign), .exp(e1), .sig(sum), .sticky_in(1'b0), .result(rounded));

    wire nan_a  = (ea == 8'hff) && (a[22:0] != 23'd0);
    wire nan_b  = (eb == 8'hff) && (b[22:0] != 23'd0);
    wire nan_c  = (ec == 8'hff) && (c[22:0] != 23'd0);
    wire inf_a  = (ea == 8'hff) && (a[22:0] == 23'd0);
    wire inf_b  = (eb == 8'hff) && (b[22:0] == 23'd0);
    wire inf_c  = (ec == 8'hff) && (c[22:0] == 23'd0);
    wire zero_a = (a[30:0] == 31'd0);
    wire zero_b = (b[30:0] == 31'd0);
    wire inf_p  = (inf_a | inf_b) & ~zero_a & ~zero_b;
    wire nan    = nan_a | nan_b | nan_c | (inf_a & zero_b) | (inf_b & zero_a) |
                  (inf_p & inf_c & (sp ^ sc));

    assign y = nan   ? 32'h7fc00000 :
               inf_p ? {sp, 8'hff, 23'd0} :
               inf_c ? c :
               rounded;
endmodule
