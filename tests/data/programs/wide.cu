// A kernel with a double-precision scalar parameter: the tests check that a program refuses
// to pass it (the launch packs .u32/.s32/.b32/.f32/.u64/.s64/.b64 parameters).
extern "C" __global__ void scale_f64(double *y, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * y[i];
}
