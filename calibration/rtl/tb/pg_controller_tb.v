// Testbench for pg_controller.
// Check mode (default, needs the default BET=14, WAKE=3 and a d_thr of 5):
// (1) the single-domain timelines of power-gating section 8.3 (D=5,
// BET=14, W=3, domain busy through cycle 0, one instruction of latency 1
// wanted at cycle d): the per-cycle labels (. idle-detect, u/c gated, w
// wakeup, B busy), the issue cycle and the critical-wakeup flag; the Gt case
// uses a second instance with GT=1. (2) +cycles=N (default 4000) random
// cycles (bursty busy, random wake requests, policy, suppression and
// threshold) checked against a behavioural model of the spec table that
// counts completed gated cycles g directly.
// Stimulus mode: +stim [+cycles=N] [+seed=S]: random busy bursts and idle
// runs (geometric lengths), wake requests whenever gated work is waiting.
// Either mode: +vcd=FILE [+vcddepth=D] dumps pg_controller_tb.dut.
module pg_controller_tb;
    integer vcddepth;  // +vcddepth=D: dump D levels below dut (default 0: all)
    parameter IDLE_W = 4;
    parameter BET_W  = 5;
    parameter WK_W   = 3;
    parameter BET    = 14;
    parameter WAKE   = 3;
    localparam S_IDLE = 0, S_UNC = 1, S_COMP = 2, S_WAKE = 3;
    reg clk = 1'b0, rst = 1'b1;
    reg busy = 0, wake_req = 0, blackout = 0, suppress = 0;
    reg [IDLE_W-1:0] d_thr = 5;
    wire [1:0] state, state_gt;
    wire sleep, usable, wake_ok, critical, sleep_gt, usable_gt, wake_ok_gt, critical_gt;
    wire [BET_W-1:0] bk, bk_gt;
    pg_controller #(.IDLE_W(IDLE_W), .BET_W(BET_W), .WK_W(WK_W), .BET(BET), .WAKE(WAKE), .GT(0)) dut (
        .clk(clk), .rst(rst), .busy(busy), .wake_req(wake_req), .blackout(blackout),
        .suppress(suppress), .d_thr(d_thr), .state(state), .sleep(sleep), .usable(usable),
        .wake_ok(wake_ok), .critical(critical), .bk(bk));
    pg_controller #(.IDLE_W(IDLE_W), .BET_W(BET_W), .WK_W(WK_W), .BET(BET), .WAKE(WAKE), .GT(1)) dut_gt (
        .clk(clk), .rst(rst), .busy(busy), .wake_req(wake_req), .blackout(blackout),
        .suppress(suppress), .d_thr(d_thr), .state(state_gt), .sleep(sleep_gt), .usable(usable_gt),
        .wake_ok(wake_ok_gt), .critical(critical_gt), .bk(bk_gt));
    always #5 clk = ~clk;

    reg [8*512-1:0] vcdfile;
    reg [8*64-1:0]  tl;
    integer i, t, fails, checks, cycles, seed, issue_at, run, ms, mcnt, mg, mwk, crit_seen;
    reg stim, mcrit, w_ok, crit_now, want_work, use_gt;

    // One 8.3 case: returns the timeline string in tl, the issue cycle, and
    // whether a critical wakeup was seen.
    task timeline;
        input integer d;
        input bo;
        input gt;
        reg [1:0] st;
        reg ok, us;
        begin
            blackout = bo; suppress = 0; d_thr = 5; use_gt = gt;
            rst = 1; busy = 0; wake_req = 0;
            @(posedge clk); #1 rst = 0;
            busy = 1;                         // cycle 0: busy
            @(posedge clk); #1;
            tl = ""; issue_at = -1; crit_seen = 0;
            for (t = 1; t < 60 && issue_at < 0; t = t + 1) begin
                st = gt ? state_gt : state;
                ok = gt ? wake_ok_gt : wake_ok;
                us = gt ? usable_gt : usable;
                busy = 0; wake_req = 0;
                if (t >= d) begin
                    if (us) begin busy = 1; issue_at = t; end
                    else if (ok) wake_req = 1;
                end
                #1;
                if (gt ? critical_gt : critical) crit_seen = 1;
                @(posedge clk); #1;
                st = gt ? state_gt : state;
                tl = {tl[8*63-1:0], busy ? "B" : st == S_IDLE ? "." : st == S_UNC ? "u" :
                                    st == S_COMP ? "c" : "w"};
            end
            busy = 0; wake_req = 0;
        end
    endtask

    task expect_tl;
        input integer d;
        input bo;
        input gt;
        input [8*64-1:0] want;
        input integer want_issue;
        input integer want_crit;
        begin
            timeline(d, bo, gt);
            checks = checks + 1;
            if (tl !== want || issue_at != want_issue || crit_seen != want_crit) begin
                fails = fails + 1;
                $display("timeline d=%0d bo=%0d gt=%0d: %0s issue %0d crit %0d; expected %0s issue %0d crit %0d",
                         d, bo, gt, tl, issue_at, crit_seen, want, want_issue, want_crit);
            end
        end
    endtask

    initial begin
        if (!$value$plusargs("vcddepth=%d", vcddepth)) vcddepth = 0;
        if ($value$plusargs("vcd=%s", vcdfile)) begin
            $dumpfile(vcdfile);
            $dumpvars(vcddepth, dut);
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("cycles=%d", cycles)) cycles = 4000;
        stim = $test$plusargs("stim");
        fails = 0; checks = 0;
        if (!stim && BET == 14 && WAKE == 3) begin
            expect_tl(6, 0, 0, ".....B", 6, 0);
            expect_tl(7, 0, 0, ".....uwwwB", 10, 0);
            expect_tl(12, 0, 0, ".....uuuuuuwwwB", 15, 0);
            expect_tl(12, 1, 0, ".....uuuuuuuuuuuuuuwwwB", 23, 1);
            expect_tl(25, 1, 0, ".....uuuuuuuuuuuuuucccccwwwB", 28, 0);
            expect_tl(25, 0, 0, ".....uuuuuuuuuuuuuucccccwwwB", 28, 0);
            expect_tl(7, 0, 1, "......B", 7, 0);
        end
        // random traffic against the model
        rst = 1; @(posedge clk); #1 rst = 0;
        ms = S_IDLE; mcnt = 0; mg = 0; mwk = 0; run = 0; want_work = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            // bursty activity: alternate busy and idle runs of random length
            if (run == 0) begin
                busy = !busy;
                run = busy ? 1 + ($unsigned($random(seed)) % 6) : 1 + ($unsigned($random(seed)) % 40);
            end
            run = run - 1;
            if (stim) begin
                want_work = busy;
                wake_req = (state == S_UNC || state == S_COMP) && want_work && wake_ok;
                if (!usable) busy = 0;
                if (i % 500 == 0) blackout = $random(seed);
            end else begin
                if (state != S_IDLE && !(state == S_WAKE && mwk == WAKE)) busy = 0;
                wake_req = $random(seed);
                if (i % 97 == 0) blackout = $random(seed);
                if (i % 53 == 0) suppress = (($unsigned($random(seed)) % 4) == 0);
                if (i % 71 == 0) d_thr = $unsigned($random(seed)) % 8;
            end
            #1;
            // model: permission and critical flag at the start of the cycle
            w_ok = (ms == S_UNC || ms == S_COMP) && (!blackout || mg >= BET);
            crit_now = wake_req && w_ok && blackout && (mg == BET);
            if (!stim) begin
                checks = checks + 1;
                if (state !== ms || wake_ok !== w_ok || critical !== crit_now ||
                    usable !== (ms == S_IDLE || (ms == S_WAKE && mwk == WAKE))) begin
                    fails = fails + 1;
                    if (fails <= 10)
                        $display("mismatch cycle %0d: state %0d ok %b crit %b, expected %0d %b %b (g=%0d)",
                                 i, state, wake_ok, critical, ms, w_ok, crit_now, mg);
                end
            end
            @(posedge clk);
            if (ms == S_IDLE || (ms == S_WAKE && mwk == WAKE)) begin
                if (ms == S_WAKE) mcnt = 0;
                if (busy) begin ms = S_IDLE; mcnt = 0; end
                else if (!suppress && mcnt >= d_thr) begin
                    ms = (BET >= 1) ? S_UNC : S_COMP; mg = 1;
                end else begin
                    ms = S_IDLE;
                    if (mcnt < (1 << IDLE_W) - 1) mcnt = mcnt + 1;
                end
            end else if (ms == S_UNC || ms == S_COMP) begin
                if (wake_req && w_ok) begin ms = S_WAKE; mwk = 1; end
                else begin
                    ms = (mg + 1 <= BET) ? S_UNC : S_COMP;
                    if (mg < 1000) mg = mg + 1;
                end
            end else
                mwk = mwk + 1;
            #1;
        end
        if (stim) begin
            $display("STIM pg_controller: %0d cycles", cycles);
            $finish;
        end
        if (fails != 0) begin
            $display("FAIL pg_controller: %0d of %0d checks wrong", fails, checks);
            $fatal(1, "pg_controller_tb failed");
        end
        $display("PASS pg_controller: %0d/%0d checks", checks, checks);
        $finish;
    end
endmodule
