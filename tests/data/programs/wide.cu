// A kernel with a double-precision scalar parameter: the tests pass one from a program file.
extern "C" __global__ void scale_f64(double *y, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * y[i];
}
