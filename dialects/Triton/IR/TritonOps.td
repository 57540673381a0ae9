#ifndef TRITON_MUSA_TRITON_OPS_TD
#define TRITON_MUSA_TRITON_OPS_TD

include "dialects/Triton/IR/TritonDialect.td"

#endif // TRITON_MUSA_TRITON_OPS_TD
