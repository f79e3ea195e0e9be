// Swap table of the partitioned register file (register-file spec 5.4-5.5):
// 2N entries of 13 bits {orig id 6b, mapped id 6b, valid 1b}, looked up in
// parallel by a 6-bit architectural register id.
// match[e] = valid[e] && orig[e] == key; hit = |match; mapped = OR over the
// matching entries of their mapped ids (the table holds distinct original
// ids, so at most one entry matches); slot = hit ? mapped : key (a miss
// keeps the identity mapping).
// A write (we) stores worig, wmapped and wvalid into entry waddr at the
// rising edge (wvalid = 0 invalidates); clear invalidates every entry
// (synchronous, priority over a write); rst clears the valid bits.
module swap_cam #(
    parameter N  = 4,
    parameter AW = (2 * N <= 2) ? 1 : $clog2(2 * N)
) (
    input          clk,
    input          rst,
    input  [5:0]   key,
    output         hit,
    output [5:0]   mapped,
    output [5:0]   slot,
    input          we,
    input  [AW-1:0] waddr,
    input  [5:0]   worig,
    input  [5:0]   wmapped,
    input          wvalid,
    input          clear
);
    localparam E = 2 * N;
    wire [E-1:0]   match;
    wire [6*E-1:0] sel;
    genvar ge;
    generate
        for (ge = 0; ge < E; ge = ge + 1) begin : g_ent
            reg       valid;
            reg [5:0] orig, map;
            always @(posedge clk) begin
                if (rst || clear)
                    valid <= 1'b0;
                else if (we && waddr == ge)
                    valid <= wvalid;
                if (we && waddr == ge) begin
                    orig <= worig;
                    map  <= wmapped;
                end
            end
            assign match[ge] = valid && (orig == key);
            if (ge == 0) begin : g_first
                assign sel[5:0] = match[0] ? map : 6'd0;
            end else begin : g_rest
                assign sel[6*ge +: 6] = sel[6*(ge-1) +: 6] | (match[ge] ? map : 6'd0);
            end
        end
    endgenerate
    assign hit    = |match;
    assign mapped = sel[6*(E-1) +: 6];
    assign slot   = hit ? mapped : key;
endmodule
