// Sorts each block's 256 keys ascending in shared memory with a bitonic
// network: 36 compare-exchange stages, each ended by a barrier.
#define BLOCK 256
extern "C" __global__ void bitonic_sort(unsigned* keys) {
  __shared__ unsigned s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * BLOCK;
  s[t] = keys[base + t];
  __syncthreads();
  for (unsigned size = 2; size <= BLOCK; size <<= 1) {
    for (unsigned stride = size >> 1; stride > 0; stride >>= 1) {
      unsigned partner = t ^ stride;
      if (partner > t) {
        bool ascending = (t & size) == 0;
        unsigned a = s[t], b = s[partner];
        if ((a > b) == ascending) {
          s[t] = b;
          s[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  keys[base + t] = s[t];
}
