// Integer multiplier, WIDTH x WIDTH (default 32x32), registered low and high
// halves of the 2*WIDTH-bit product. a_signed / b_signed select two's
// complement interpretation of each operand (so {1,1} = mulh, {1,0} = mulhsu,
// {0,0} = mulhu); the low half is the same for every mode.
module imul32 #(
    parameter WIDTH = 32
) (
    input                  clk,
    input                  a_signed,
    input                  b_signed,
    input      [WIDTH-1:0] a,
    input      [WIDTH-1:0] b,
    output reg [WIDTH-1:0] lo,
    output reg [WIDTH-1:0] hi
);
    wire signed [WIDTH:0]     ax = {a_signed & a[WIDTH-1], a};
    wire signed [WIDTH:0]     bx = {b_signed & b[WIDTH-1], b};
    wire signed [2*WIDTH+1:0] p  = ax * bx;

    always @(posedge clk) begin
        lo <= p[WIDTH-1:0];
        hi <= p[2*WIDTH-1:WIDTH];
    end
endmodule
