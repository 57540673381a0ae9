//===- MatrixMultiply.cpp - WMMA and SQMMA of the emulated threads --------===//
//
// The runtime side of the matrix units: a warp's WMMA atom and a squad's
// SQMMA instruction, computed by one thread of the group for all of them
// from the fragment layouts of MatrixUnits.cpp, with the tile product
// vectorized (AVX2 where the host has it) and the 16-bit operands decoded
// run by run (F16C).
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"
#include "emulator/MatrixUnits.h"

#include <cstring>
#include <map>
#include <tuple>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;
using mlir::musagpu::lookupFragment;
using mlir::musagpu::MatrixFragment;
using mlir::musagpu::MatrixUnitKind;
using mlir::musagpu::MmaElementKind;
using mlir::musagpu::stringifyMatrixFragment;

template <typename T>
static void addTileProducts(T *__restrict c, const T *__restrict a,
                            const T *__restrict b, uint32_t M, uint32_t N,
                            uint32_t K);
static inline float decodeHalfOrBFloat(uint16_t bits, bool bf16);

extern "C" {

// One WMMA atom of the calling warp (EmulatorABI.h): every lane publishes
// where its fragments and accumulators are; the first lane to resume looks
// the atom up, decodes the warp's A and B once into dense tiles, gathers the
// accumulators into a dense C, adds the tile product (vectorized) and
// scatters C back; all leave only when the atom is done. (Each lane looking
// the atom up and computing its own accumulators cost QY2's 128-lane warps
// most of tutorial 08's time.)
static void emuWmma(int32_t kind, int32_t m, int32_t n, int32_t k,
                    const uint16_t *a, const uint16_t *b, float *acc) {
  Worker &w = *tlsWorker;
  uint32_t warpSize = w.config->warpSize;
  // On the lanes' stacks until the final barrier; a block's fibers take
  // turns on one thread, so the first lane's flag needs no lock.
  struct Fragments {
    const uint16_t *a, *b;
    float *acc;
    bool computed;
  } mine{a, b, acc, false};
  const uint64_t *published = exchange(reinterpret_cast<uint64_t>(&mine));
  auto lane = [&](uint32_t l) {
    return reinterpret_cast<Fragments *>(published[l]);
  };
  if (!lane(0)->computed) {
    lane(0)->computed = true;
    // The catalogue names the fragment of the instruction; the owner tables
    // are the emulator's own (MatrixUnits.cpp).
    MatrixFragment fragment =
        m > 0 && n > 0 && k > 0
            ? lookupFragment(MatrixUnitKind::WMMA,
                             mlir::triton_musa::TargetKind::Emulator, warpSize,
                             uint32_t(m), uint32_t(n), uint32_t(k))
            : MatrixFragment::None;
    const WMMAAtomLayout *atom =
        lookupWMMAAtom(fragment, uint32_t(m), uint32_t(n), uint32_t(k));
    if (!atom)
      failThread(llvm::formatv("no WMMA atom m{0}n{1}k{2} on {3}-thread warps "
                               "(fragment {4})",
                               m, n, k, warpSize,
                               stringifyMatrixFragment(fragment))
                     .str());
    if (kind != abi::toABI(MmaElementKind::F16) &&
        kind != abi::toABI(MmaElementKind::BF16))
      failThread(
          llvm::formatv("WMMA operand kind {0} is not emulated", kind).str());
    bool bf16 = kind == abi::toABI(MmaElementKind::BF16);
    uint32_t mm = uint32_t(m), nn = uint32_t(n), kk = uint32_t(k);
    // Each lane's fragments, read once (128 lanes on QY2).
    thread_local std::vector<Fragments *> lanes;
    lanes.resize(warpSize);
    for (uint32_t l = 0; l < warpSize; ++l)
      lanes[l] = lane(l);
    thread_local std::vector<float> denseA, denseB, denseC;
    denseA.resize(size_t(mm) * kk);
    denseB.resize(size_t(kk) * nn);
    denseC.resize(size_t(mm) * nn);
    for (uint32_t i = 0; i < mm * kk; ++i) {
      FragmentSlot s = atom->aOwner[i];
      denseA[i] = decodeHalfOrBFloat(lanes[s.lane]->a[s.reg], bf16);
    }
    for (uint32_t i = 0; i < kk * nn; ++i) {
      FragmentSlot s = atom->bOwner[i];
      denseB[i] = decodeHalfOrBFloat(lanes[s.lane]->b[s.reg], bf16);
    }
    // Every element of C has one owner (lane, register).
    const uint32_t *rows = atom->cRow.data(), *cols = atom->cCol.data();
    for (uint32_t l = 0, at = 0; l < warpSize; ++l) {
      const float *out = lanes[l]->acc;
      for (uint32_t r = 0; r < atom->cRegs; ++r, ++at)
        denseC[rows[at] * nn + cols[at]] = out[r];
    }
    // Products of 16-bit floats are exact in f32; one rounding per add, in
    // K order as the unit's.
    addTileProducts(denseC.data(), denseA.data(), denseB.data(), mm, nn, kk);
    for (uint32_t l = 0, at = 0; l < warpSize; ++l) {
      float *out = lanes[l]->acc;
      for (uint32_t r = 0; r < atom->cRegs; ++r, ++at)
        out[r] = denseC[rows[at] * nn + cols[at]];
    }
  }
  // Fragments live on the lanes' stacks: keep them until the atom is done.
  warpBarrier();
}

// The emulator's SQMMA descriptor of a tile at `tileStart` (EmulatorABI.h).
static int32_t emuSqmmaDesc(char *tileStart, int32_t leadingBytes, int32_t sg,
                            int32_t ss) {
  Worker &w = *tlsWorker;
  SQMMADescriptor desc;
  desc.start = uint64_t(tileStart - w.shared);
  desc.leadingBytes = uint32_t(leadingBytes);
  desc.granularity = sg;
  desc.stride = ss;
  uint32_t bits = 0;
  if (tileStart < w.shared ||
      desc.start >= uint64_t(w.config->sharedBytes) ||
      !encodeSQMMADescriptor(desc, bits))
    failThread(llvm::formatv("sqmma.desc: no descriptor for a tile at shared "
                             "offset {0} (of {1} bytes) with leading stride "
                             "{2} B and swizzle codes ({3}, {4})",
                             int64_t(tileStart - w.shared),
                             w.config->sharedBytes, leadingBytes, sg, ss));
  return int32_t(bits);
}

/// What one thread of a squad issues; all 128 must agree (but `acc`).
struct SQMMAIssue {
  int32_t kind, m, n, k, descA, descB, transA, transB;
  void *acc;
  bool sameInstruction(const SQMMAIssue &o) const {
    return kind == o.kind && m == o.m && n == o.n && k == o.k &&
           descA == o.descA && descB == o.descB && transA == o.transA &&
           transB == o.transB;
  }
};

} // extern "C"

/// c[M x N] += a[M x K] x b[K x N], each element's products added in k
/// order with one rounding per add (the column loop vectorizes; there is
/// no fused multiply-add in it, as the runtime is built for plain x86-64).
template <typename T>
[[gnu::always_inline]] static inline void
addTileProductsImpl(T *__restrict c, const T *__restrict a,
                    const T *__restrict b, uint32_t M, uint32_t N,
                    uint32_t K) {
  for (uint32_t row = 0; row < M; ++row) {
    T *__restrict cRow = c + size_t(row) * N;
    for (uint32_t kk = 0; kk < K; ++kk) {
      T x = a[size_t(row) * K + kk];
      const T *__restrict bRow = b + size_t(kk) * N;
      for (uint32_t col = 0; col < N; ++col) {
        T product = x * bRow[col];
        cRow[col] = cRow[col] + product;
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loop 8 lanes wide where the host has AVX2 (no FMA enabled,
// though products of the matrix units' inputs are exact in f32 anyway).
template <typename T>
[[gnu::target("avx2")]] static void
addTileProductsAVX2(T *__restrict c, const T *__restrict a,
                    const T *__restrict b, uint32_t M, uint32_t N, uint32_t K) {
  addTileProductsImpl(c, a, b, M, N, K);
}
#endif

template <typename T>
static void addTileProducts(T *__restrict c, const T *__restrict a,
                            const T *__restrict b, uint32_t M, uint32_t N,
                            uint32_t K) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2)
    return addTileProductsAVX2(c, a, b, M, N, K);
#endif
  addTileProductsImpl(c, a, b, M, N, K);
}

/// Where accumulator register r of squad thread t is in an m x n SQMMA
/// tile (row * n + col at t * regs + r), computed once per shape.
static const std::vector<uint32_t> &sqmmaAccumulatorPlaces(uint32_t m,
                                                           uint32_t n) {
  static std::mutex mutex;
  static std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> known;
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<uint32_t> &places = known[{m, n}];
  if (places.empty()) {
    uint32_t threads = kSquadWarps * 32, regs = m * n / threads;
    places.resize(size_t(threads) * regs);
    for (uint32_t t = 0; t < threads; ++t)
      for (uint32_t r = 0; r < regs; ++r) {
        SQMMACoord c = sqmmaAccumulatorCoord(m, n, t % 32, t / 32, r);
        places[size_t(t) * regs + r] = c.row * n + c.col;
      }
  }
  return places;
}

/// Operand element `i` of A or B (row-major m x k or k x n) as the matrix
/// unit reads it: its byte offset from the start of shared memory; and the
/// same as runs of elements contiguous in shared memory (a swizzle moves
/// whole granules), which 16-bit operands are decoded by.
struct SQMMAOperandOffsets {
  std::vector<uint64_t> offsets;
  struct Run {
    uint32_t index, count;
    uint64_t offset;
  };
  std::vector<Run> runs;
  /// The bytes the operand spans, [begin, end) offsets into shared memory.
  uint64_t begin = 0, end = 0;

  size_t size() const { return offsets.size(); }
  uint64_t operator[](size_t i) const { return offsets[i]; }
};

/// The offsets of a rows x cols operand read through descriptor `bits`
/// (transposed: the descriptor's contiguous dimension is the rows). They
/// depend on nothing else, and a kernel's SQMMAs read a few ring slots
/// over and over: each worker thread keeps the ones it computed.
static const SQMMAOperandOffsets &sqmmaOperandOffsets(uint32_t bits,
                                                      bool trans,
                                                      uint32_t rows,
                                                      uint32_t cols,
                                                      uint32_t elemBytes) {
  using Key = std::tuple<uint32_t, bool, uint32_t, uint32_t, uint32_t>;
  thread_local std::map<Key, SQMMAOperandOffsets> known;
  Key key{bits, trans, rows, cols, elemBytes};
  auto it = known.find(key);
  if (it != known.end())
    return it->second;
  if (known.size() >= 256)
    known.clear();
  SQMMADescriptor desc = decodeSQMMADescriptor(bits);
  SQMMAOperandOffsets result;
  std::vector<uint64_t> &offsets = result.offsets;
  offsets.resize(size_t(rows) * cols);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c)
      offsets[size_t(r) * cols + c] =
          trans ? sqmmaOperandOffset(desc, c, r, elemBytes)
                : sqmmaOperandOffset(desc, r, c, elemBytes);
  for (size_t i = 0; i < offsets.size(); ++i) {
    auto &runs = result.runs;
    if (!runs.empty() && i % cols != 0 &&
        offsets[i] == runs.back().offset + uint64_t(runs.back().count) *
                                                elemBytes)
      ++runs.back().count;
    else
      runs.push_back({uint32_t(i), 1, offsets[i]});
  }
  if (!offsets.empty()) {
    auto [low, high] = std::minmax_element(offsets.begin(), offsets.end());
    result.begin = *low;
    result.end = *high + elemBytes;
  }
  return known.emplace(key, std::move(result)).first->second;
}

/// Reads an operand of an SQMMA into `out` (read(offset) decodes one
/// element), checking every element's bounds; with the race check, every
/// element's read is recorded as one by the calling thread.
template <typename T, typename Read>
static void readSQMMAOperands(Worker &w, uint32_t elemBytes,
                              const SQMMAOperandOffsets &offsets, T *out,
                              Read read) {
  uint64_t size = w.config->sharedBytes;
  bool raceCheck = w.config->raceCheck;
  for (size_t i = 0; i < offsets.size(); ++i) {
    uint64_t offset = offsets[i];
    if (raceCheck || offset % elemBytes != 0 || offset > size ||
        elemBytes > size - offset)
      checkShared(w.shared + offset, elemBytes, elemBytes,
                  int32_t(abi::AccessKind::Load));
    out[i] = read(offset);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
/// `count` halves at `in` as floats, 8 at a time (F16C converts exactly,
/// subnormals included).
[[gnu::target("avx,f16c")]] static void decodeHalvesF16C(const char *in,
                                                         uint32_t count,
                                                         float *out) {
  uint32_t i = 0;
  for (; i + 8 <= count; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                  reinterpret_cast<const __m128i *>(in + 2 * i))));
  for (; i < count; ++i) {
    uint16_t bits;
    std::memcpy(&bits, in + 2 * i, 2);
    out[i] = _cvtsh_ss(bits);
  }
}
#endif

/// decode16BitFloat with the common cases inline.
static inline float decodeHalfOrBFloat(uint16_t bits, bool bf16) {
  uint32_t word;
  if (bf16) {
    word = uint32_t(bits) << 16;
  } else {
    uint32_t exp = (bits >> 10) & 0x1f;
    if (exp == 0 || exp == 0x1f)
      return decode16BitFloat(bits, false);
    word = (uint32_t(bits & 0x8000) << 16) | ((exp + 112) << 23) |
           (uint32_t(bits & 0x3ff) << 13);
  }
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// readSQMMAOperands for f16 and bf16 operands: a run inside shared memory
/// (and not race-checked) is decoded at once; any other element as there.
template <typename Read>
static void readSQMMA16BitOperands(Worker &w,
                                   const SQMMAOperandOffsets &offsets,
                                   float *out, bool bf16, Read read) {
  uint64_t size = w.config->sharedBytes;
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool f16c = __builtin_cpu_supports("f16c");
#endif
  for (const SQMMAOperandOffsets::Run &run : offsets.runs) {
    uint64_t bytes = uint64_t(run.count) * 2;
    float *dst = out + run.index;
    if (w.config->raceCheck || run.offset % 2 != 0 || run.offset > size ||
        bytes > size - run.offset) {
      for (uint32_t i = 0; i < run.count; ++i) {
        uint64_t offset = run.offset + 2 * uint64_t(i);
        checkShared(w.shared + offset, 2, 2, int32_t(abi::AccessKind::Load));
        dst[i] = read(offset);
      }
      continue;
    }
    const char *src = w.shared + run.offset;
#if defined(__x86_64__) && defined(__GNUC__)
    if (!bf16 && f16c) {
      decodeHalvesF16C(src, run.count, dst);
      continue;
    }
#endif
    for (uint32_t i = 0; i < run.count; ++i) {
      uint16_t bits;
      std::memcpy(&bits, src + 2 * i, 2);
      dst[i] = decodeHalfOrBFloat(bits, bf16);
    }
  }
}

extern "C" {

// One SQMMA instruction of the calling squad (EmulatorABI.h). The squad's
// 128 threads meet (like the hardware, which issues once per squad), and
// the first thread of the squad checks that all issued the same
// instruction and computes the whole tile: it reads A and B from shared
// memory once (checking each element's bounds and, in the race check, its
// read), and adds A x B to every thread's accumulators, each in its
// thread's registers as MUSA-FACTS.md's fragment lays them out
// (MatrixUnits.cpp). Each accumulator adds its products in k order, one
// rounding per add, as a thread computing only its own would. The threads
// leave together once the tile is done. The result is complete at once;
// sqmma_wait closes the count (a thread that ends with SQMMAs never waited
// for fails the launch) and, in the race check, ends the operands' reads:
// until then a store into them races (Worker::sqmmaReads).
static void emuSqmma(int32_t kind, int32_t m, int32_t n, int32_t k,
                     int32_t descA, int32_t descB, int32_t transA,
                     int32_t transB, void *acc) {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  if (w.config->warpSize != 32)
    failThread(llvm::formatv("SQMMA needs 32-thread warps, the kernel has "
                             "{0}",
                             w.config->warpSize));
  // (A warp-specialized block has more warps, which issue no SQMMA.)
  if ((f.warp / kSquadWarps + 1) * kSquadWarps > w.warps.size())
    failThread(llvm::formatv("SQMMA needs whole squads of 4 warps: warp {0} "
                             "is in a squad of fewer (the block has {1} "
                             "warps)",
                             f.warp, w.warps.size()));
  if (kind < 0 || kind > abi::toABI(MmaElementKind::E5M2) || m <= 0 || n <= 0 ||
      k <= 0 || m % 16 != 0 || n % 8 != 0)
    failThread(llvm::formatv("sqmma: invalid instruction (kind {0}, "
                             "m{1}n{2}k{3})",
                             kind, m, n, k));
  SQMMAIssue mine{kind, m, n, k, descA, descB, transA, transB, acc};
  const uint64_t *published = squadExchange(reinterpret_cast<uint64_t>(&mine));
  uint32_t squadThreads = kSquadWarps * 32;
  uint32_t first = (f.tid / squadThreads) * squadThreads;
  ++f.pendingSQMMA;
  if (f.tid != first) {
    // The issues and accumulators live on the threads' stacks: keep them
    // until the first thread has computed the tile.
    squadBarrier();
    return;
  }
  for (uint32_t t = 0; t < squadThreads; ++t) {
    auto *other = reinterpret_cast<const SQMMAIssue *>(published[t]);
    if (!other->sameInstruction(mine))
      failThread(llvm::formatv("sqmma: thread {0} of the squad issued a "
                               "different instruction (kind {1}, m{2}n{3}k{4}, "
                               "descriptors {5:x}/{6:x}) than this thread "
                               "(kind {7}, m{8}n{9}k{10}, descriptors "
                               "{11:x}/{12:x})",
                               first + t, other->kind, other->m, other->n,
                               other->k, other->descA, other->descB, kind, m,
                               n, k, descA, descB));
  }
  auto sqKind = MmaElementKind(kind);
  uint32_t elemBytes = sqKind == MmaElementKind::F16 ||
                               sqKind == MmaElementKind::BF16
                           ? 2
                       : sqKind == MmaElementKind::TF32 ? 4
                                                        : 1;
  auto M = uint32_t(m), N = uint32_t(n), K = uint32_t(k);
  // A[row][kk]: K contiguous unless transA; B[kk][col]: N contiguous unless
  // transB.
  const SQMMAOperandOffsets &aOffsets =
      sqmmaOperandOffsets(uint32_t(descA), transA, M, K, elemBytes);
  const SQMMAOperandOffsets &bOffsets =
      sqmmaOperandOffsets(uint32_t(descB), transB, K, N, elemBytes);
  if (w.config->raceCheck) {
    // The operands must have landed for the squad (its first thread
    // stands for it: the squad issues in lockstep).
    checkTMELandings(aOffsets.begin, aOffsets.end - aOffsets.begin,
                     "sqmma operand A");
    checkTMELandings(bOffsets.begin, bOffsets.end - bOffsets.begin,
                     "sqmma operand B");
    // (The reads that are over go here, not on every store's check.)
    llvm::erase_if(w.sqmmaReads, [&](const Worker::SQMMARead &read) {
      return read.waited.isOver(w.blockGen + 1);
    });
    w.sqmmaReads.push_back({{aOffsets.begin, bOffsets.begin},
                            {aOffsets.end, bOffsets.end},
                            f.warp / kSquadWarps, ++w.sqmmaIssues,
                            Worker::FirstWait()});
  }
  auto value = [&](uint64_t offset) -> float {
    const char *p = w.shared + offset;
    switch (sqKind) {
    case MmaElementKind::F16:
    case MmaElementKind::BF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return decodeHalfOrBFloat(bits, sqKind == MmaElementKind::BF16);
    }
    case MmaElementKind::TF32: {
      // (inferred) f32 rounded to tf32's 10 mantissa bits, to nearest with
      // ties away from zero, as NVIDIA's cvt.rna.tf32.f32.
      uint32_t bits;
      std::memcpy(&bits, p, 4);
      if (((bits >> 23) & 0xff) != 0xff)
        bits = (bits + 0x1000u) & ~0x1fffu;
      float x;
      std::memcpy(&x, &bits, 4);
      return x;
    }
    case MmaElementKind::E4M3:
    case MmaElementKind::E5M2:
      return decodeFp8(uint8_t(*p), sqKind == MmaElementKind::E5M2);
    case MmaElementKind::S8:
      return float(int8_t(*p));
    }
    return 0.0f;
  };
  uint32_t regs = M * N / squadThreads;
  const std::vector<uint32_t> &where = sqmmaAccumulatorPlaces(M, N);
  auto accOf = [&](uint32_t t) {
    return reinterpret_cast<const SQMMAIssue *>(published[t])->acc;
  };
  if (sqKind == MmaElementKind::S8) {
    std::vector<uint32_t> a(aOffsets.size()), b(bOffsets.size());
    auto int8At = [&](uint64_t o) {
      return uint32_t(int32_t(int8_t(w.shared[o])));
    };
    readSQMMAOperands(w, elemBytes, aOffsets, a.data(), int8At);
    readSQMMAOperands(w, elemBytes, bOffsets, b.data(), int8At);
    std::vector<uint32_t> c(size_t(M) * N);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t r = 0; r < regs; ++r)
        c[where[size_t(t) * regs + r]] =
            uint32_t(static_cast<int32_t *>(accOf(t))[r]);
    // Wrapping integer arithmetic: any order gives the same sums.
    addTileProducts(c.data(), a.data(), b.data(), M, N, K);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t r = 0; r < regs; ++r)
        static_cast<int32_t *>(accOf(t))[r] =
            int32_t(c[where[size_t(t) * regs + r]]);
  } else {
    thread_local std::vector<float> a, b, c;
    a.resize(aOffsets.size());
    b.resize(bOffsets.size());
    c.resize(size_t(M) * N);
    if (sqKind == MmaElementKind::F16 || sqKind == MmaElementKind::BF16) {
      // The common kinds run by run, without the switch per element.
      bool bf16 = sqKind == MmaElementKind::BF16;
      auto at = [&](uint64_t o) {
        uint16_t bits;
        std::memcpy(&bits, w.shared + o, 2);
        return decodeHalfOrBFloat(bits, bf16);
      };
      readSQMMA16BitOperands(w, aOffsets, a.data(), bf16, at);
      readSQMMA16BitOperands(w, bOffsets, b.data(), bf16, at);
    } else {
      readSQMMAOperands(w, elemBytes, aOffsets, a.data(), value);
      readSQMMAOperands(w, elemBytes, bOffsets, b.data(), value);
    }
    // The tile's columns go in the order col % 8, then col / 8: a thread's
    // registers of one row of the fragment (columns lane % 8 + 8 * j) are
    // then side by side in `c` and move as one copy. B's columns are
    // permuted the same way; every element's sum is unchanged.
    uint32_t colGroups = N / 8, rowGroups = M / 16;
    thread_local std::vector<float> permutedB;
    permutedB.resize(b.size());
    for (uint32_t kk = 0; kk < K; ++kk) {
      const float *from = b.data() + size_t(kk) * N;
      float *to = permutedB.data() + size_t(kk) * N;
      for (uint32_t col = 0; col < N; ++col)
        to[(col % 8) * colGroups + col / 8] = from[col];
    }
    // (sqmmaAccumulatorCoord: register rm * colGroups + j of a thread is
    // in one row, at column col0 + 8 * j.)
    auto fragmentRow = [&](uint32_t t, uint32_t rm) {
      uint32_t place = where[size_t(t) * regs + rm * colGroups];
      return c.data() + size_t(place / N) * N + (place % N % 8) * colGroups;
    };
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t rm = 0; rm < rowGroups; ++rm)
        std::memcpy(fragmentRow(t, rm),
                    static_cast<float *>(accOf(t)) + rm * colGroups,
                    colGroups * sizeof(float));
    // Products of these inputs are exact in f32; one rounding per add, in
    // k order for every element.
    addTileProducts(c.data(), a.data(), permutedB.data(), M, N, K);
    for (uint32_t t = 0; t < squadThreads; ++t)
      for (uint32_t rm = 0; rm < rowGroups; ++rm)
        std::memcpy(static_cast<float *>(accOf(t)) + rm * colGroups,
                    fragmentRow(t, rm), colGroups * sizeof(float));
  }
  squadBarrier();
}

static void emuSqmmaWait() {
  Worker &w = *tlsWorker;
  Fiber &f = *tlsFiber;
  f.pendingSQMMA = 0;
  // The squad's SQMMAs are done once one of its threads has waited.
  uint32_t squad = f.warp / kSquadWarps;
  for (Worker::SQMMARead &read : w.sqmmaReads)
    if (read.squad == squad)
      read.waited.record(w.blockGen + 1);
  if (w.config->raceCheck && squad < kRaceCheckSquads)
    f.knownOver[squad] = w.sqmmaIssues;
}

} // extern "C"

void runtime::appendMatrixMultiplySymbols(RuntimeSymbols &symbols) {
  symbols.insert(symbols.end(), {
      {abi::kWMMA.data(), reinterpret_cast<void *>(&emuWmma)},
      {abi::kSQMMADesc.data(), reinterpret_cast<void *>(&emuSqmmaDesc)},
      {abi::kSQMMA.data(), reinterpret_cast<void *>(&emuSqmma)},
      {abi::kSQMMAWait.data(), reinterpret_cast<void *>(&emuSqmmaWait)},
  });
}
