//===- TypeConverter.h - TTGIR types to LLVM types --------------*- C++ -*-===//
//
// `!tt.ptr<T, as>` becomes `!llvm.ptr<as>`; a tensor with a distributed
// layout becomes an `!llvm.struct` of the values one thread holds, in
// register order of the layout's linear layout.
//
// A `!ttg.memdesc` (a view of a shared-memory buffer) becomes a shared
// pointer `!llvm.ptr<3>` to element 0 of the buffer the view addresses: the
// allocation's base for `ttg.local_alloc`, `ttg.memdesc_trans`,
// `ttg.memdesc_reshape` and `ttg.memdesc_reinterpret`; buffer `i` of a
// multi-buffered allocation for `ttg.memdesc_index`; and the (constant)
// start of a `ttg.memdesc_subslice` where the shared layout lets it be a
// plain byte offset. Element (c0, c1, ..) of a view is at
//   pointer + physical(S^-1(c)) * elementBytes
// with S the linear layout of the view's type over its allocation shape
// (toLinearLayout(MemDescType)) and `physical` the padding of
// #ttg.padded_shared (identity otherwise).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H
#define TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H

#include "layouts/LinearLayout.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::triton_musa {

class TargetInfo;

class TritonGPUToMUSATypeConverter : public LLVMTypeConverter {
public:
  TritonGPUToMUSATypeConverter(MLIRContext *ctx,
                               const LowerToLLVMOptions &options,
                               const TargetInfo &targetInfo);
};

} // namespace mlir::triton_musa

#endif // TRITON_MUSA_CONVERSION_TRITONGPUTOMUSA_TYPECONVERTER_H
