// Kernels of the front end's own test suite for what real code needs beyond arithmetic:
// barriers with a reduction (__syncthreads_count/_and/_or), packed half-precision
// arithmetic, 128-bit integer addition (carry chains), a structure parameter indexed at run
// time (its address), device printf, and device malloc/free.
#include <cuda_fp16.h>
#include <cstdio>

struct Table { int v[16]; };

// Per CTA: how many threads see an odd value, whether all and whether any are negative.
extern "C" __global__ void barrier_reduce(const int *x, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? x[i] : 0;
    int odd = __syncthreads_count(v & 1);
    int all = __syncthreads_and(v >= 0);
    int any = __syncthreads_or(v < 0);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = odd;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}

// y = a * x + y on pairs of halves, then y * x + a.
extern "C" __global__ void half2_axpy(const __half2 *x, __half2 *y, __half2 a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 t = __hfma2(a, x[i], y[i]);
        y[i] = __hadd2(__hmul2(t, x[i]), a);
    }
}

// 128-bit sums of 64-bit operands.
extern "C" __global__ void add128(const unsigned long long *a, const unsigned long long *b,
                                  unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned __int128 x = ((unsigned __int128)a[2 * i + 1] << 64) | a[2 * i];
        unsigned __int128 y = ((unsigned __int128)b[2 * i + 1] << 64) | b[2 * i];
        unsigned __int128 s = x + y;
        out[2 * i] = (unsigned long long)s;
        out[2 * i + 1] = (unsigned long long)(s >> 64);
    }
}

// A by-value table indexed with a run-time index.
extern "C" __global__ void table_lookup(Table t, const int *idx, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = t.v[idx[i] & 15] + t.v[(idx[i] >> 4) & 15];
    }
}

// Device printf.
extern "C" __global__ void hello(int tag, float x) {
    printf("cta %d thread %d tag %d x %.3f\n", blockIdx.x, threadIdx.x, tag, x * threadIdx.x);
}

// Device malloc and free: each thread builds a small array on the heap and sums it.
extern "C" __global__ void heap_sum(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int len = 1 + i % 7;
        int *p = (int *)malloc(len * sizeof(int));
        if (p == nullptr) {
            out[i] = -1;
            return;
        }
        for (int k = 0; k < len; k++) p[k] = i * k;
        int s = 0;
        for (int k = 0; k < len; k++) s += p[k];
        free(p);
        out[i] = s;
    }
}
