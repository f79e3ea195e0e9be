// Pilot-warp access counters of the partitioned register file (register-
// file spec 5.4-5.5): NREGS saturating counters of WIDTH bits indexed by the
// architectural register number.
// inc: counter[idx] := counter[idx] + 1 at the rising edge, held at
// all-ones (saturating); an idx >= NREGS is ignored. One shared incrementer
// reads the indexed counter. clear (synchronous, priority) and rst zero
// every counter. rd_idx/rd_data: combinational read port for the sort
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
    wire [NREGS*WIDTH-1:0] flat;
    wire             in_range = idx < NREGS;
    wire [WIDTH-1:0] cur = in_range ? flat[idx*WIDTH +: WIDTH] : {WIDTH{1'b0}};
    wire [WIDTH-1:0] nxt = (&cur) ? cur : cur + 1'b1;
    genvar ge;
    generate
        for (ge = 0; ge < NREGS; ge = ge + 1) begin : g_cnt
            reg [WIDTH-1:0] cnt;
            always @(posedge clk) begin
                if (rst || clear)
                    cnt <= {WIDTH{1'b0}};
                else if (inc && in_range && idx == ge)
                    cnt <= nxt;
            end
            assign flat[ge*WIDTH +: WIDTH] = cnt;
        end
    endgenerate
    assign rd_data = (rd_idx < NREGS) ? flat[rd_idx*WIDTH +: WIDTH] : {WIDTH{1'b0}};
endmodule
