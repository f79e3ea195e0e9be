// Technology map for level-sensitive latches onto ASAP7 latch cells
// (yosys 0.23 `dfflibmap` maps flip-flops only). Use after `synth` and
// before `abc`: `techmap -map rtl/techmap/asap7_latch.v`.
// DHLx1: transparent while CLK is high; DLLx1: transparent while CLK is low.
// RVT cells by default; for another flavour or library pass the cell names
// to techmap, e.g. `techmap -D LATCH_P_CELL=DHLx1_ASAP7_75t_L
// -D LATCH_N_CELL=DLLx1_ASAP7_75t_L -map rtl/techmap/asap7_latch.v`
// (cells with pins D, CLK, Q).
`ifndef LATCH_P_CELL
`define LATCH_P_CELL DHLx1_ASAP7_75t_R
`endif
`ifndef LATCH_N_CELL
`define LATCH_N_CELL DLLx1_ASAP7_75t_R
`endif

module \$_DLATCH_P_ (input E, input D, output Q);
    `LATCH_P_CELL _TECHMAP_REPLACE_ (.CLK(E), .D(D), .Q(Q));
endmodule

module \$_DLATCH_N_ (input E, input D, output Q);
    `LATCH_N_CELL _TECHMAP_REPLACE_ (.CLK(E), .D(D), .Q(Q));
endmodule
