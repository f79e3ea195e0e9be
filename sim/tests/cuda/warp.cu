// Warp-level kernels of the front end's own test suite (sim/tests/cuda_kernels.rs): shuffles,
// votes, match, the active mask and lane masks, as nvcc emits them at -O3.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Block sum: a shuffle-down tree per warp, one atomicAdd per warp.
extern "C" __global__ void reduce_shfl(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, v);
}

// Inclusive scan within each warp with shuffle-up.
extern "C" __global__ void scan_shfl(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (i < n) out[i] = v;
}

// Butterfly all-reduce (max) over 16-lane groups, then a broadcast of lane 3 of each group.
extern "C" __global__ void xor_bcast(const int *in, int *out_max, int *out_b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : -2147483647;
    int m = v;
    for (int d = 8; d > 0; d >>= 1)
        m = max(m, __shfl_xor_sync(0xffffffffu, m, d, 16));
    int b = __shfl_sync(0xffffffffu, v, 3, 16);
    if (i < n) { out_max[i] = m; out_b[i] = b; }
}

// Votes: per warp, ballot of odd values, any/all of values above a threshold.
extern "C" __global__ void votes(const int *in, unsigned *ballot, int *any, int *all, int t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned b = __ballot_sync(0xffffffffu, v & 1);
    int a = __any_sync(0xffffffffu, v > t);
    int l = __all_sync(0xffffffffu, v > t);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        ballot[w] = b; any[w] = a; all[w] = l;
    }
}

// Warp-aggregated atomic append of the positive values (cooperative groups: coalesced
// threads, their rank from the lane mask, one atomicAdd per warp).
extern "C" __global__ void filter_positive(const int *in, int *out, int *count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base = 0;
        if (g.thread_rank() == 0) base = atomicAdd(count, g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = in[i];
    }
}

// match.any: for each thread, how many lanes of its warp hold the same key; the active mask
// of a divergent branch.
extern "C" __global__ void match_keys(const int *keys, int *peers, unsigned *active) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __match_any_sync(0xffffffffu, keys[i]);
    peers[i] = __popc(m);
    if (keys[i] % 3 == 0) active[i] = __activemask();
    else active[i] = 0;
}
