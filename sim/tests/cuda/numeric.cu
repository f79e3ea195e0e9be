// Numeric kernels of the front end's own test suite: double precision, half-precision
// conversions, bit manipulation and a structure passed by value.
#include <cuda_fp16.h>

struct Affine { float scale; int offset; double bias; };

// Double precision: square root, division, fused multiply-add.
extern "C" __global__ void f64_math(const double *x, double *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = x[i];
        y[i] = sqrt(v) / (v + 1.0) + fma(v, 0.5, -0.25);
    }
}

// f32 -> f16 -> f32 round trip and an f16 product done in f32.
extern "C" __global__ void f16_convert(const float *x, float *y, unsigned short *h, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half a = __float2half(x[i]);
        h[i] = __half_as_ushort(a);
        y[i] = __half2float(a) * 2.0f;
    }
}

// Bit manipulation: bit reverse, leading zeros, find-first-set, byte permute, funnel shift,
// bit-field extract.
extern "C" __global__ void bitops(const unsigned *x, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = x[i];
        out[6 * i + 0] = __brev(v);
        out[6 * i + 1] = __clz(v);
        out[6 * i + 2] = __ffs(v);
        out[6 * i + 3] = __byte_perm(v, 0x01234567u, 0x5140);
        out[6 * i + 4] = __funnelshift_l(v, 0xdeadbeefu, i & 31);
        out[6 * i + 5] = (v >> (i % 20)) & 0x3ffu;
    }
}

// A structure passed by value.
extern "C" __global__ void affine(Affine a, const float *x, double *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (double)(x[i] * a.scale + (float)a.offset) + a.bias;
}

// Atomics beyond add: or, and, xor, inc, max, min and compare-and-swap, on global and shared
// memory.
extern "C" __global__ void atomics_mix(const unsigned *x, unsigned *g, int n) {
    __shared__ unsigned s[4];
    if (threadIdx.x < 4) s[threadIdx.x] = threadIdx.x == 1 ? 0xffffffffu : 0u;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = x[i];
        atomicOr(&s[0], v);
        atomicAnd(&s[1], v | 0x0f0f0f0fu);
        atomicXor(&s[2], v);
        atomicInc(&g[0], 1000000u);
        atomicMax(&g[1], v);
        atomicMin(&g[2], v);
        unsigned old = g[3], assumed;
        do { assumed = old; old = atomicCAS(&g[3], assumed, assumed + (v & 7)); } while (old != assumed);
    }
    __syncthreads();
    if (threadIdx.x < 3) {
        if (threadIdx.x == 0) atomicOr(&g[4], s[0]);
        if (threadIdx.x == 1) atomicAnd(&g[5], s[1]);
        if (threadIdx.x == 2) atomicXor(&g[6], s[2]);
    }
}
