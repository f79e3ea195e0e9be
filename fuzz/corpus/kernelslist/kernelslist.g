MemcpyHtoD,0x00007f0000001000,4096
kernel-1.traceg
MemcpyHtoD,0x10,8
kernel-1.traceg
