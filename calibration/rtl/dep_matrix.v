// N x N dependence matrix of an out-of-order instruction buffer (SOCGPU,
// issue-stage section 2). Bit DM[r][c] = 1 iff entry r depends on
// entry c; the diagonal is hard-wired to 0 (N*(N-1) flip-flops).
//
//  insert (ins_en): entry ins_idx becomes valid, not issued, and its row is
//     written with ins_row masked by the currently valid entries (the
//     insert comparators that produce ins_row live outside this block).
//  issue (iss_en): entry iss_idx is marked issued (it stays valid).
//  write-back (wb_en): entry wb_idx is cleared (valid = 0) and its whole
//     column is cleared, releasing every dependant.
//  flush: every valid, non-issued entry (other than one issuing in this
//     cycle) is removed: valid = 0, row and column cleared. An insert in a
//     flush cycle is ignored.
//  A column clear wins over a bit set by an insert in the same cycle.
// Outputs: nodep[r] = NOR of row r; ready[r] = valid & !issued & nodep
// (candidate conditions a1 and a2 of the spec); valid and issued bits.
module dep_matrix #(
    parameter N  = 8,
    parameter IW = (N <= 2) ? 1 : $clog2(N)
) (
    input              clk,
    input              rst,
    input              ins_en,
    input  [IW-1:0]    ins_idx,
    input  [N-1:0]     ins_row,
    input              iss_en,
    input  [IW-1:0]    iss_idx,
    input              wb_en,
    input  [IW-1:0]    wb_idx,
    input              flush,
    output [N-1:0]     valid,
    output [N-1:0]     issued,
    output [N-1:0]     nodep,
    output [N-1:0]     ready
);
    reg [N-1:0] v_q, i_q;
    assign valid  = v_q;
    assign issued = i_q;

    // per-entry events
    wire [N-1:0] ins_e, iss_e, wb_e, fl_e;
    genvar gr, gc;
    generate
        for (gr = 0; gr < N; gr = gr + 1) begin : g_ev
            assign ins_e[gr] = ins_en && !flush && (ins_idx == gr);
            assign iss_e[gr] = iss_en && (iss_idx == gr);
            assign wb_e[gr]  = wb_en && (wb_idx == gr);
            assign fl_e[gr]  = flush && v_q[gr] && !i_q[gr] && !iss_e[gr];
        end
    endgenerate
    wire [N-1:0] kill = wb_e | fl_e;   // entries leaving: clear row and column

    always @(posedge clk) begin
        if (rst) begin
            v_q <= {N{1'b0}};
            i_q <= {N{1'b0}};
        end else begin
            v_q <= (v_q & ~kill) | ins_e;
            i_q <= (i_q | iss_e) & ~ins_e;
        end
    end

    generate
        for (gr = 0; gr < N; gr = gr + 1) begin : g_row
            wire [N-1:0] row;
            for (gc = 0; gc < N; gc = gc + 1) begin : g_col
                if (gc == gr) begin : g_diag
                    assign row[gc] = 1'b0;
                end else begin : g_bit
                    reg b;
                    always @(posedge clk) begin
                        if (rst || kill[gc] || kill[gr])
                            b <= 1'b0;
                        else if (ins_e[gr])
                            b <= ins_row[gc] & v_q[gc];
                    end
                    assign row[gc] = b;
                end
            end
            assign nodep[gr] = ~|row;
            assign ready[gr] = v_q[gr] & ~i_q[gr] & nodep[gr];
        end
    endgenerate
endmodule
