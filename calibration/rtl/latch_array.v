// ENTRIES x WIDTH storage built from level-sensitive latches (a standard-cell
// memory), RPORTS read ports and WPORTS write ports. Same port layout as
// flop_array.
//
// Write timing: write enables, addresses and data are captured in flip-flops
// at the rising edge of cycle t; during the low phase of cycle t the selected
// entry's latches are transparent (enable = ~clk & we_q & decode), and they
// close at the next rising edge, before the capture flops change. A write
// issued at edge t is therefore readable from the low phase of cycle t and
// stable from edge t+1 on: one cycle more write latency than flop_array.
// The highest-numbered port wins when several write the same entry.
// Reads are combinational from the latches. No reset.
module latch_array #(
    parameter ENTRIES = 16,
    parameter WIDTH   = 32,
    parameter RPORTS  = 2,
    parameter WPORTS  = 1,
    parameter AW      = (ENTRIES <= 2) ? 1 : $clog2(ENTRIES)
) (
    input                        clk,
    input  [RPORTS*AW-1:0]       raddr,
    output [RPORTS*WIDTH-1:0]    rdata,
    input  [WPORTS-1:0]          we,
    input  [WPORTS*AW-1:0]       waddr,
    input  [WPORTS*WIDTH-1:0]    wdata
);
    reg [WPORTS-1:0]       we_q;
    reg [WPORTS*AW-1:0]    waddr_q;
    reg [WPORTS*WIDTH-1:0] wdata_q;

    always @(posedge clk) begin
        we_q    <= we;
        waddr_q <= waddr;
        wdata_q <= wdata;
    end

    wire [ENTRIES*WIDTH-1:0] words;

    genvar ge;
    generate
        for (ge = 0; ge < ENTRIES; ge = ge + 1) begin : g_ent
            reg             sel;
            reg [WIDTH-1:0] d;
            integer p;
            always @* begin
                sel = 1'b0;
                d   = {WIDTH{1'b0}};
                for (p = 0; p < WPORTS; p = p + 1)
                    if (we_q[p] && waddr_q[p*AW +: AW] == ge) begin
                        sel = 1'b1;
                        d   = wdata_q[p*WIDTH +: WIDTH];
                    end
            end
            wire            g = ~clk & sel;
            reg [WIDTH-1:0] q;
            always @*
                if (g) q = d;
            assign words[ge*WIDTH +: WIDTH] = q;
        end
    endgenerate

    genvar gr;
    generate
        for (gr = 0; gr < RPORTS; gr = gr + 1) begin : g_rd
            assign rdata[gr*WIDTH +: WIDTH] = words[raddr[gr*AW +: AW]*WIDTH +: WIDTH];
        end
    endgenerate
endmodule
