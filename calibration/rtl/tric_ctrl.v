// TRIC control (register-file spec 3.1-3.4): the tri-modal state of N
// register-file entries with their hold counts and wake counters.
// Per entry: a 2-bit state (0 OFF, 1 DROWSY, 2 WAKING, 3 ON), an HW-bit hold
// count (saturating) and an LW-bit wake counter. Each cycle one wake request
// (wake, wake_idx), one release (rel, rel_idx) and one allocation change
// (alloc, alloc_idx, alloc_on: OFF -> DROWSY when 1, -> OFF when 0) arrive.
// A wake of a DROWSY entry makes it WAKING for lat cycles (lat = L, at
// least 1): it is ON lat cycles after the request. A wake of an entry already
// WAKING or ON only adds a hold; a wake of an OFF entry is ignored (OFF
// entries are never woken while a kernel runs). A release drops one hold; at
// zero holds an ON entry goes back to DROWSY. on[i] = entry i is ON.
module tric_ctrl #(
    parameter N  = 16,
    parameter HW = 2,
    parameter LW = 2
) (
    input               clk,
    input               rst,
    input               wake,
    input  [IW-1:0]     wake_idx,
    input               rel,
    input  [IW-1:0]     rel_idx,
    input               alloc,
    input  [IW-1:0]     alloc_idx,
    input               alloc_on,
    input  [LW-1:0]     lat,
    output [N-1:0]      on
);
    localparam IW = (N <= 2) ? 1 : $clog2(N);
    reg [1:0]    st   [0:N-1];
    reg [HW-1:0] hold [0:N-1];
    reg [LW-1:0] wcnt [0:N-1];
    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : e
            wire w = wake && wake_idx == i;
            wire r = rel && rel_idx == i && hold[i] != {HW{1'b0}};
            wire up = w && st[i] != 2'd0 && hold[i] != {HW{1'b1}};
            wire [HW-1:0] h = hold[i] + {{(HW-1){1'b0}}, up} - {{(HW-1){1'b0}}, r};
            assign on[i] = st[i] == 2'd3;
            always @(posedge clk) begin
                if (rst) begin
                    st[i] <= 2'd0;
                    hold[i] <= {HW{1'b0}};
                    wcnt[i] <= {LW{1'b0}};
                end else if (alloc && alloc_idx == i) begin
                    st[i] <= alloc_on ? 2'd1 : 2'd0;
                    hold[i] <= {HW{1'b0}};
                end else begin
                    hold[i] <= h;
                    case (st[i])
                        2'd1: if (w) begin
                            if (lat <= 1) st[i] <= 2'd3;
                            else begin
                                st[i] <= 2'd2;
                                wcnt[i] <= lat - 1'b1;
                            end
                        end
                        2'd2: begin
                            wcnt[i] <= wcnt[i] - 1'b1;
                            if (wcnt[i] == 1) st[i] <= 2'd3;
                        end
                        2'd3: if (h == {HW{1'b0}}) st[i] <= 2'd1;
                        default: ;
                    endcase
                end
            end
        end
    endgenerate
endmodule
