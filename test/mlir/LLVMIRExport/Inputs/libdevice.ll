; A stand-in for the SDK's libdevice, in LLVM 14 IR.
target triple = "mtgpu-mt-musa"

define float @__mt_fast_expf(float %x) {
  %y = fmul float %x, 0x3FF7154760000000
  %r = call float @llvm.exp2.f32(float %y)
  ret float %r
}

define float @__mt_unused(float %x) {
  ret float %x
}

declare float @llvm.exp2.f32(float)
