//! `techlib` — technology nodes as data: devices, wires, SRAM cells and operating points, with
//! the physics (drive, delay, leakage vs Vdd and temperature) as methods.
