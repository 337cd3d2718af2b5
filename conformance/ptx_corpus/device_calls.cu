// __noinline__ device functions, which nvcc keeps as .func and `call`:
// arguments of several types, return values (a scalar and a struct), a void
// function writing through a pointer, nested calls, calls from divergent
// control flow; a function with barriers and its own __shared__ array; a
// function reading the kernel's shared array through a pointer.
struct Pair {
  int a;
  float b;
};

__device__ __noinline__ int mix(int a, unsigned b, float c, long long d) {
  return a * 3 + (int)(b >> 1) - (int)(c * 2.0f) + (int)(d % 1000);
}

__device__ __noinline__ float poly(float x) { return x * x * 0.25f + 1.5f * x - 2.0f; }

// Calls two other functions.
__device__ __noinline__ int nested(int a, int b) {
  return mix(a, b, poly((float)(b & 15)), (long long)a * b) + 1;
}

__device__ __noinline__ Pair make_pair(int a, float b) { return Pair{a + 1, b * 2.0f}; }

__device__ __noinline__ int use_pair(Pair p) { return p.a + (int)p.b; }

__device__ __noinline__ void store_pair(int* out, int i, int v, double w) {
  out[2 * i] = v;
  out[2 * i + 1] = (int)w;
}

// out[2i], out[2i+1] from in[i]; odd and even inputs call different functions.
extern "C" __global__ void device_calls(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int r;
  if (v & 1) {
    r = nested(v, i);
  } else {
    r = mix(v, i, 0.5f, -v);
  }
  Pair p = make_pair(v, 1.25f);
  store_pair(out, i, r, use_pair(p) * 0.5);
}

__shared__ int call_tile[256];

// The block's sum of v (blockDim.x a power of two up to 256), with barriers
// inside the function.
__device__ __noinline__ int block_sum(int v) {
  call_tile[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) call_tile[threadIdx.x] += call_tile[threadIdx.x + s];
    __syncthreads();
  }
  int r = call_tile[0];
  __syncthreads();
  return r;
}

// out[i] = in[i] * the sum of in over i's block; called by all threads.
extern "C" __global__ void call_barrier(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[i] = v * block_sum(v);
}

// The sum of p[0..3]: a generic pointer, to shared memory in call_shared_pointer.
__device__ __noinline__ int sum4(const int* p) { return p[0] + p[1] + p[2] + p[3]; }

// out[i] = in[i] + in[i+1] + in[i+2] + in[i+3] within each block of 64 threads
// (wrapping inside the block), read through a shared array by a function.
extern "C" __global__ void call_shared_pointer(const int* in, int* out) {
  __shared__ int window[128];
  int t = threadIdx.x, i = blockIdx.x * 64 + t;
  window[t] = in[i];
  window[t + 64] = in[i];
  __syncthreads();
  out[i] = sum4(&window[t]);
}
