#ifndef TRITON_MUSA_TRITONGPU_DIALECT_TD
#define TRITON_MUSA_TRITONGPU_DIALECT_TD

include "mlir/IR/OpBase.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::gpu";
  let summary = "Triton 3.6 TritonGPU IR: layouts, memory descriptors, shared-memory ops";
  let description = [{
    Our own declaration of Triton's `ttg` dialect. It parses, verifies and
    prints the TTGIR text that Triton 3.6.0 emits for a `musa:` target:
    distributed layouts (`#ttg.blocked`, `#ttg.slice`, `#ttg.dot_op`,
    `#ttg.linear`), shared-memory layouts (`#ttg.swizzled_shared`,
    `#ttg.padded_shared`, `#ttg.shared_linear`, `#ttg.nvmma_shared`,
    `#ttg.amd_rotating_shared`), the memory space `#ttg.shared_memory`, the
    types `!ttg.memdesc` and `!ttg.async.token`, and the `ttg.*` ops.

    Module attributes `"ttg.num-warps"`, `"ttg.num-ctas"`,
    `"ttg.threads-per-warp"` and `ttg.target` are verified here, and every
    tensor layout in the module is checked against them.
  }];
  let dependentDialects = ["::mlir::triton::TritonDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();

    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("ttg.num-warps");
    }
    static constexpr ::llvm::StringLiteral getNumCTAsAttrName() {
      return ::llvm::StringLiteral("ttg.num-ctas");
    }
    static constexpr ::llvm::StringLiteral getThreadsPerWarpAttrName() {
      return ::llvm::StringLiteral("ttg.threads-per-warp");
    }
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("ttg.target");
    }
  }];
}

#endif // TRITON_MUSA_TRITONGPU_DIALECT_TD
