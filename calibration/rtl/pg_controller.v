// Power-gating controller of one gating domain (power-gating section 1.3).
//
// States (encoding of `state`): 0 Idle_detect (powered, usable),
// 1 Uncompensated (gated, gated-cycle number <= BET), 2 Compensated (gated,
// gated-cycle number > BET), 3 Wakeup (powering up, not usable).
// `state` is the label of the previous cycle, i.e. the state the scheduler
// sees at the start of the current cycle; at each rising edge the label of
// the current cycle is computed from `state`, the counters and the inputs:
//  Idle_detect: busy -> Idle_detect, idle_cnt := 0;
//    !busy and idle_cnt >= d_thr (> when GT=1) and !suppress -> Uncompensated
//      (gated cycle 1; the blackout counter is loaded with BET-1);
//    otherwise idle_cnt += 1 (saturating).
//  gated: wake_req and permitted -> Wakeup (event closed); permitted = 1
//    unless `blackout`, then only when the blackout counter is 0 (at least
//    BET gated cycles done). Otherwise Uncompensated while the blackout
//    counter is non-zero, else Compensated; counter -= 1 (saturating at 0).
//  Wakeup: after WAKE cycles (counted from the request cycle) the domain is
//    Idle_detect again with idle_cnt = 0, and that cycle is evaluated with
//    the Idle_detect rules (so D = 0 gates in the first idle cycle).
// Counters: idle_cnt (IDLE_W bits), blackout counter bk = max(BET - g, 0)
// (BET_W bits, g = gated cycles done), wakeup counter wk (WK_W bits).
// Outputs: sleep (drives the sleep switch: Uncompensated or Compensated),
// usable (the domain is Idle_detect in the current cycle and may take an
// issue: state is Idle_detect, or the last Wakeup cycle has passed), wake_ok (a wake request would be accepted now),
// critical (a request is accepted in the first cycle the blackout counter
// reads zero under blackout: a critical wakeup), bk (blackout counter).
module pg_controller #(
    parameter IDLE_W = 4,
    parameter BET_W  = 5,
    parameter WK_W   = 3,
    parameter BET    = 14,
    parameter WAKE   = 3,
    parameter GT     = 0
) (
    input               clk,
    input               rst,
    input               busy,       // domain busy this cycle (incl. an issue)
    input               wake_req,   // scheduler wants this gated domain
    input               blackout,   // 1: Naive/Coordinated blackout permission rule
    input               suppress,   // 1: gating suppressed (D_eff = infinity)
    input  [IDLE_W-1:0] d_thr,      // D_eff
    output [1:0]        state,
    output              sleep,
    output              usable,
    output              wake_ok,
    output              critical,
    output [BET_W-1:0]  bk
);
    localparam [1:0] S_IDLE = 2'd0, S_UNC = 2'd1, S_COMP = 2'd2, S_WAKE = 2'd3;
    localparam [BET_W-1:0] BET_M1 = (BET > 0) ? BET - 1 : 0;

    reg [1:0]        st;
    reg [IDLE_W-1:0] idle_cnt;
    reg [BET_W-1:0]  bk_q;
    reg              first_zero;    // blackout counter reads zero for the first cycle
    reg [WK_W-1:0]   wk;

    wire gated   = (st == S_UNC) || (st == S_COMP);
    assign state = st;
    assign sleep = gated;
    assign wake_ok = gated && (!blackout || bk_q == {BET_W{1'b0}});
    wire accept  = wake_req && wake_ok;
    assign critical = accept && blackout && first_zero;
    assign bk = bk_q;

    // Idle_detect evaluation, shared by S_IDLE and the last Wakeup cycle
    wire             wk_done  = (st == S_WAKE) && (wk == WAKE);
    assign usable = (st == S_IDLE) || wk_done;
    wire [IDLE_W-1:0] cnt_now = wk_done ? {IDLE_W{1'b0}} : idle_cnt;
    wire             reach    = GT ? (cnt_now > d_thr) : (cnt_now >= d_thr);
    wire             gate_now = !busy && reach && !suppress;

    always @(posedge clk) begin
        if (rst) begin
            st <= S_IDLE;
            idle_cnt <= {IDLE_W{1'b0}};
            bk_q <= {BET_W{1'b0}};
            first_zero <= 1'b0;
            wk <= {WK_W{1'b0}};
        end else if (st == S_IDLE || wk_done) begin
            if (busy) begin
                st <= S_IDLE;
                idle_cnt <= {IDLE_W{1'b0}};
            end else if (gate_now) begin
                st <= (BET > 0) ? S_UNC : S_COMP;
                bk_q <= BET_M1;
                first_zero <= (BET == 1);
            end else begin
                st <= S_IDLE;
                idle_cnt <= (&cnt_now) ? cnt_now : cnt_now + 1'b1;
            end
        end else if (gated) begin
            if (accept) begin
                st <= S_WAKE;
                wk <= 1;
                first_zero <= 1'b0;
            end else begin
                st <= (bk_q != {BET_W{1'b0}}) ? S_UNC : S_COMP;
                bk_q <= (bk_q != {BET_W{1'b0}}) ? bk_q - 1'b1 : bk_q;
                first_zero <= (bk_q == 1);
            end
        end else begin
            // Wakeup, not yet done
            st <= S_WAKE;
            wk <= wk + 1'b1;
        end
    end
endmodule
