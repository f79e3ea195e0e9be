// Per-warp register scoreboard of the baseline in-order issue stage
// (issue-stage section 1.2): a pending-write bit and a pending-read
// counter (RCW bits) per architectural register (NREGS, predicates included).
//  check (combinational): collision = any valid source or the destination
//    pending a write (RAW, WAW), or the destination has pending readers
//    (WAR), or a source's reader counter would overflow on this issue.
//  issue (iss_en): pending[iss_dst] <= 1 when iss_dst_v; every valid source
//    increments its register's reader counter (a register named twice
//    counts twice).
//  write-back (wb_en): pending[wb_dst] <= 0 when wb_dst_v; every valid
//    source of the completing instruction decrements its counter.
//  Same cycle: a release and a reserve of one register leave it pending;
//  reader counters change by (increments - decrements), clamped to
//  0..2^RCW-1. rst clears everything.
// Ports: source s of a check/issue/write-back uses bits [s*RW +: RW] of the
// *_src bus and bit s of the *_src_v mask (NSRC sources, default 3).
module scoreboard #(
    parameter NREGS = 64,
    parameter NSRC  = 3,
    parameter RCW   = 2,
    parameter RW    = (NREGS <= 2) ? 1 : $clog2(NREGS)
) (
    input                  clk,
    input                  rst,
    input  [NSRC*RW-1:0]   chk_src,
    input  [NSRC-1:0]      chk_src_v,
    input  [RW-1:0]        chk_dst,
    input                  chk_dst_v,
    output                 collision,
    input                  iss_en,
    input  [RW-1:0]        iss_dst,
    input                  iss_dst_v,
    input  [NSRC*RW-1:0]   iss_src,
    input  [NSRC-1:0]      iss_src_v,
    input                  wb_en,
    input  [RW-1:0]        wb_dst,
    input                  wb_dst_v,
    input  [NSRC*RW-1:0]   wb_src,
    input  [NSRC-1:0]      wb_src_v,
    output [NREGS-1:0]     pending,
    output [NREGS-1:0]     reading
);
    localparam CW = RCW + 2;                  // room for +-NSRC before clamping
    localparam [RCW-1:0] CMAX = {RCW{1'b1}};

    reg [NREGS-1:0] pend;
    reg [NREGS*RCW-1:0] rd;
    assign pending = pend;

    wire [NSRC-1:0] src_hit;
    genvar gr, gs;
    generate
        for (gr = 0; gr < NREGS; gr = gr + 1) begin : g_reg
            wire [RCW-1:0] cnt = rd[gr*RCW +: RCW];
            assign reading[gr] = |cnt;
            // increments and decrements this cycle
            reg [CW-1:0] inc, dec;
            integer s;
            always @* begin
                inc = 0;
                dec = 0;
                for (s = 0; s < NSRC; s = s + 1) begin
                    if (iss_en && iss_src_v[s] && iss_src[s*RW +: RW] == gr) inc = inc + 1'b1;
                    if (wb_en && wb_src_v[s] && wb_src[s*RW +: RW] == gr) dec = dec + 1'b1;
                end
            end
            wire signed [CW+1:0] nxt = $signed({2'b00, {(CW - RCW){1'b0}}, cnt}) +
                                       $signed({2'b00, inc}) - $signed({2'b00, dec});
            always @(posedge clk) begin
                if (rst) begin
                    pend[gr] <= 1'b0;
                    rd[gr*RCW +: RCW] <= {RCW{1'b0}};
                end else begin
                    if (iss_en && iss_dst_v && iss_dst == gr)
                        pend[gr] <= 1'b1;
                    else if (wb_en && wb_dst_v && wb_dst == gr)
                        pend[gr] <= 1'b0;
                    rd[gr*RCW +: RCW] <= (nxt < 0) ? {RCW{1'b0}} :
                                         (nxt > CMAX) ? CMAX : nxt[RCW-1:0];
                end
            end
        end

        // check: per source, pending write and reader-counter headroom
        for (gs = 0; gs < NSRC; gs = gs + 1) begin : g_src
            wire [RW-1:0]  r = chk_src[gs*RW +: RW];
            reg  [CW-1:0]  same;
            integer t;
            always @* begin
                same = 0;
                for (t = 0; t < NSRC; t = t + 1)
                    if (chk_src_v[t] && chk_src[t*RW +: RW] == r) same = same + 1'b1;
            end
            wire [RCW-1:0] c = rd[r*RCW +: RCW];
            wire ovf = ({{(CW - RCW){1'b0}}, c} + same) > CMAX;
            assign src_hit[gs] = chk_src_v[gs] & (pend[r] | ovf);
        end
    endgenerate
    wire war = chk_dst_v & (|rd[chk_dst*RCW +: RCW]);
    assign collision = (|src_hit) | (chk_dst_v & pend[chk_dst]) | war;
endmodule
