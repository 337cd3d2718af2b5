// match.any / match.all on 32- and 64-bit keys, and redux.sync reductions.
extern "C" __global__ void warp_match(const int* keys, const long long* keys64, unsigned* any32,
                                      unsigned* any64, unsigned* all32, int* all_pred) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = keys[t];
  any32[t] = __match_any_sync(0xffffffffu, k);
  any64[t] = __match_any_sync(0xffffffffu, keys64[t]);
  int pred;
  all32[t] = __match_all_sync(0xffffffffu, k / 100, &pred);
  all_pred[t] = pred;
}
