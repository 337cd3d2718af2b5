// Votes of every warp: ballot, any, all and the active mask, with lanes of
// odd warps leaving early so the active mask is not always full.
extern "C" __global__ void warp_vote(const int* in, unsigned* ballots, int* anys, int* alls,
                                     unsigned* active, unsigned* lanes) {
  const unsigned t = threadIdx.x;
  const unsigned warp = t / 32;
  const int x = in[t];
  // Odd warps keep only their lanes below 8 + warp.
  if ((warp & 1) && (t % 32) >= 8 + warp) return;
  const unsigned mask = __activemask();
  const unsigned ballot = __ballot_sync(mask, x > 0);
  const int any = __any_sync(mask, x > 100);
  const int all = __all_sync(mask, x >= 0);
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned lt;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  ballots[t] = ballot;
  anys[t] = any;
  alls[t] = all;
  active[t] = mask;
  // The lane, and how many lanes below it voted yes.
  lanes[t] = lane | (__popc(ballot & lt) << 8);
}
