#ifndef TRITON_MUSA_TRITONGPU_OPS_TD
#define TRITON_MUSA_TRITONGPU_OPS_TD

include "dialects/TritonGPU/IR/TritonGPUDialect.td"

#endif // TRITON_MUSA_TRITONGPU_OPS_TD
