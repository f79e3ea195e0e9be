// N x N crossbar of WIDTH-bit words: output o carries input sel[o] (one
// SW-bit select per output, SW = clog2(N)). Combinational (a mux per output
// bit; several outputs may select the same input, i.e. multicast).
// Ports are flattened: in[i*WIDTH +: WIDTH], out[o*WIDTH +: WIDTH],
// sel[o*SW +: SW].
module crossbar #(
    parameter N     = 4,
    parameter WIDTH = 32,
    parameter SW    = (N <= 2) ? 1 : $clog2(N)
) (
    input  [N*WIDTH-1:0] in,
    input  [N*SW-1:0]    sel,
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
                    if (sel[go*SW +: SW] == i) o = in[i*WIDTH +: WIDTH];
            end
            assign out[go*WIDTH +: WIDTH] = o;
        end
    endgenerate
endmodule
