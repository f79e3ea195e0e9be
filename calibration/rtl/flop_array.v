// ENTRIES x WIDTH storage built from flip-flops, RPORTS read ports and
// WPORTS write ports. Reads are combinational (asynchronous) from the
// stored words; writes happen at the rising clock edge. When several write
// ports write the same entry in one cycle, the highest-numbered port wins.
// No reset (storage content is undefined until written).
// Ports are flattened: port p uses raddr[p*AW +: AW], rdata[p*WIDTH +: WIDTH],
// we[p], waddr[p*AW +: AW], wdata[p*WIDTH +: WIDTH]; AW = clog2(ENTRIES).
module flop_array #(
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
    reg [WIDTH-1:0] mem [0:ENTRIES-1];
    integer e, p;

    always @(posedge clk) begin
        for (e = 0; e < ENTRIES; e = e + 1)
            for (p = 0; p < WPORTS; p = p + 1)
                if (we[p] && waddr[p*AW +: AW] == e)
                    mem[e] <= wdata[p*WIDTH +: WIDTH];
    end

    genvar gr;
    generate
        for (gr = 0; gr < RPORTS; gr = gr + 1) begin : g_rd
            assign rdata[gr*WIDTH +: WIDTH] = mem[raddr[gr*AW +: AW]];
        end
    endgenerate
endmodule
