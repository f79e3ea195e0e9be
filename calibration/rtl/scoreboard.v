// Per-warp register scoreboard (baseline in-order issue, pending-write set):
// one pending bit per architectural register (NREGS, predicates included).
//  check: collision = OR over valid sources of pending[src] OR (dst valid
//         and pending[dst]) (RAW and WAW hazards; combinational).
//  reserve (iss_en, iss_dst): pending[iss_dst] <= 1 at the clock edge.
//  release (wb_en, wb_dst):   pending[wb_dst] <= 0 at the clock edge.
//  A reserve and a release of the same register in one cycle leave it
//  pending (release first, then reserve). rst clears every bit.
// Ports: chk_src[s*RW +: RW], chk_src_v[s] for s < NSRC (default 3 sources).
module scoreboard #(
    parameter NREGS = 64,
    parameter NSRC  = 3,
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
    input                  wb_en,
    input  [RW-1:0]        wb_dst,
    output [NREGS-1:0]     pending
);
    reg [NREGS-1:0] pend;
    assign pending = pend;

    integer r;
    always @(posedge clk) begin
        for (r = 0; r < NREGS; r = r + 1) begin
            if (rst)
                pend[r] <= 1'b0;
            else if (iss_en && iss_dst == r)
                pend[r] <= 1'b1;
            else if (wb_en && wb_dst == r)
                pend[r] <= 1'b0;
        end
    end

    wire [NSRC-1:0] hit_s;
    genvar gs;
    generate
        for (gs = 0; gs < NSRC; gs = gs + 1) begin : g_src
            assign hit_s[gs] = chk_src_v[gs] & pend[chk_src[gs*RW +: RW]];
        end
    endgenerate
    assign collision = (|hit_s) | (chk_dst_v & pend[chk_dst]);
endmodule
