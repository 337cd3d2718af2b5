// A switch on an opcode with early returns from inside cases, a default and
// fall-through; a small interpreter step per element.
extern "C" __global__ void switch_returns(const int* ops, const int* args, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = args[i];
  int r = 0;
  switch (ops[i]) {
    case 0:
      r = v + 1;
      break;
    case 1:
      if (v < 0) {
        out[i] = -1;
        return;
      }
      r = v * 2;
      break;
    case 2:
      r = v - 3;
      // fall through
    case 3:
      r += v * v;
      break;
    case 4:
      out[i] = v >> 1;
      return;
    case 7:
      r = v ^ 0x55;
      break;
    case 9:
      return;  // out[i] untouched
    default:
      r = -v;
      break;
  }
  out[i] = r * 10 + ops[i];
}
