// N x N crossbar of WIDTH-bit words: output o carries the input its one-hot
// grant selects (grant[o*N + i] = 1: output o takes input i; no grant: 0).
// Combinational: N crosspoints (in[i] AND grant) per output bit, ORed. The
// grants come decoded, as a switch allocator or arbiter produces them, so the
// netlist is the N x N x WIDTH crosspoint array itself; several outputs may
// take the same input (multicast).
// Ports are flattened: in[i*WIDTH +: WIDTH], out[o*WIDTH +: WIDTH],
// grant[o*N +: N].
module crossbar #(
    parameter N     = 4,
    parameter WIDTH = 32
) (
    input  [N*WIDTH-1:0] in,
    input  [N*N-1:0]     grant,
    output [N*WIDTH-1:0] out
);
    genvar go;
    generate
        for (go = 0; go < N; go = go + 1) begin : g_out
            reg [WIDTH-1:0] o;
            integer i;
            always @* begin
                o = {WIDTH{1'b0}};
                for (i = 0; i < N; i = i + 1)
                    o = o | (in[i*WIDTH +: WIDTH] & {WIDTH{grant[go*N + i]}});
            end
            assign out[go*WIDTH +: WIDTH] = o;
        end
    endgenerate
endmodule
