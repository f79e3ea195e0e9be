// Fixed-priority arbiter for N requesters: grant is one-hot (or zero when
// no request); requester 0 has the highest priority. Combinational:
// grant = req & ~(req - 1), built as a carry-style prefix-OR chain.
module arb_fixed #(
    parameter N = 8
) (
    input  [N-1:0] req,
    output [N-1:0] grant
);
    wire [N:0] seen;   // seen[i]: some request below i
    assign seen[0] = 1'b0;
    genvar gi;
    generate
        for (gi = 0; gi < N; gi = gi + 1) begin : g_p
            assign seen[gi+1]  = seen[gi] | req[gi];
            assign grant[gi]   = req[gi] & ~seen[gi];
        end
    endgenerate
endmodule
