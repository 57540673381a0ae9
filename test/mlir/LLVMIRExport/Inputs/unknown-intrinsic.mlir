// A ballot of QY2's width in a module for PH1: the table gives PH1's i32.
module attributes {ttg.target = "musa:mp_31"} {
  llvm.func @llvm.musa.vote.ballot.sync(i1) -> i128
  llvm.func @k() attributes {musa.kernel} {
    llvm.return
  }
}
