#ifndef TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H
#define TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H

#include "catalogue/MatrixInstrs.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/MUSAGPU/IR/MUSAGPUDialect.h.inc"
#include "dialects/MUSAGPU/IR/MUSAGPUEnums.h.inc"

namespace mlir::musagpu {

/// Parses/prints `[a, b, ...]` (layout arrays in attribute syntax).
FailureOr<SmallVector<unsigned>> parseUnsignedArray(AsmParser &parser);
/// A MatrixFragment by its name (`sqmma_squad`, `wgmma_warpgroup`, ...).
FailureOr<MatrixFragment> parseMatrixFragment(AsmParser &parser);
void printUnsignedArray(AsmPrinter &printer, ArrayRef<unsigned> values);

/// Whether `type` is a shaped buffer in shared memory: a !ttg.memdesc in
/// #ttg.shared_memory, or a memref in address space 3.
bool isSharedMemoryBuffer(Type type);

//===----------------------------------------------------------------------===//
// Hardware rules, shared by verifiers and lowerings (MUSA-FACTS.md)
//===----------------------------------------------------------------------===//

/// Smallest and largest bytes one TME box moves along its innermost dim.
constexpr int64_t kTMEMinBoxInnerBytes = 32;
constexpr int64_t kTMEMaxBoxInnerBytes = 256;
constexpr unsigned kTMEMaxRank = 5;

/// One hardware TME load/store of a box split along its innermost dim.
struct TMEBoxSplit {
  /// Box of this piece, innermost dimension first.
  SmallVector<int64_t> box;
  /// Offset of the piece along the innermost dimension, in elements; add
  /// it to the innermost coordinate.
  int64_t innerOffset;
  /// Offset of the piece in the shared buffer, in elements. Pieces are
  /// stored one after another, each a dense sub-box (inferred from public
  /// MUSA code: each 256-byte-wide column block is its own tile).
  int64_t sharedOffset;
};

/// Splits `box` (innermost first) of `elementBitWidth`-bit elements into the
/// TME instructions that move it. The rule: a box of at most 256 bytes along
/// its innermost dimension is one instruction; a wider one is cut into
/// 256-byte pieces and must be a multiple of 256 bytes. Fails (reporting
/// through `emitError` if given) on an illegal box: rank not 1..5, empty
/// dimension, elements not a whole number of bytes, fewer than 32 bytes
/// innermost, or wider than 256 bytes but not a multiple of it.
FailureOr<SmallVector<TMEBoxSplit>>
getTMEBoxSplits(ArrayRef<int64_t> box, unsigned elementBitWidth,
                function_ref<InFlightDiagnostic()> emitError = nullptr,
                int64_t maxInnerBytes = kTMEMaxBoxInnerBytes);

/// The kind of `type` as an MMA input, if it is one (f32 means TF32).
std::optional<MmaElementKind> getMmaElementKind(Type type);

/// SQMMA legality: the rows of the catalogue (MatrixInstrs.h) for `target`
/// (an encoding's: getFragmentTarget of its fragment).
bool isLegalSQMMAInstrMN(MmaElementKind kind, unsigned m, unsigned n,
                         TargetKind target);
ArrayRef<unsigned> getLegalSQMMAInstrK(MmaElementKind kind,
                                       TargetKind target);
/// The legal M x N list of `kind`, for diagnostics ("32x32, 32x64, ...").
std::string describeLegalSQMMAInstrMN(MmaElementKind kind, TargetKind target);

/// WMMA legality for capability major version `versionMajor` (2: QY2, 3: PH1):
/// the rows of the catalogue for `target`, lowered or not.
bool isLegalWMMAInstrShape(MmaElementKind kind, unsigned versionMajor,
                           ArrayRef<unsigned> instrShape, TargetKind target);
/// The legal WMMA atoms of `kind`, for diagnostics ("32x32x16, ...").
std::string describeLegalWMMAInstrShapes(MmaElementKind kind,
                                         unsigned versionMajor,
                                         TargetKind target);

} // namespace mlir::musagpu

#define GET_ATTRDEF_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUAttrDefs.h.inc"

#define GET_OP_CLASSES
#include "dialects/MUSAGPU/IR/MUSAGPUOps.h.inc"

#endif // TRITON_MUSA_DIALECTS_MUSAGPU_IR_DIALECT_H
