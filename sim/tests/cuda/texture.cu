// Texture fetches through texture objects (sim/tests/cuda_texture.rs): tex1D, tex2D, tex3D and
// tex1Dfetch as nvcc compiles them (tex.{1d,2d,3d}.v4.{f32,s32}.{f32,s32}), one fetch per
// thread at coordinates the host chose, so that the test can put them on texel centres, between
// texels and outside the texture.
#include <cuda_runtime.h>

extern "C" __global__ void fetch1d(cudaTextureObject_t t, const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, x[i]);
}

extern "C" __global__ void fetch2d(cudaTextureObject_t t, const float *x, const float *y,
                                   float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, x[i], y[i]);
}

extern "C" __global__ void fetch2d4(cudaTextureObject_t t, const float *x, const float *y,
                                    float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, x[i], y[i]);
}

extern "C" __global__ void fetch3d(cudaTextureObject_t t, const float *x, const float *y,
                                   const float *z, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, x[i], y[i], z[i]);
}

extern "C" __global__ void fetch1d_int(cudaTextureObject_t t, const int *idx, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(t, idx[i]);
}
