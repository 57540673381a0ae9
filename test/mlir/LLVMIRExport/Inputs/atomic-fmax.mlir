module {
  llvm.func @k(%x: f32, %p: !llvm.ptr<1>) attributes {musa.kernel} {
    %r = llvm.atomicrmw fmax %p, %x monotonic : !llvm.ptr<1>, f32
    llvm.return
  }
}
