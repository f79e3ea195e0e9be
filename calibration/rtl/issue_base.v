// Per-warp issue logic of the in-order baseline (issue-stage sections 1.2
// and 4): an IBN-entry instruction buffer (FIFO) and the two scoreboards,
// a pending-write bit and a CW-bit pending-read (WAR) counter per
// architectural register. The register space is NREGS = 2^RB GPRs followed
// by 2^PB predicates (a predicate id p is register 2^RB + p).
//
// An instruction is one FW-bit bus, fields from bit 0 upwards:
//   pc (P) | NS x {src (RB), present (1)} | {dst (RB), present} |
//   {psrc (PB), present} | {pdst (PB), present} | payload (DD)
// so that an entry holds E_b = 1 + FW bits (the valid bit plus the fields).
//
//  fetch (fe_en): the instruction is appended unless the buffer is full or
//    a flush is on.
//  head_ready: the oldest entry is valid and collides with nothing: no
//    present source (GPR or predicate) and no destination with a pending
//    write (RAW, WAW), no destination with pending readers (WAR), no source
//    whose reader counter is saturated.
//  issue (iss_en and head_ready): the head leaves the buffer; its
//    destinations become pending, its sources' reader counters increment.
//  write-back (wb_en): the completing instruction's destinations are
//    released and its sources' counters decrement (a release and a reserve
//    of one register in one cycle leave it pending).
//  flush: the buffer is emptied (control hazard).
module issue_base #(
    parameter P     = 32,
    parameter RB    = 8,
    parameter PB    = 3,
    parameter NS    = 3,
    parameter DD    = 64,
    parameter IBN   = 2,
    parameter CW    = 2,
    parameter NREGS = (1 << RB) + (1 << PB),
    parameter FW    = P + NS * (RB + 1) + (RB + 1) + 2 * (PB + 1) + DD
) (
    input           clk,
    input           rst,
    input           fe_en,
    input  [FW-1:0] fe_inst,
    output          full,
    output          empty,
    input           iss_en,
    output          head_ready,
    output [FW-1:0] head_inst,
    output          issued,
    input           flush,
    input           wb_en,
    input  [FW-1:0] wb_inst
);
    localparam NSRC  = NS + 1;                  // GPR sources + the guard predicate
    localparam OFF_D = P + NS * (RB + 1);
    localparam OFF_PS = OFF_D + RB + 1;
    localparam OFF_PD = OFF_PS + PB + 1;
    localparam QW = (IBN <= 2) ? 1 : $clog2(IBN);
    localparam RW = $clog2(NREGS);
    localparam [CW-1:0] CMAX = {CW{1'b1}};

    // ---------------- instruction buffer (circular FIFO)
    reg [FW-1:0] q [0:IBN-1];
    reg [QW-1:0] head, tail;
    reg [QW:0]   count;
    assign full  = (count == IBN);
    assign empty = (count == 0);
    assign head_inst = q[head];
    wire push = fe_en && !full && !flush;
    wire pop  = issued;
    always @(posedge clk) begin
        if (rst || flush) begin
            head <= 0;
            tail <= 0;
            count <= 0;
        end else begin
            if (push) begin
                q[tail] <= fe_inst;
                tail <= (tail == IBN - 1) ? 0 : tail + 1'b1;
            end
            if (pop) head <= (head == IBN - 1) ? 0 : head + 1'b1;
            count <= count + push - pop;
        end
    end

    // register numbers and present bits of the head's and the completing instruction's sources
    // (GPR sources, then the guard predicate as register 2^RB + id)
    wire [RW-1:0]   hs_reg [0:NSRC-1];
    wire [RW-1:0]   ws_reg [0:NSRC-1];
    wire [NSRC-1:0] hs_v, ws_v;
    genvar gs;
    generate
        for (gs = 0; gs < NSRC; gs = gs + 1) begin : g_src
            if (gs < NS) begin : g_gpr
                assign hs_reg[gs] = head_inst[P + gs * (RB + 1) +: RB];
                assign hs_v[gs]   = head_inst[P + gs * (RB + 1) + RB];
                assign ws_reg[gs] = wb_inst[P + gs * (RB + 1) +: RB];
                assign ws_v[gs]   = wb_inst[P + gs * (RB + 1) + RB];
            end else begin : g_pred
                assign hs_reg[gs] = (1 << RB) + head_inst[OFF_PS +: PB];
                assign hs_v[gs]   = head_inst[OFF_PS + PB];
                assign ws_reg[gs] = (1 << RB) + wb_inst[OFF_PS +: PB];
                assign ws_v[gs]   = wb_inst[OFF_PS + PB];
            end
        end
    endgenerate

    function [CW+1:0] popc;
        input [NSRC-1:0] v;
        integer j;
        begin
            popc = 0;
            for (j = 0; j < NSRC; j = j + 1) popc = popc + v[j];
        end
    endfunction

    wire [RW-1:0] h_dst  = head_inst[OFF_D +: RB];
    wire          h_dv   = head_inst[OFF_D + RB];
    wire [RW-1:0] h_pdst = (1 << RB) + head_inst[OFF_PD +: PB];
    wire          h_pdv  = head_inst[OFF_PD + PB];
    wire [RW-1:0] w_dst  = wb_inst[OFF_D +: RB];
    wire          w_dv   = wb_inst[OFF_D + RB];
    wire [RW-1:0] w_pdst = (1 << RB) + wb_inst[OFF_PD +: PB];
    wire          w_pdv  = wb_inst[OFF_PD + PB];

    // ---------------- scoreboards
    reg [NREGS-1:0]    pend;
    reg [NREGS*CW-1:0] rdc;
    wire [NREGS-1:0]   reading, sat;
    genvar gr;
    generate
        for (gr = 0; gr < NREGS; gr = gr + 1) begin : g_reg
            wire [CW-1:0] cnt = rdc[gr*CW +: CW];
            assign reading[gr] = |cnt;
            assign sat[gr] = (cnt == CMAX);
        end
    endgenerate

    // collision check of the head
    wire [NSRC-1:0] src_coll;
    generate
        for (gs = 0; gs < NSRC; gs = gs + 1) begin : g_coll
            assign src_coll[gs] = hs_v[gs] && (pend[hs_reg[gs]] || sat[hs_reg[gs]]);
        end
    endgenerate
    wire coll = (|src_coll) || (h_dv && (pend[h_dst] || reading[h_dst])) ||
                (h_pdv && (pend[h_pdst] || reading[h_pdst]));
    assign head_ready = !empty && !coll;
    assign issued = iss_en && head_ready;

    generate
        for (gr = 0; gr < NREGS; gr = gr + 1) begin : g_upd
            wire [NSRC-1:0] inc_hit, dec_hit;
            for (gs = 0; gs < NSRC; gs = gs + 1) begin : g_hit
                assign inc_hit[gs] = issued && hs_v[gs] && hs_reg[gs] == gr;
                assign dec_hit[gs] = wb_en && ws_v[gs] && ws_reg[gs] == gr;
            end
            wire [CW+1:0] inc = popc(inc_hit);
            wire [CW+1:0] dec = popc(dec_hit);
            wire signed [CW+3:0] nxt = $signed({3'b000, rdc[gr*CW +: CW]}) + $signed({2'b00, inc}) -
                                       $signed({2'b00, dec});
            wire set = issued && ((h_dv && h_dst == gr) || (h_pdv && h_pdst == gr));
            wire clr = wb_en && ((w_dv && w_dst == gr) || (w_pdv && w_pdst == gr));
            always @(posedge clk) begin
                if (rst) begin
                    pend[gr] <= 1'b0;
                    rdc[gr*CW +: CW] <= {CW{1'b0}};
                end else begin
                    if (set) pend[gr] <= 1'b1;
                    else if (clr) pend[gr] <= 1'b0;
                    rdc[gr*CW +: CW] <= (nxt < 0) ? {CW{1'b0}} :
                                        (nxt > CMAX) ? CMAX : nxt[CW-1:0];
                end
            end
        end
    endgenerate
endmodule
