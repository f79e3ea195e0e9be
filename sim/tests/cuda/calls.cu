// Kernels of the front end's own test suite for calls nvcc cannot inline: virtual functions
// through a vtable (objects built by one kernel, used by another, so the dynamic type is
// unknown at compile time) and a table of function pointers indexed by data, plus a kernel
// that calls whatever address it is given (an invalid one must stop the kernel with an error).
#include <new>

struct Shape {
    float s;
    __device__ Shape(float s) : s(s) {}
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const = 0;
    __device__ virtual void grow(float f) { s *= f; }
};
struct Square : Shape {
    __device__ Square(float s) : Shape(s) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Triangle : Shape {
    __device__ Triangle(float s) : Shape(s) {}
    __device__ float area() const override { return 0.4330127f * s * s; }
    __device__ int sides() const override { return 3; }
    __device__ void grow(float f) override { s += f; }
};
struct Hexagon : Shape {
    __device__ Hexagon(float s) : Shape(s) {}
    __device__ float area() const override { return 2.5980762f * s * s; }
    __device__ int sides() const override { return 6; }
};

// Builds object i in its 16-byte slot: Square, Triangle or Hexagon by kind[i] % 3.
extern "C" __global__ void build_shapes(char *slots, const int *kind, const float *size, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    void *p = slots + 16 * i;
    switch (kind[i] % 3) {
    case 0: new (p) Square(size[i]); break;
    case 1: new (p) Triangle(size[i]); break;
    default: new (p) Hexagon(size[i]); break;
    }
}

// Virtual calls: grow each shape by f, then its area and its number of sides.
extern "C" __global__ void shape_areas(char *slots, float f, float *area, int *sides, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Shape *sh = reinterpret_cast<Shape *>(slots + 16 * i);
    sh->grow(f);
    area[i] = sh->area();
    sides[i] = sh->sides();
}

typedef int (*binop)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ binop op_table[4] = {op_add, op_sub, op_mul, op_max};

// out[i] = op_table[sel[i] & 3](a[i], b[i]).
extern "C" __global__ void apply_table(const int *sel, const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = op_table[sel[i] & 3](a[i], b[i]);
}

// The addresses of the table's functions as values (fn[k] = op_table[k]).
extern "C" __global__ void table_addresses(unsigned long long *fn) {
    int k = threadIdx.x;
    if (k < 4) fn[k] = reinterpret_cast<unsigned long long>(op_table[k]);
}

// out[i] = f(a[i], b[i]) where f is the address fn[i]: whatever the caller gives.
extern "C" __global__ void call_address(const unsigned long long *fn, const int *a, const int *b,
                                        int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = reinterpret_cast<binop>(fn[i])(a[i], b[i]);
}

// The address of a function taken in code: lanes with odd a[i] subtract, the others add.
extern "C" __global__ void pick_by_parity(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    volatile binop f = (a[i] & 1) ? op_sub : op_add;
    out[i] = f(a[i], b[i]);
}

// A node whose evaluation may call another node's: a Wrap around a Leaf is one level of
// virtual calls; a Wrap around a Wrap would recurse through the same virtual function.
struct Node {
    __device__ virtual int eval() const = 0;
};
struct Leaf : Node {
    int v;
    __device__ Leaf(int v) : v(v) {}
    __device__ int eval() const override { return v; }
};
struct Wrap : Node {
    const Node *inner;
    __device__ Wrap(const Node *inner) : inner(inner) {}
    __device__ int eval() const override { return 2 * inner->eval() + 1; }
};

// Slot 2k holds Leaf(k); slot 2k+1 a Wrap around slot wrap_of[k] (slot 2k: a leaf).
extern "C" __global__ void build_nodes(char *slots, const int *wrap_of, int pairs) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= pairs) return;
    new (slots + 32 * (2 * k)) Leaf(k);
    new (slots + 32 * (2 * k + 1)) Wrap(reinterpret_cast<const Node *>(slots + 32 * wrap_of[k]));
}

// out[i] = the value of node i.
extern "C" __global__ void eval_nodes(const char *slots, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = reinterpret_cast<const Node *>(slots + 32 * i)->eval();
}
