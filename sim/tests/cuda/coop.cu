// Grid-wide synchronisation (a cooperative launch), %globaltimer and a CUDA-graph conditional
// set from the device: the front end's own test suite.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A three-phase grid reduction: each CTA sums its grid-stride share into partial[cta]; after
// a grid barrier CTA 0 sums the partials into total[0]; after a second grid barrier every
// thread writes y[i] = 2 x[i] + total. Unsigned arithmetic, so the result is exact.
extern "C" __global__ void grid_sum(const unsigned *x, unsigned *partial, unsigned *total,
                                    unsigned *y, int n) {
    cg::grid_group grid = cg::this_grid();
    __shared__ unsigned s[256];
    unsigned acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned t = 0;
        for (int b = 0; b < gridDim.x; ++b) t += partial[b];
        total[0] = t;
    }
    grid.sync();
    unsigned t = total[0];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = 2u * x[i] + t;
}

// Reads %globaltimer (and its halves) `reads` times with work in between; the readings of each
// thread must never decrease.
extern "C" __global__ void timer_reads(unsigned long long *t, unsigned *lo, unsigned *work,
                                       int reads) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned w = tid;
    for (int r = 0; r < reads; ++r) {
        unsigned long long v;
        unsigned l;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
        asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(l));
        t[tid * reads + r] = v;
        lo[tid * reads + r] = l;
        for (int k = 0; k < 16 + r; ++k) w = w * 1664525u + 1013904223u;
    }
    work[tid] = w;
}

// One step of an iteration driven by a while-conditional: halves every element (one CTA) and
// keeps the loop going while any element is still nonzero; counts the steps.
extern "C" __global__ void halve_step(unsigned *x, unsigned *steps, int n,
                                      cudaGraphConditionalHandle h) {
    int any = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        unsigned v = x[i] >> 1;
        x[i] = v;
        any |= v != 0;
    }
    int go = __syncthreads_or(any);
    if (threadIdx.x == 0) {
        steps[0] += 1;
        cudaGraphSetConditional(h, go ? 1u : 0u);
    }
}
