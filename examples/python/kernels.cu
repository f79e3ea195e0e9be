// Kernels of the Python examples (examples/python/*.py) and of the package's tests
// (python/tests). The PTX beside this file is what `nvcc -ptx -arch=sm_75 -O3 kernels.cu`
// writes, so neither needs nvcc; `Device.compile_cuda` compiles this file where nvcc is
// installed (`pip install nvidia-cuda-nvcc`).

// One BFS level over a CSR graph: every vertex at level `cur` labels its unvisited neighbours
// `cur + 1` and raises `*changed`. The host loops until a step changes nothing.
extern "C" __global__ void bfs_step(const int *row, const int *col, int *level, int *changed,
                                    int cur, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && level[v] == cur) {
        for (int e = row[v]; e < row[v + 1]; ++e) {
            int u = col[e];
            if (level[u] < 0) {
                level[u] = cur + 1;
                *changed = 1;
            }
        }
    }
}

// A kernel with an integer phase and a floating-point phase: a hash of the index mixed over
// `rounds` integer rounds, then a degree-`terms` polynomial evaluated in floats.
extern "C" __global__ void mix_poly(float *out, const float *x, int rounds, int terms, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned h = (unsigned)i * 2654435761u;
    for (int r = 0; r < rounds; ++r)
        h = (h ^ (h >> 13)) * 1274126177u + (unsigned)r;
    float v = x[i];
    float acc = 0.0f;
    for (int t = 0; t < terms; ++t)
        acc = acc * v + 1.0f / (float)(t + 1);
    out[i] = acc + (float)(h & 1023u) * 0.0009765625f;
}
