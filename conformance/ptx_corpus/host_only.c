/* A host object without device code (compiled by the C compiler): a
 * CU_JIT_INPUT_OBJECT input that has nothing to link, and an archive member
 * the linker skips. */
int host_only_increment(int x) { return x + 1; }
