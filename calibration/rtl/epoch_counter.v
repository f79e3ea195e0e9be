// Adaptive-FRF phase detector (register-file spec 6): counts the warp
// instructions dispatched in each epoch of EPOCH cycles and picks the FRF
// mode of the next epoch.
// Every cycle cnt_in (0 .. 2^IW - 1 instructions) is added to a W-bit count
// (saturating at all-ones); an EW-bit cycle counter marks the epoch's last
// cycle (epoch_end). At that cycle's rising edge the mode of the next epoch
// becomes (count + cnt_in < thr) ? 0 (FRF_low) : 1 (FRF_high), and both
// counters restart. rst and restart (kernel start: epochs are aligned to
// it) zero the counters and set mode 1 (every kernel starts in FRF_high).
module epoch_counter #(
    parameter W     = 9,
    parameter EW    = 6,
    parameter EPOCH = 50,
    parameter IW    = 4
) (
    input           clk,
    input           rst,
    input           restart,
    input  [IW-1:0] cnt_in,
    input  [W-1:0]  thr,
    output          mode,
    output          epoch_end,
    output [W-1:0]  count
);
    reg [W-1:0]  cnt;
    reg [EW-1:0] cyc;
    reg          mode_q;
    wire [W:0]   sum = {1'b0, cnt} + {{(W+1-IW){1'b0}}, cnt_in};
    wire [W-1:0] total = sum[W] ? {W{1'b1}} : sum[W-1:0];
    assign epoch_end = (cyc == EPOCH - 1);
    assign mode = mode_q;
    assign count = cnt;
    always @(posedge clk) begin
        if (rst || restart) begin
            cnt <= {W{1'b0}};
            cyc <= {EW{1'b0}};
            mode_q <= 1'b1;
        end else if (epoch_end) begin
            cnt <= {W{1'b0}};
            cyc <= {EW{1'b0}};
            mode_q <= !(total < thr);
        end else begin
            cnt <= total;
            cyc <= cyc + 1'b1;
        end
    end
endmodule
