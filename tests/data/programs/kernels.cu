// Test kernels of the user-program tests (tests/program_cli.rs). The PTX beside this file is
// what `nvcc -ptx -arch=sm_75 -O3 kernels.cu` writes; the tests run it without nvcc.

// y = a·x + y
extern "C" __global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// out[i] = (in[i-1] + in[i] + in[i+1]) · 1/3 with zero padding, through a shared-memory tile;
// the CTA must have 256 threads (.maxntid 256 from __launch_bounds__).
extern "C" __global__ void __launch_bounds__(256) smooth(float *out, const float *in, int n)
{
    __shared__ float tile[258];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    tile[t] = i < n ? in[i] : 0.0f;
    if (threadIdx.x == 0)
        tile[0] = (i > 0 && i - 1 < n) ? in[i - 1] : 0.0f;
    if (threadIdx.x == blockDim.x - 1)
        tile[t + 1] = (i + 1 < n) ? in[i + 1] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = ((tile[t - 1] + tile[t]) + tile[t + 1]) * 0.33333334f;
}

// count += number of x[i] > thresh (one atomic per element above)
extern "C" __global__ void count_above(unsigned *count, const float *x, float thresh, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > thresh)
        atomicAdd(count, 1u);
}

// v[i] = v[i]·k + i
extern "C" __global__ void scale_index(int *v, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * k + i;
}
