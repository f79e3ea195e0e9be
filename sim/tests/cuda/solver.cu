// A multi-kernel iterative solver and a shared-memory stencil, with a device function that
// keeps a local array: the front end's own test suite.

// A 1-D 3-point stencil through a shared-memory tile with halos.
extern "C" __global__ void stencil_shared(const float *in, float *out, int n) {
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    tile[t] = i < n ? in[i] : 0.0f;
    if (threadIdx.x == 0) tile[0] = i > 0 ? in[i - 1] : 0.0f;
    if (threadIdx.x == blockDim.x - 1) tile[t + 1] = i + 1 < n ? in[i + 1] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = 0.25f * tile[t - 1] + 0.5f * tile[t] + 0.25f * tile[t + 1];
}

// A device function with a private array indexed at run time (kept in .local memory).
__device__ int digit_sum_base(unsigned v, int base) {
    int d[32];
    int k = 0;
    do { d[k++] = v % base; v /= base; } while (v && k < 32);
    int s = 0;
    for (int j = k - 1; j >= 0; --j) s += d[j] * (j + 1);
    return s;
}
extern "C" __global__ void local_digits(const unsigned *x, int *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = digit_sum_base(x[i], 3 + (i % 5));
}

// Jacobi sweep of the 1-D Poisson problem -u'' = f with u(0) = u(1) = 0.
extern "C" __global__ void jacobi_sweep(const float *u, float *unew, const float *f, float h2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float l = i > 0 ? u[i - 1] : 0.0f;
        float r = i + 1 < n ? u[i + 1] : 0.0f;
        unew[i] = 0.5f * (l + r + h2 * f[i]);
    }
}

// Squared change between two iterates, reduced per block through shared memory.
extern "C" __global__ void jacobi_delta(const float *a, const float *b, float *acc, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float d = i < n ? a[i] - b[i] : 0.0f;
    s[threadIdx.x] = d * d;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(acc, s[0]);
}
