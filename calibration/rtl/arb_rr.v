// Round-robin arbiter for N requesters with one-hot grant. The priority
// pointer names the requester with the highest priority this cycle; after a
// grant to requester g (when en is high) the pointer moves to g+1 (mod N), so
// the granted requester becomes the lowest priority. Implementation: two
// fixed-priority searches, one over the requests at or above the pointer
// (masked) and one over all requests; the masked result wins when non-zero.
// Grant is combinational from req and the pointer register; rst sets the
// pointer to 0.
module arb_rr #(
    parameter N = 8
) (
    input              clk,
    input              rst,
    input              en,     // accept the grant (update the pointer)
    input  [N-1:0]     req,
    output [N-1:0]     grant
);
    reg  [N-1:0] ptr;          // thermometer: bits at or above the pointer are 1
    wire [N-1:0] mreq = req & ptr;
    wire [N-1:0] g_m, g_u;
    arb_fixed #(.N(N)) u_m (.req(mreq), .grant(g_m));
    arb_fixed #(.N(N)) u_u (.req(req),  .grant(g_u));
    assign grant = (|mreq) ? g_m : g_u;

    // next pointer: thermometer of positions strictly above the grant
    wire [N:0] above;
    assign above[0] = 1'b0;
    genvar gi;
    generate
        for (gi = 0; gi < N; gi = gi + 1) begin : g_t
            assign above[gi+1] = above[gi] | grant[gi];
        end
    endgenerate
    wire [N-1:0] nxt = above[N:1] & ~grant;   // bits above g

    always @(posedge clk) begin
        if (rst)
            ptr <= {N{1'b1}};
        else if (en && (|req))
            ptr <= (|nxt) ? nxt : {N{1'b1}};
    end
endmodule
