// Tensor-core kernels of the project's own tests (sim/tests/cuda_tensor.rs): a WMMA GEMM tile
// loop in f16 with f32 and f16 accumulators, an element-wise scaling of fragments, the
// m32n8k16 and m8n32k16 shapes, bf16 fragments, and warp-level mma.sync m16n8k16 and m16n8k8
// with ldmatrix. Compiled with nvcc -ptx -O3 -arch=sm_80.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

// C[M x N] = alpha * A[M x K] * B[K x N] + beta * C, A row-major, B column-major (bcol=1) or
// row-major (bcol=0); one warp per 16x16 tile of C, blockDim.x = 32 * tiles along M.
extern "C" __global__ void wmma_gemm(const half *a, const half *b, float *c, int m, int n,
                                     int k, float alpha, float beta, int bcol) {
    int tm = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tn = blockIdx.y;
    if (tm * 16 >= m || tn * 16 >= n) return;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::load_matrix_sync(fa, a + tm * 16 * k + kk, k);
        if (bcol) {
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
            wmma::load_matrix_sync(fb, b + tn * 16 * k + kk, k);
            wmma::mma_sync(acc, fa, fb, acc);
        } else {
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
            wmma::load_matrix_sync(fb, b + kk * n + tn * 16, n);
            wmma::mma_sync(acc, fa, fb, acc);
        }
    }
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    float *cp = c + tm * 16 * n + tn * 16;
    wmma::load_matrix_sync(fc, cp, n, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
    wmma::store_matrix_sync(cp, fc, n, wmma::mem_row_major);
}

// One 16x16x16 product through shared memory with an f16 accumulator, stored column-major.
extern "C" __global__ void wmma_f16acc(const half *a, const half *b, half *c) {
    __shared__ half sa[256], sb[256];
    for (int i = threadIdx.x; i < 256; i += 32) { sa[i] = a[i]; sb[i] = b[i]; }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::fill_fragment(acc, __float2half(1.0f));
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_col_major);
}

// m32n8k16 and m8n32k16 products of f16, f32 accumulators, row-major everywhere.
extern "C" __global__ void wmma_shapes(const half *a, const half *b, float *c32x8,
                                       float *c8x32) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c32x8, acc, 8, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> ga;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> gb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> gacc;
    wmma::fill_fragment(gacc, 0.0f);
    wmma::load_matrix_sync(ga, a, 16);
    wmma::load_matrix_sync(gb, b, 32);
    wmma::mma_sync(gacc, ga, gb, gacc);
    wmma::store_matrix_sync(c8x32, gacc, 32, wmma::mem_row_major);
}

// A bf16 16x16x16 product with an f32 accumulator.
extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

// One warp: D[16x8] = A[16x16] * B[16x8] with mma.sync m16n8k16 (f16 in, f32 out), the
// fragments loaded with ldmatrix from shared memory (A row-major 16x16, B stored as B^T, i.e.
// n-major 8x16), then m16n8k8 on the first 8 columns of k, added to a second output.
extern "C" __global__ void mma_sync_tile(const half *a, const half *bt, float *d16, float *d8) {
    __shared__ __align__(16) half sa[16 * 16];
    __shared__ __align__(16) half sb[8 * 16];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sa[i] = a[i];
    for (int i = lane; i < 128; i += 32) sb[i] = bt[i];
    __syncwarp();
    unsigned a0, a1, a2, a3, b0, b1;
    // ldmatrix x4: lanes 0-15 address rows 0-15 of columns 0-7, lanes 16-31 rows 0-15 of 8-15
    const half *ap = sa + (lane % 16) * 16 + (lane / 16) * 8;
    unsigned sap = (unsigned)__cvta_generic_to_shared(ap);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(sap));
    // ldmatrix x2 of B^T: lanes 0-7 rows n of k 0-7, lanes 8-15 rows n of k 8-15
    const half *bp = sb + (lane % 8) * 16 + ((lane / 8) % 2) * 8;
    unsigned sbp = (unsigned)__cvta_generic_to_shared(bp);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(b0), "=r"(b1) : "r"(sbp));
    float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    int g = lane / 4, t = lane % 4;
    d16[g * 8 + t * 2] = c0;
    d16[g * 8 + t * 2 + 1] = c1;
    d16[(g + 8) * 8 + t * 2] = c2;
    d16[(g + 8) * 8 + t * 2 + 1] = c3;
    float e0 = 1.f, e1 = 1.f, e2 = 1.f, e3 = 1.f;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(e0), "+f"(e1), "+f"(e2), "+f"(e3)
                 : "r"(a0), "r"(a1), "r"(b0));
    d8[g * 8 + t * 2] = e0;
    d8[g * 8 + t * 2 + 1] = e1;
    d8[(g + 8) * 8 + t * 2] = e2;
    d8[(g + 8) * 8 + t * 2 + 1] = e3;
}

// mma.sync m16n8k16 on bf16 with fragments built by the threads from global memory by the
// PTX ISA's layout: A row-major 16x16, B column-major 16x8 (element (k, n) at n * 16 + k).
extern "C" __global__ void mma_bf16(const unsigned short *a, const unsigned short *b, float *d) {
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    auto pk = [](unsigned short lo, unsigned short hi) { return (unsigned)lo | ((unsigned)hi << 16); };
    unsigned a0 = pk(a[g * 16 + t * 2], a[g * 16 + t * 2 + 1]);
    unsigned a1 = pk(a[(g + 8) * 16 + t * 2], a[(g + 8) * 16 + t * 2 + 1]);
    unsigned a2 = pk(a[g * 16 + t * 2 + 8], a[g * 16 + t * 2 + 9]);
    unsigned a3 = pk(a[(g + 8) * 16 + t * 2 + 8], a[(g + 8) * 16 + t * 2 + 9]);
    unsigned b0 = pk(b[g * 16 + t * 2], b[g * 16 + t * 2 + 1]);
    unsigned b1 = pk(b[g * 16 + t * 2 + 8], b[g * 16 + t * 2 + 9]);
    float c0 = 0.5f, c1 = 0.5f, c2 = 0.5f, c3 = 0.5f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    d[g * 8 + t * 2] = c0;
    d[g * 8 + t * 2 + 1] = c1;
    d[(g + 8) * 8 + t * 2] = c2;
    d[(g + 8) * 8 + t * 2 + 1] = c3;
}
