// Compiled first so that every testbench and RTL module gets a 1 ns time unit.
`timescale 1ns/1ps
