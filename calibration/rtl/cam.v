// ENTRIES x WIDTH content-addressable memory with one search port and one
// write port. Each entry has a valid bit. match[e] = valid[e] &&
// (entry e == key) (combinational match lines from the stored words); hit is
// the OR of the match lines. A write (we) stores wdata and wvalid into entry
// waddr at the rising edge (wvalid = 0 invalidates). flush clears every valid
// bit (synchronous, takes priority over a write). No reset of the data bits;
// valid bits are cleared by rst (synchronous).
module cam #(
    parameter ENTRIES = 16,
    parameter WIDTH   = 32,
    parameter AW      = (ENTRIES <= 2) ? 1 : $clog2(ENTRIES)
) (
    input                    clk,
    input                    rst,
    input  [WIDTH-1:0]       key,
    output [ENTRIES-1:0]     match,
    output                   hit,
    input                    we,
    input  [AW-1:0]          waddr,
    input  [WIDTH-1:0]       wdata,
    input                    wvalid,
    input                    flush
);
    reg [ENTRIES-1:0] valid;
    genvar ge;
    generate
        for (ge = 0; ge < ENTRIES; ge = ge + 1) begin : g_ent
            reg [WIDTH-1:0] word;
            always @(posedge clk) begin
                if (rst || flush)
                    valid[ge] <= 1'b0;
                else if (we && waddr == ge)
                    valid[ge] <= wvalid;
                if (we && waddr == ge)
                    word <= wdata;
            end
            assign match[ge] = valid[ge] && (word == key);
        end
    endgenerate
    assign hit = |match;
endmodule
