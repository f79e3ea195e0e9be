// Kernels of the front end's own test suite for recursive device functions, which nvcc
// cannot inline: each thread recurses to a depth that depends on its data, so the lanes of a
// warp are at different depths at once; one function keeps a local array per activation; one
// recursion is deep enough to overflow the default stack.

// Fibonacci by double recursion (nvcc turns one of the two calls into a loop; the other
// stays a real call): fib(n) for a per-thread n.
__device__ __noinline__ unsigned fib(unsigned n) {
    if (n < 2) return n;
    return fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void fib_kernel(const unsigned *n, unsigned *out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = fib(n[i]);
}

// Recursive bisection of [lo, hi) over a sorted array: the number of elements below `key`,
// found by splitting the range in two and recursing into both halves that may hold some
// (depth ~ log2 of the range, data-dependent per thread).
__device__ __noinline__ int count_below(const float *a, int lo, int hi, float key) {
    if (hi - lo <= 2) {
        int c = 0;
        for (int j = lo; j < hi; ++j) c += a[j] < key;
        return c;
    }
    if (a[lo] >= key) return 0;
    if (a[hi - 1] < key) return hi - lo;
    int mid = (lo + hi) / 2;
    return count_below(a, lo, mid, key) + count_below(a, mid, hi, key);
}

extern "C" __global__ void bisect_kernel(const float *a, int n, const float *keys, int *out,
                                         int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = count_below(a, 0, n, keys[i]);
}

// A local array per activation, indexed by data (so it lives in local memory, in the
// activation's frame): each level fills its array, recurses, then reads its own array again
// (the callee must not have overwritten it).
__device__ __noinline__ unsigned mix(unsigned x, int depth) {
    unsigned buf[8];
    for (int j = 0; j < 8; ++j) buf[j] = x * (2 * j + 1) + depth;
    unsigned r = 0;
    if (depth > 0) r = mix(buf[x & 7] ^ (x >> 3), depth - 1);
    return buf[(x + r) & 7] + 3 * r;
}

extern "C" __global__ void mix_kernel(const unsigned *x, const int *depth, unsigned *out,
                                      int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = mix(x[i], depth[i]);
}

// A recursive sum over a per-thread n, kept from becoming a loop by a volatile read after
// the call: deep enough (n in the thousands) to overflow the stack.
__device__ __noinline__ long long sum_to(int n, const volatile int *one) {
    if (n <= 0) return 0;
    long long s = sum_to(n - 1, one);
    return s * one[0] + n;
}

extern "C" __global__ void sum_kernel(const int *n, const int *one, long long *out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = sum_to(n[i], one);
}
