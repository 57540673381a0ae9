//===- Launch.cpp - Blocks, the grid and the worker pool ------------------===//
//
// One worker (the launching thread, or one of a pool of threads kept
// between launches: WorkerPool) runs one block at a time: it maps (or takes
// from a pool) the fiber stacks and shared memory, schedules the block's
// fibers round-robin until every thread has finished, and reports the
// first failing block's error or a deadlock.
//
//===----------------------------------------------------------------------===//

#include "emulator/RuntimeState.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>

#include <pthread.h>
#include <sched.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <unistd.h>

using namespace mlir::triton_musa::emulator;
using namespace mlir::triton_musa::emulator::runtime;

//===----------------------------------------------------------------------===//
// Blocks and the grid
//===----------------------------------------------------------------------===//

static void *mapMemory(size_t bytes, bool low) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_32BIT
  // Shared pointers are 32-bit on MUSA: a buffer below 2 GiB survives a
  // round trip through an i32.
  if (low) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags | MAP_32BIT,
                   -1, 0);
    if (p != MAP_FAILED)
      return p;
  }
#endif
  (void)low;
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

namespace {
/// The pool of WorkerMemory between launches, at most kPooledMemories.
std::mutex memoryPoolMutex;
std::vector<std::unique_ptr<WorkerMemory>> memoryPool;
constexpr size_t kPooledMemories = 64;
} // namespace

/// Memory for `threads` fibers of `stackBytes` each (a page multiple) and
/// `sharedBytes` (a page multiple) of shared memory: a pooled one that fits,
/// else a new mapping; null if it cannot be mapped. The shared memory
/// starts zeroed, as in a fresh mapping.
static std::unique_ptr<WorkerMemory> acquireMemory(uint32_t threads,
                                                   size_t stackBytes,
                                                   size_t sharedBytes) {
  std::unique_ptr<WorkerMemory> memory;
  {
    std::lock_guard<std::mutex> lock(memoryPoolMutex);
    for (auto it = memoryPool.begin(); it != memoryPool.end(); ++it) {
      WorkerMemory &m = **it;
      if (m.threads >= threads && m.stackBytes == stackBytes &&
          m.sharedBytes >= sharedBytes) {
        memory = std::move(*it);
        memoryPool.erase(it);
        break;
      }
    }
  }
  if (memory) {
    std::memset(memory->shared, 0, sharedBytes);
    return memory;
  }
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  memory = std::make_unique<WorkerMemory>();
  memory->stackBytes = stackBytes;
  memory->threads = threads;
  // One guard page below each stack turns an overflow into a fault rather
  // than a silent overwrite of the neighbouring stack.
  memory->perFiber = stackBytes + page;
  memory->stacksBytes = memory->perFiber * threads;
  memory->stacks =
      static_cast<char *>(mapMemory(memory->stacksBytes, false));
  if (!memory->stacks)
    return nullptr;
  for (uint32_t t = 0; t < threads; ++t)
    mprotect(memory->stacks + memory->perFiber * t, page, PROT_NONE);
  memory->sharedBytes = sharedBytes;
  memory->shared = static_cast<char *>(mapMemory(sharedBytes, true));
  if (!memory->shared)
    return nullptr;
  return memory;
}

/// Returns a worker's memory to the pool (the oldest one is unmapped when
/// the pool is full).
static void releaseMemory(std::unique_ptr<WorkerMemory> memory) {
  if (!memory)
    return;
  std::unique_ptr<WorkerMemory> dropped;
  std::lock_guard<std::mutex> lock(memoryPoolMutex);
  if (memoryPool.size() >= kPooledMemories) {
    dropped = std::move(memoryPool.front());
    memoryPool.erase(memoryPool.begin());
  }
  memoryPool.push_back(std::move(memory));
}

runtime::Worker::~Worker() { releaseMemory(std::move(memory)); }

static llvm::Error setUpWorker(Worker &w, const LaunchConfig &config) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  w.config = &config;
  w.stackBytes = config.stackBytes ? config.stackBytes : 256 * 1024;
  w.stackBytes = (w.stackBytes + page - 1) / page * page;
  size_t sharedBytes = std::max<size_t>(config.sharedBytes, 16);
  sharedBytes = (sharedBytes + page - 1) / page * page;
  w.memory = acquireMemory(config.numThreads, w.stackBytes, sharedBytes);
  if (!w.memory)
    return llvm::createStringError(
        "cannot map %zu bytes of fiber stacks and %zu of shared memory",
        (w.stackBytes + page) * config.numThreads, sharedBytes);
  w.shared = w.memory->shared;
  w.fibers.resize(config.numThreads);
  for (uint32_t t = 0; t < config.numThreads; ++t) {
    Fiber &f = w.fibers[t];
    f.worker = &w;
    f.tid = t;
    f.lane = t % config.warpSize;
    f.warp = t / config.warpSize;
    f.stackLow = w.memory->stacks + w.memory->perFiber * t + page;
  }
  uint32_t numWarps = (config.numThreads + config.warpSize - 1) / config.warpSize;
  w.warps.resize(numWarps);
  for (Warp &warp : w.warps)
    for (auto &slots : warp.slots)
      slots.assign(config.warpSize, 0);
  w.squads.resize((numWarps + kSquadWarps - 1) / kSquadWarps);
  for (Squad &squad : w.squads)
    for (auto &slots : squad.slots)
      slots.assign(kSquadWarps * config.warpSize, 0);
  return llvm::Error::success();
}

/// Runs one block to completion; false if a thread failed (w.error says why).
static bool runBlock(Worker &w) {
  const LaunchConfig &config = *w.config;
  for (Fiber &f : w.fibers) {
    f.done = false;
    f.wait = Fiber::Wait::None;
    f.collectives = 0;
    f.squadCollectives = 0;
    f.pendingSQMMA = 0;
    f.knownOver = SQMMAKnowledge{};
    f.seenPhases.fill(0);
    // Copies never waited for are dropped with their block, as their data
    // was never guaranteed to land.
    f.pendingCopies.clear();
    prepareFiber(w, f);
  }
  for (Warp &warp : w.warps) {
    warp.live = 0;
    warp.arrived = 0;
  }
  for (Squad &squad : w.squads) {
    squad.live = 0;
    squad.arrived = 0;
    squad.gen = 0;
  }
  for (Fiber &f : w.fibers) {
    ++w.warps[f.warp].live;
    ++w.squads[f.warp / kSquadWarps].live;
  }
  w.live = config.numThreads;
  w.arrived = 0;
  w.blockGen = 0;
  w.asyncBarriers.fill(AsyncBarrier());
  w.recordedBarriers = 0;
  w.tmeStores = w.tmeCommits = 0;
  // A failed block may leave its batches' stores behind.
  w.pendingBatches.clear();
  w.pendingStores.clear();
  for (Warp &warp : w.warps)
    warp.gen = 0;
  if (config.raceCheck)
    w.shadow.assign(config.sharedBytes, ShadowByte());
  w.sqmmaReads.clear();
  w.sqmmaIssues = 0;
  w.tmeLandings.clear();
  // What checkGlobal's own fast path accepts.
  w.fastBounds = FastBounds();
  if (w.lastBuffer < config.buffers.size()) {
    const Buffer &last = config.buffers[w.lastBuffer];
    w.fastBounds.globalLo = last.base;
    w.fastBounds.globalHi = last.base + last.bytes;
  }
  if (!config.raceCheck) {
    w.fastBounds.sharedLo = reinterpret_cast<uint64_t>(w.shared);
    w.fastBounds.sharedHi = w.fastBounds.sharedLo + config.sharedBytes;
  }
  tlsWorker = &w;
  DefaultFloatingPointControl floatingPointControl;
  while (w.live > 0) {
    bool progress = false;
    for (size_t i = 0; i < w.fibers.size(); ++i) {
      if (!runnable(w, w.fibers[i]))
        continue;
      w.fibers[i].wait = Fiber::Wait::None;
      tlsFiber = &w.fibers[i];
      switchToFiber(w, w.fibers[i]);
      // The fiber that switched back (yieldToNext may have run later ones).
      Fiber &f = *tlsFiber;
      tlsFiber = nullptr;
      i = f.tid;
      progress = true;
      if (w.failed)
        return false;
      if (!f.done)
        continue;
      if (f.pendingSQMMA) {
        w.failed = true;
        w.error = "kernel '" + config.kernelName + "', " +
                  describeThread(w, f) + ": " +
                  std::to_string(f.pendingSQMMA) +
                  " SQMMA instruction(s) issued and never waited for "
                  "(llvm.musa.sqmma.wait)";
        return false;
      }
      // A finished thread no longer holds back the barriers of the others.
      --w.live;
      Warp &warp = w.warps[f.warp];
      --warp.live;
      Squad &squad = w.squads[f.warp / kSquadWarps];
      --squad.live;
      if (squad.arrived > 0 && squad.arrived == squad.live) {
        squad.arrived = 0;
        ++squad.gen;
      }
      if (w.arrived > 0 && w.arrived == w.live) {
        w.arrived = 0;
        ++w.blockGen;
      }
      if (warp.arrived > 0 && warp.arrived == warp.live) {
        warp.arrived = 0;
        ++warp.gen;
      }
    }
    if (!progress) {
      std::string waiting, asyncBarriers;
      std::array<bool, abi::kAsyncBarrierMaxId + 1> named{};
      for (const Fiber &f : w.fibers) {
        if (f.done)
          continue;
        if (f.wait == Fiber::Wait::Async && !named[f.waitBarrier]) {
          named[f.waitBarrier] = true;
          asyncBarriers +=
              llvm::formatv("; thread {0} waits for phase parity {1} of {2}",
                            f.tid, f.waitGen,
                            describeAsyncBarrier(
                                f.waitBarrier,
                                w.asyncBarriers[f.waitBarrier]))
                  .str();
        }
        if (waiting.size() < 200)
          waiting += llvm::formatv(
              " {0}({1})", f.tid,
              f.wait == Fiber::Wait::Block  ? "block"
              : f.wait == Fiber::Wait::Warp ? "warp"
              : f.wait == Fiber::Wait::Squad ? "squad"
                                            : "async barrier " +
                                                  std::to_string(
                                                      f.waitBarrier));
      }
      w.failed = true;
      w.error = llvm::formatv("kernel '{0}', program id ({1}, {2}, {3}): "
                              "deadlock: threads wait at barriers that can "
                              "never complete (thread(barrier):{4}){5}",
                              config.kernelName, w.blockId[0], w.blockId[1],
                              w.blockId[2], waiting, asyncBarriers)
                    .str();
      return false;
    }
  }
  return true;
}

namespace {
/// The threads that run a launch's blocks beside the launching thread. They
/// outlive their launch and wait for the next one: starting and joining a
/// thread costs more than a small launch's blocks (50 us of a 3-block
/// vector add that takes 150 us). A launch hands the pool copies of its
/// work loop (`run`); copies that no thread has started by the time the
/// launching thread's own copy returns are withdrawn, so a launch whose
/// caller took every block never waits for a thread to wake up. Launches
/// from several threads at once share the pool, which grows to the largest
/// demand. The threads are never joined (the pool is never destroyed, so
/// none is destroyed while it waits); a forked child, which has none of
/// them, starts a fresh pool.
class WorkerPool {
public:
  static WorkerPool &get() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      pthread_atfork(nullptr, nullptr, [] { instance = new WorkerPool(); });
    });
    WorkerPool *pool = instance.load();
    if (!pool) {
      auto *fresh = new WorkerPool();
      if (instance.compare_exchange_strong(pool, fresh))
        pool = fresh;
      else
        delete fresh;
    }
    return *pool;
  }

  /// Runs `job` on the calling thread and on up to `copies` pool threads;
  /// returns once the caller's copy and every copy a pool thread started
  /// have returned.
  void run(unsigned copies, llvm::function_ref<void()> job) {
    Group group;
    std::vector<Task> tasks(copies, Task{&group, job, currentCpu()});
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (Task &task : tasks)
        queue.push_back(&task);
      queued.store(queue.size(), std::memory_order_relaxed);
      for (; idle < queue.size(); ++idle)
        std::thread([this] { serve(); }).detach();
    }
    // Outside the lock: a woken thread does not wait for it.
    for (unsigned i = 0; i < copies; ++i)
      wake.notify_one();
    job();
    std::unique_lock<std::mutex> lock(mutex);
    llvm::erase_if(queue, [&](Task *task) { return task->group == &group; });
    queued.store(queue.size(), std::memory_order_relaxed);
    group.finished.wait(lock, [&] { return group.running == 0; });
  }

private:
  struct Group {
    unsigned running = 0; // copies started and not yet returned
    std::condition_variable finished;
  };
  struct Task {
    Group *group;
    llvm::function_ref<void()> job;
    int launcherCpu; // the core the launching thread ran on, or -1
  };

  /// The core the calling thread runs on, or -1 where that is unknown.
  static int currentCpu() {
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
  }

  /// Runs `task` off the launching thread's core: a thread woken for a
  /// launch is often placed on its waker's core, where the two share one
  /// core for the whole launch; moving it there costs two system calls,
  /// and only when it landed there.
  static void runAwayFrom(const Task &task) {
#if defined(__linux__)
    cpu_set_t allowed;
    if (task.launcherCpu < 0 || currentCpu() != task.launcherCpu ||
        sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
      task.job();
      return;
    }
    cpu_set_t elsewhere = allowed;
    CPU_CLR(task.launcherCpu, &elsewhere);
    bool moved = CPU_COUNT(&elsewhere) > 0 &&
                 sched_setaffinity(0, sizeof(elsewhere), &elsewhere) == 0;
    task.job();
    if (moved)
      sched_setaffinity(0, sizeof(allowed), &allowed);
#else
    task.job();
#endif
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return !queue.empty(); });
      Task task = *queue.front();
      queue.pop_front();
      queued.store(queue.size(), std::memory_order_relaxed);
      --idle;
      ++task.group->running;
      lock.unlock();
      runAwayFrom(task);
      lock.lock();
      ++idle;
      if (--task.group->running == 0)
        task.group->finished.notify_all();
      if (queue.empty()) {
        // Launches come back to back (a benchmark, a test suite): a thread
        // that waits a little before it sleeps is still running, on its own
        // core, when the next one starts; one woken from sleep often starts
        // on the launching thread's core and takes no block from it.
        lock.unlock();
        auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
        while (queued.load(std::memory_order_relaxed) == 0 &&
               std::chrono::steady_clock::now() < until)
          pause();
        lock.lock();
      }
    }
  }

  static void pause() {
#if defined(__x86_64__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
  }

  static constexpr std::chrono::microseconds kSpinBeforeSleep{500};
  std::atomic<size_t> queued{0}; // queue.size(), read without the lock

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Task *> queue; // copies not yet started, of every launch
  size_t idle = 0;          // threads waiting for a copy, or about to
  static inline std::atomic<WorkerPool *> instance{nullptr};
};
} // namespace

llvm::Expected<LaunchStats>
mlir::triton_musa::emulator::launch(EntryFn entry,
                                    const std::vector<uint64_t> &slots,
                                    const LaunchConfig &config) {
  if (config.numThreads == 0 || config.warpSize == 0)
    return llvm::createStringError("a block needs at least one thread");
  uint64_t numBlocks =
      uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  LaunchStats stats;
  stats.blocks = numBlocks;
  if (numBlocks == 0)
    return stats;
  unsigned workers = config.numWorkers
                         ? config.numWorkers
                         : std::max(1u, std::thread::hardware_concurrency());
  workers = unsigned(std::min<uint64_t>(workers, numBlocks));

  std::atomic<uint64_t> nextBlock{0};
  std::atomic<bool> stop{false};
  std::mutex errorMutex;
  std::string firstError;
  uint64_t firstErrorBlock = ~uint64_t(0);
  std::atomic<uint64_t> instructions{0};
  LiveBuffers live;

  auto work = [&]() {
    Worker w;
    w.liveBuffers = &live;
    w.entry = entry;
    w.slots = slots.data();
    if (llvm::Error err = setUpWorker(w, config)) {
      std::lock_guard<std::mutex> lock(errorMutex);
      firstError = llvm::toString(std::move(err));
      firstErrorBlock = 0;
      stop = true;
      return;
    }
    while (!stop.load(std::memory_order_relaxed)) {
      uint64_t block = nextBlock.fetch_add(1);
      if (block >= numBlocks)
        break;
      w.blockId = {uint32_t(block % config.grid[0]),
                   uint32_t(block / config.grid[0] % config.grid[1]),
                   uint32_t(block / config.grid[0] / config.grid[1])};
      if (!runBlock(w)) {
        std::lock_guard<std::mutex> lock(errorMutex);
        // Report the lowest failing block: the same error whatever the
        // interleaving of the workers.
        if (block < firstErrorBlock) {
          firstErrorBlock = block;
          firstError = w.error;
        }
        stop = true;
        break;
      }
    }
    tlsWorker = nullptr;
    instructions += w.instructions;
  };

  if (workers == 1)
    work();
  else
    WorkerPool::get().run(workers - 1, work);
  if (!firstError.empty())
    return llvm::createStringError(firstError);
  stats.instructions = instructions;
  return stats;
}
