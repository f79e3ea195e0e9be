// Integer ALU lane, WIDTH bits (default 32), registered result.
// op: 0 add, 1 sub, 2 and, 3 or, 4 xor, 5 sll, 6 srl, 7 sra,
//     8 slt (signed a<b -> 1), 9 sltu, 10 min (signed), 11 max (signed),
//     12 minu, 13 maxu, 14..15 give 0.
// Shift amounts are b[SHW-1:0], SHW = clog2(WIDTH); amounts >= WIDTH give
// 0 (or all sign bits for sra) when WIDTH is not a power of two.
module alu32 #(
    parameter WIDTH = 32
) (
    input                  clk,
    input      [3:0]       op,
    input      [WIDTH-1:0] a,
    input      [WIDTH-1:0] b,
    output reg [WIDTH-1:0] y
);
    localparam SHW = (WIDTH <= 2) ? 1 : $clog2(WIDTH);

    wire [WIDTH:0]   diff = {1'b0, a} - {1'b0, b};
    wire             ltu  = diff[WIDTH];
    wire             lts  = (a[WIDTH-1] ^ b[WIDTH-1]) ? a[WIDTH-1] : ltu;
    wire [SHW-1:0]   sh   = b[SHW-1:0];

    reg [WIDTH-1:0] r;
    always @* begin
        case (op)
            4'd0:  r = a + b;
            4'd1:  r = diff[WIDTH-1:0];
            4'd2:  r = a & b;
            4'd3:  r = a | b;
            4'd4:  r = a ^ b;
            4'd5:  r = a << sh;
            4'd6:  r = a >> sh;
            4'd7:  r = $signed(a) >>> sh;
            4'd8:  r = {{(WIDTH - 1){1'b0}}, lts};
            4'd9:  r = {{(WIDTH - 1){1'b0}}, ltu};
            4'd10: r = lts ? a : b;
            4'd11: r = lts ? b : a;
            4'd12: r = ltu ? a : b;
            4'd13: r = ltu ? b : a;
            default: r = {WIDTH{1'b0}};
        endcase
    end

    always @(posedge clk) y <= r;
endmodule
