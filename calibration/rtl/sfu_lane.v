// Special-function lane: binary32 reciprocal (op=0) and reciprocal square
// root (op=1) by table lookup plus one Newton-Raphson step. Registered output.
//
// Input x = m * 2^u with m in [1,2).
//  rcp:   the table, indexed by the top TBITS mantissa bits, holds
//         y0 = 1/mid rounded to TW = TBITS+4 fraction bits (mid = interval
//         midpoint), so |e0| <= 2^-(TBITS+1) + 2^-(TBITS+4). One step
//         y1 = y0*(2 - m*y0) gives relative error -e0^2.
//  rsqrt: u odd folds into mm = 2m in [2,4); the table, indexed by
//         {u odd, top TBITS mantissa bits}, holds 1/sqrt(mid); one step
//         y1 = y0*(3 - mm*y0^2)/2 gives relative error about -1.5*e0^2 with
//         |e0| <= 1.25*2^-(TBITS+2).
//  Intermediates keep 30 fraction bits; the result is rounded half-up to
//  24 significant bits.
//  Error bound (both ops, normal results):
//     |y - 1/x| / |1/x| <= 1.3 * 2^-(2*TBITS+2) + 2^-24 + 2^-28
//  (TBITS=10: 3.7e-7, i.e. at most about 6 ulp of the result).
// Flush-to-zero convention: subnormal inputs are treated as zero of the same
// sign; results below 2^-126 are flushed to zero of the result's sign.
// Specials: rcp(+-0) = +-inf, rcp(+-inf) = +-0, rsqrt(+-0) = +-inf,
// rsqrt(+inf) = +0, rsqrt(x<0 or -inf) = NaN, NaN in gives NaN; every NaN
// result is the canonical quiet NaN 0x7fc00000.
module sfu_lane #(
    parameter TBITS = 10
) (
    input             clk,
    input             op,     // 0 = reciprocal, 1 = reciprocal square root
    input      [31:0] x,
    output reg [31:0] y
);
    localparam TW = TBITS + 4;        // table word: fraction bits of y0
    localparam NR = 1 << TBITS;       // rcp table entries
    localparam NS = 2 << TBITS;       // rsqrt table entries

    // rcp table entry i: round(2^TW / (1 + (i + 0.5) / 2^TBITS))
    function [TW-1:0] rcp_entry;
        input integer i;
        reg [63:0] num, den;
        begin
            num = 64'd1 << (TW + TBITS + 1);
            den = (64'd1 << (TBITS + 1)) + 2 * i + 1;
            rcp_entry = (2 * num + den) / (2 * den);
        end
    endfunction

    // rsqrt table entry j = {odd, i}: round(2^TW / sqrt(mid)),
    // mid = (1 + (i + 0.5) / 2^TBITS) * (odd ? 2 : 1)
    function [TW-1:0] rsqrt_entry;
        input integer j;
        reg [63:0] q, n, r, t;
        integer bb;
        begin
            q = (64'd1 << (TBITS + 1)) + 2 * (j % NR) + 1;
            if (j >= NR) q = 2 * q;
            n = (64'd1 << (2 * TW + TBITS + 3)) / q;
            r = 64'd0;
            for (bb = 31; bb >= 0; bb = bb - 1) begin
                t = r | (64'd1 << bb);
                if (t * t <= n) r = t;
            end
            rsqrt_entry = (r + 1) >> 1;
        end
    endfunction

    wire        s  = x[31];
    wire [7:0]  e  = x[30:23];
    wire [22:0] f  = x[22:0];
    wire [23:0] m  = {1'b1, f};
    wire        odd = ~e[0];          // unbiased exponent e-127 is odd

    // table lookup: constant leaves, binary mux tree selected by index bits
    wire [TBITS-1:0] ix = f[22:23-TBITS];
    wire [TBITS:0]   jx = {odd, ix};
    wire [TW-1:0] nr [0:2*NR-1];   // rcp tree nodes, level l at 2*NR - (2*NR >> l)
    wire [TW-1:0] ns [0:2*NS-1];   // rsqrt tree nodes
    genvar gl, gn;
    generate
        for (gn = 0; gn < NR; gn = gn + 1) begin : g_rcp_leaf
            assign nr[gn] = rcp_entry(gn);
        end
        for (gn = 0; gn < NS; gn = gn + 1) begin : g_rsq_leaf
            assign ns[gn] = rsqrt_entry(gn);
        end
        for (gl = 0; gl < TBITS; gl = gl + 1) begin : g_rcp_lvl
            for (gn = 0; gn < (NR >> (gl + 1)); gn = gn + 1) begin : g_n
                assign nr[2*NR - (NR >> gl) + gn] = ix[gl] ?
                    nr[2*NR - (2*NR >> gl) + 2*gn + 1] : nr[2*NR - (2*NR >> gl) + 2*gn];
            end
        end
        for (gl = 0; gl <= TBITS; gl = gl + 1) begin : g_rsq_lvl
            for (gn = 0; gn < (NS >> (gl + 1)); gn = gn + 1) begin : g_n
                assign ns[2*NS - (NS >> gl) + gn] = jx[gl] ?
                    ns[2*NS - (2*NS >> gl) + 2*gn + 1] : ns[2*NS - (2*NS >> gl) + 2*gn];
            end
        end
    endgenerate
    assign nr[2*NR - 1] = {TW{1'b0}};
    assign ns[2*NS - 1] = {TW{1'b0}};
    wire [TW-1:0] y0r = nr[2*NR - 2];
    wire [TW-1:0] y0s = ns[2*NS - 2];

    // rcp residual: er = 2 - m*y0 (30 fraction bits)
    wire [TW+23:0] tr   = m * y0r;                          // frac 23+TW
    wire [TW+24:0] er_f = ({1'b1, {(TW + 24){1'b0}}}) - tr; // 2 - t
    wire [30:0]    er   = er_f[TW+24:TW-7];                 // frac 30

    // rsqrt residual: es = (3 - mm*y0^2)/2 (30 fraction bits)
    wire [24:0]     mm   = odd ? {m, 1'b0} : {1'b0, m};      // frac 23
    wire [2*TW-1:0] sq   = y0s * y0s;                        // frac 2TW
    wire [2*TW+24:0] ts  = mm * sq;                          // frac 23+2TW
    wire [2*TW+25:0] es_f = ({2'b11, {(2 * TW + 23){1'b0}}}) - ts;
    wire [30:0]     es   = es_f[2*TW+24:2*TW-6];             // (3-t)/2, frac 30

    // shared Newton-Raphson multiply
    wire [TW-1:0]  y0   = op ? y0s : y0r;
    wire [30:0]    ee   = op ? es : er;
    wire [TW+30:0] y1   = y0 * ee;                           // frac TW+30, in (0.25,1)

    wire        hi   = y1[TW+29];
    wire [23:0] mt   = hi ? y1[TW+29:TW+6] : y1[TW+28:TW+5];
    wire        rb   = hi ? y1[TW+5] : y1[TW+4];
    wire [24:0] mr   = {1'b0, mt} + rb;
    wire [22:0] frac = mr[24] ? 23'd0 : mr[22:0];

    // result exponent (biased), before the round carry
    wire signed [10:0] e_s    = {3'b000, e};
    wire signed [10:0] u_even = e_s - 11'sd127 - (odd ? 11'sd1 : 11'sd0);
    wire signed [10:0] er_b   = 11'sd253 - e_s;              // rcp, y1 in [0.5,1)
    wire signed [10:0] es_b   = 11'sd126 - (u_even >>> 1);   // rsqrt, y1 in [0.5,1)
    wire signed [10:0] eb0    = (op ? es_b : er_b) - (hi ? 11'sd0 : 11'sd1);
    wire signed [10:0] ebr    = eb0 + (mr[24] ? 11'sd1 : 11'sd0);

    wire is_nan  = (e == 8'hff) && (f != 23'd0);
    wire is_inf  = (e == 8'hff) && (f == 23'd0);
    wire is_zero = (e == 8'd0);                              // zero or flushed subnormal

    reg [31:0] r;
    always @* begin
        if (is_nan || (op && s && !is_zero))
            r = 32'h7fc00000;
        else if (is_zero)
            r = {s, 8'hff, 23'd0};
        else if (is_inf)
            r = {s, 31'd0};
        else if (ebr <= 0)
            r = {op ? 1'b0 : s, 31'd0};
        else
            r = {op ? 1'b0 : s, ebr[7:0], frac};
    end

    always @(posedge clk) y <= r;
endmodule
