// Pilot-warp access counters of the partitioned register file (register-
// file spec 5.4-5.5): NREGS saturating counters of WIDTH bits indexed by the
// architectural register number.
// inc: counter[idx] := counter[idx] + 1 at the rising edge, held at
// all-ones (saturating); an idx >= NREGS is ignored. One shared
// incrementer reads the indexed counter through a one-hot AND-OR mux.
// clear (synchronous, priority) and rst zero every counter. rd_idx/rd_data: combinational read port for the sort
// (rd_data = 0 for rd_idx >= NREGS).
module pilot_counters #(
    parameter NREGS = 63,
    parameter WIDTH = 16,
    parameter IW    = (NREGS <= 2) ? 1 : $clog2(NREGS)
) (
    input              clk,
    input              rst,
    input              clear,
    input              inc,
    input  [IW-1:0]    idx,
    input  [IW-1:0]    rd_idx,
    output [WIDTH-1:0] rd_data
);
    // one-hot AND-OR read muxes (OR chains over the counters), no index arithmetic
    wire [NREGS*WIDTH-1:0] inc_chain, rd_chain;
    wire [WIDTH-1:0] cur = inc_chain[(NREGS-1)*WIDTH +: WIDTH];
    wire [WIDTH-1:0] nxt = (&cur) ? cur : cur + 1'b1;
    genvar ge;
    generate
        for (ge = 0; ge < NREGS; ge = ge + 1) begin : g_cnt
            reg [WIDTH-1:0] cnt;
            always @(posedge clk) begin
                if (rst || clear)
                    cnt <= {WIDTH{1'b0}};
                else if (inc && idx == ge)
                    cnt <= nxt;
            end
            wire [WIDTH-1:0] pick_inc = (idx == ge) ? cnt : {WIDTH{1'b0}};
            wire [WIDTH-1:0] pick_rd  = (rd_idx == ge) ? cnt : {WIDTH{1'b0}};
            if (ge == 0) begin : g_first
                assign inc_chain[WIDTH-1:0] = pick_inc;
                assign rd_chain[WIDTH-1:0]  = pick_rd;
            end else begin : g_rest
                assign inc_chain[ge*WIDTH +: WIDTH] = inc_chain[(ge-1)*WIDTH +: WIDTH] | pick_inc;
                assign rd_chain[ge*WIDTH +: WIDTH]  = rd_chain[(ge-1)*WIDTH +: WIDTH] | pick_rd;
            end
        end
    endgenerate
    assign rd_data = rd_chain[(NREGS-1)*WIDTH +: WIDTH];
endmodule
