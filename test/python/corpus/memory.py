"""Memory access forms: atomics, block pointers, tensor descriptors (device-made and
host TensorDescriptor arguments), gathers, indirect and cache-hinted loads/stores."""

import triton
import triton.language as tl

from ._entry import entry


@triton.jit
def atomic_rmw_kernel(f_ptr, i_ptr, u_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    xf = x.to(tl.float32)
    tl.atomic_add(f_ptr + offs % 16, xf, mask=mask)
    tl.atomic_add(f_ptr + 16, 1.0)  # scalar atomic
    tl.atomic_max(i_ptr + offs % 8, x, mask=mask, sem="relaxed")
    tl.atomic_min(i_ptr + 8 + offs % 8, x, mask=mask, sem="acquire", scope="cta")
    tl.atomic_max(f_ptr + 17 + offs % 4, xf, mask=mask)
    tl.atomic_and(u_ptr + offs % 4, x.to(tl.uint32), mask=mask, sem="release")
    tl.atomic_or(u_ptr + 4 + offs % 4, x.to(tl.uint32), mask=mask, scope="sys")
    tl.atomic_xor(u_ptr + 8 + offs % 4, x.to(tl.uint32), mask=mask, sem="acq_rel", scope="gpu")
    old = tl.atomic_xchg(i_ptr + 16 + offs, x, mask=mask)
    tl.store(x_ptr + offs, old, mask=mask)


@triton.jit
def atomic_cas_kernel(lock_ptr, counter_ptr, out_ptr):
    # A spin lock: scalar compare-and-swap in a while loop, then release with xchg.
    while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire") == 1:
        pass
    count = tl.load(counter_ptr)
    tl.store(counter_ptr, count + 1)
    tl.atomic_xchg(lock_ptr, 0, sem="release")
    offs = tl.arange(0, 64)
    prev = tl.atomic_cas(out_ptr + offs, tl.zeros([64], dtype=tl.int32), offs)
    tl.atomic_add(out_ptr + 64 + offs, prev)


@triton.jit
def block_ptr_kernel(a_ptr, out_ptr, M, N, stride_m, stride_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(a_ptr, shape=(M, N), strides=(stride_m, stride_n), offsets=(pid * BLOCK_M, 0),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        acc += tl.load(src, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        src = tl.advance(src, (0, BLOCK_N))
    dst = tl.make_block_ptr(out_ptr, shape=(M, BLOCK_N), strides=(BLOCK_N, 1), offsets=(pid * BLOCK_M, 0),
                            block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(dst, acc, boundary_check=(0, ))


@triton.jit
def tensor_desc_device_kernel(a_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    tile = src.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    dst.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile * 2)


@triton.jit
def tensor_desc_host_kernel(a_desc, b_desc, c_desc, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr):
    # A TMA/TME-style matmul: every operand tile comes from a host-built TensorDescriptor.
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K, num_stages=3):
        a = a_desc.load([off_m, k])
        b = tl.load_tensor_descriptor(b_desc, [k, off_n])
        acc = tl.dot(a, b, acc)
    tl.store_tensor_descriptor(c_desc, [off_m, off_n], acc.to(tl.float16))


@triton.jit
def tensor_desc_3d_kernel(in_desc, out_ptr, BLOCK: tl.constexpr):
    t = in_desc.load([tl.program_id(0), 0, 0])  # [1, BLOCK, BLOCK]
    r = tl.reshape(t, [BLOCK, BLOCK])
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], r)


@triton.jit
def tensor_desc_gather_kernel(in_desc, idx_ptr, out_ptr, BLOCK_X: tl.constexpr, BLOCK_Y: tl.constexpr):
    rows = tl.load(idx_ptr + tl.arange(0, BLOCK_X))
    tile = in_desc.gather(rows, 0)
    offs_x = tl.arange(0, BLOCK_X)
    offs_y = tl.arange(0, BLOCK_Y)
    tl.store(out_ptr + offs_x[:, None] * BLOCK_Y + offs_y[None, :], tile)


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    src = tl.load(src_ptr + r * C + c)
    idx = tl.load(idx_ptr + r * C + c)
    tl.store(out_ptr + r * C + c, tl.gather(src, idx, axis=1))


@triton.jit
def indirect_kernel(table_ptr, idx_ptr, out_ptr, n, D: tl.constexpr, BLOCK: tl.constexpr):
    # Embedding-style gather through a pointer tensor, with cache and eviction hints.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    rows = tl.load(idx_ptr + offs, mask=mask, other=0, cache_modifier=".ca")
    d = tl.arange(0, D)
    vals = tl.load(table_ptr + rows[:, None].to(tl.int64) * D + d[None, :], mask=mask[:, None], other=0.0,
                   eviction_policy="evict_last")
    flag = tl.load(idx_ptr + n, volatile=True)
    tl.store(out_ptr + offs[:, None] * D + d[None, :], vals + flag.to(tl.float32), mask=mask[:, None],
             cache_modifier=".cs", eviction_policy="evict_first")


ENTRIES = [
    entry("atomic_rmw", atomic_rmw_kernel, {"f_ptr": "*fp32", "i_ptr": "*i32", "u_ptr": "*u32", "x_ptr": "*i32",
                                            "n": "i32"}, {"BLOCK": 256}),
    entry("atomic_cas", atomic_cas_kernel, {"lock_ptr": "*i32", "counter_ptr": "*i32", "out_ptr": "*i32"},
          num_warps=2),
    entry("block_ptr", block_ptr_kernel, {"a_ptr": "*fp16", "out_ptr": "*fp32", "M": "i32", "N": "i32",
                                          "stride_m": "i64", "stride_n": "i64"}, {"BLOCK_M": 64, "BLOCK_N": 64}),
    entry("tensor_desc_device", tensor_desc_device_kernel, {"a_ptr": "*fp16", "out_ptr": "*fp16", "M": "i32",
                                                            "N": "i32"}, {"BLOCK_M": 64, "BLOCK_N": 64},
          aligned=("a_ptr", "out_ptr")),
    entry("tensor_desc_host_matmul", tensor_desc_host_kernel,
          {"a_desc": "tensordesc<fp16[128,64]>", "b_desc": "tensordesc<fp16[64,128]>",
           "c_desc": "tensordesc<fp16[128,128]>", "K": "i32"}, {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
          num_warps=8, num_stages=3),
    entry("tensor_desc_3d", tensor_desc_3d_kernel, {"in_desc": "tensordesc<fp32[1,32,32]>", "out_ptr": "*fp32"},
          {"BLOCK": 32}),
    entry("tensor_desc_gather", tensor_desc_gather_kernel, {"in_desc": "tensordesc<bf16[1,128]>",
                                                            "idx_ptr": "*i32", "out_ptr": "*bf16"},
          {"BLOCK_X": 32, "BLOCK_Y": 128}),
    entry("gather", gather_kernel, {"src_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32"}, {"R": 32, "C": 64}),
    entry("indirect_load", indirect_kernel, {"table_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32",
                                             "n": "i32"}, {"D": 64, "BLOCK": 32}),
]
