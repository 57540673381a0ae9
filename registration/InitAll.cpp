#include "registration/InitAll.h"

#include "conversion/TritonGPUToMUSA/Passes.h"
#include "dialects/MUSAGPU/IR/Dialect.h"
#include "dialects/Triton/IR/Dialect.h"
#include "dialects/TritonGPU/IR/Dialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::triton_musa::registerAllDialects(DialectRegistry &registry) {
  registry.insert<triton::TritonDialect, triton::gpu::TritonGPUDialect,
                  musagpu::MUSAGPUDialect, arith::ArithDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  func::FuncDialect, ub::UBDialect, index::IndexDialect,
                  gpu::GPUDialect, LLVM::LLVMDialect>();
}

void mlir::triton_musa::registerAllPasses() {
  // Upstream passes used between our stages (canonicalize, cse, ...).
  registerTransformsPasses();
  registerTritonGPUToMUSAPasses();
  registerMUSATransformsPasses();
}
