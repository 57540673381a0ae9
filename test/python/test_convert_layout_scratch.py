"""ttg.convert_layout through its swizzled, vectorized shared-memory scratch, on the CPU emulator for
both archs (mp_31 warp 32, mp_22 warp 128): each kernel loads a tensor in one layout, converts it
and stores it with addresses computed in the result layout itself (not converted), so any wrong
slot of the scratch layout (swizzle, vector grouping, owner predicate) moves an element and the
exact comparison fails. Runs with the race check (the barrier between the stores and the loads).
A second test evaluates each thread's scratch addresses in the lowered IR and checks that the
accesses of a warp are free of bank conflicts.
Layouts: transposing blocked pairs (scalar, conflict-free), pairs sharing register vectors (vector
accesses), broadcasting sources (owner threads store), and seeded random #ttg.linear pairs."""

from __future__ import annotations

import random
import re
import struct
import subprocess
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

torch = pytest.importorskip("torch")

from triton_musa.backend.emulator_launcher import load_kernel  # noqa: E402
from triton_musa.backend.lowering import lower_for_emulator  # noqa: E402
from triton_musa.backend.target import parse_arch  # noqa: E402
from test_corpus import find_musa_opt  # noqa: E402

WARP_SIZES = {"mp_31": 32, "mp_22": 128}
NUM_WARPS = 4
# torch dtype, TTGIR element type (i1 travels as i8 in memory and is compared to zero after the load)
DTYPES = {"f32": (torch.float32, "f32"), "f16": (torch.float16, "f16"), "i8": (torch.int8, "i8"),
          "f64": (torch.float64, "f64"), "i1": (torch.int8, "i1")}


def blocked(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int]) -> str:
    return (f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, "
            f"warpsPerCTA = {list(wpc)}, order = {list(order)}}}>")


def linear(reg: List[List[int]], lane: List[List[int]], warp: List[List[int]]) -> str:
    return f"#ttg.linear<{{register = {reg}, lane = {lane}, warp = {warp}, block = []}}>"


def random_linear(shape: Tuple[int, int], warp_size: int, seed: int, broadcast: bool) -> str:
    """A random bijection (or, with `broadcast`, a surjection with one zero lane or warp basis) from
    register/lane/warp bits to the tensor's coordinate bits, some bases XOR-mixed."""
    rng = random.Random(seed)
    bits = [(1 << i, 0) for i in range(shape[0].bit_length() - 1)] + \
           [(0, 1 << i) for i in range(shape[1].bit_length() - 1)]
    rng.shuffle(bits)
    # Mixing a later basis into an earlier one keeps the map invertible (#ttg.linear bases move
    # along one dimension: only bases of the same dimension mix).
    for i in range(len(bits) - 1):
        same = [j for j in range(i + 1, len(bits)) if (bits[j][0] == 0) == (bits[i][0] == 0)]
        if same and rng.random() < 0.4:
            j = rng.choice(same)
            bits[i] = (bits[i][0] ^ bits[j][0], bits[i][1] ^ bits[j][1])
    n_lane, n_warp = warp_size.bit_length() - 1, NUM_WARPS.bit_length() - 1
    bases = [list(b) for b in bits]
    if broadcast:
        # One thread basis repeats: the tensor needs one more register.
        at = rng.randrange(len(bases) - n_lane - n_warp, len(bases))
        bases.insert(at, [0, 0])
    n_reg = len(bases) - n_lane - n_warp
    return linear(bases[:n_reg], bases[n_reg:n_reg + n_lane], bases[n_reg + n_lane:])


def layout_pairs(warp_size: int) -> List[Tuple[str, str, str, Tuple[int, int]]]:
    """(case id, source layout, result layout, shape)."""
    w = warp_size
    rows = lambda v, tn: blocked([1, v], [w // tn, tn], [NUM_WARPS, 1], [1, 0])  # noqa: E731
    cols = lambda v, tm: blocked([v, 1], [tm, w // tm], [1, NUM_WARPS], [0, 1])  # noqa: E731
    pairs = [
        ("transpose", cols(4, 16), rows(4, 16), (64, 64)),
        ("transpose_wide", rows(8, 8), cols(2, 32), (32, 128)),
        ("shared_vector", rows(4, 8), blocked([1, 4], [w // 16, 16], [1, NUM_WARPS], [1, 0]), (64, 64)),
        ("shared_vector_2d", blocked([2, 4], [w // 8, 8], [NUM_WARPS, 1], [1, 0]),
         blocked([2, 8], [w // 4, 4], [1, NUM_WARPS], [1, 0]), (64, 64)),
        ("broadcast_source", rows(4, 16), cols(4, 16), (4, 64)),
    ]
    for seed in range(4):
        pairs.append((f"linear_{seed}", random_linear((64, 64), w, 2 * seed, broadcast=seed % 2 == 1),
                      random_linear((64, 64), w, 2 * seed + 1, broadcast=False), (64, 64)))
    return pairs


def offsets(name: str, layout: str, shape: Tuple[int, int], out: str) -> str:
    """TTGIR computing `out` = row * shape[1] + col in `layout`."""
    m, n = shape
    t = f"tensor<{m}x{n}xi32, {layout}>"
    return f"""
    %{name}_r = tt.make_range {{end = {m} : i32, start = 0 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = {layout}}}>>
    %{name}_c = tt.make_range {{end = {n} : i32, start = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = {layout}}}>>
    %{name}_r1 = tt.expand_dims %{name}_r {{axis = 1 : i32}} : tensor<{m}xi32, #ttg.slice<{{dim = 1, parent = {layout}}}>> -> tensor<{m}x1xi32, {layout}>
    %{name}_c1 = tt.expand_dims %{name}_c {{axis = 0 : i32}} : tensor<{n}xi32, #ttg.slice<{{dim = 0, parent = {layout}}}>> -> tensor<1x{n}xi32, {layout}>
    %{name}_s = arith.constant dense<{n}> : tensor<{m}x1xi32, {layout}>
    %{name}_r2 = arith.muli %{name}_r1, %{name}_s : tensor<{m}x1xi32, {layout}>
    %{name}_rb = tt.broadcast %{name}_r2 : tensor<{m}x1xi32, {layout}> -> {t}
    %{name}_cb = tt.broadcast %{name}_c1 : tensor<1x{n}xi32, {layout}> -> {t}
    %{out} = arith.addi %{name}_rb, %{name}_cb : {t}"""


def module(arch: str, src: str, dst: str, shape: Tuple[int, int], ty: str) -> str:
    m, n = shape
    mem = "i8" if ty == "i1" else ty
    ts, td = f"tensor<{m}x{n}x{ty}, #src>", f"tensor<{m}x{n}x{ty}, #dst>"
    ms, md = f"tensor<{m}x{n}x{mem}, #src>", f"tensor<{m}x{n}x{mem}, #dst>"
    to_bool = to_mem = ""
    loaded, stored = "%v", "%w"
    if ty == "i1":
        to_bool = f"""
    %zero = arith.constant dense<0> : {ms}
    %b = arith.cmpi ne, %v, %zero : {ms}"""
        loaded = "%b"
        to_mem = f"""
    %wm = arith.extui %w : {td} to {md}"""
        stored = "%wm"
    return f"""
#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {NUM_WARPS} : i32, ttg.target = "musa:{arch}", "ttg.threads-per-warp" = {WARP_SIZES[arch]} : i32}} {{
  tt.func public @convert(%x: !tt.ptr<{mem}> {{tt.divisibility = 16 : i32}}, %y: !tt.ptr<{mem}> {{tt.divisibility = 16 : i32}}) {{
    {offsets("a", "#src", shape, "src_off")}
    {offsets("b", "#dst", shape, "dst_off")}
    %xs = tt.splat %x : !tt.ptr<{mem}> -> tensor<{m}x{n}x!tt.ptr<{mem}>, #src>
    %xp = tt.addptr %xs, %src_off : tensor<{m}x{n}x!tt.ptr<{mem}>, #src>, tensor<{m}x{n}xi32, #src>
    %v = tt.load %xp : tensor<{m}x{n}x!tt.ptr<{mem}>, #src>{to_bool}
    %w = ttg.convert_layout {loaded} : {ts} -> {td}{to_mem}
    %ys = tt.splat %y : !tt.ptr<{mem}> -> tensor<{m}x{n}x!tt.ptr<{mem}>, #dst>
    %yp = tt.addptr %ys, %dst_off : tensor<{m}x{n}x!tt.ptr<{mem}>, #dst>, tensor<{m}x{n}xi32, #dst>
    tt.store %yp, {stored} : tensor<{m}x{n}x!tt.ptr<{mem}>, #dst>
    tt.return
  }}
}}
"""


def _cases():
    for arch, warp_size in WARP_SIZES.items():
        for case, src, dst, shape in layout_pairs(warp_size):
            for dtype in DTYPES:
                yield pytest.param(arch, src, dst, shape, dtype, id=f"{arch}-{case}-{dtype}")


@pytest.mark.parametrize("arch,src,dst,shape,dtype", list(_cases()))
def test_convert_layout_through_scratch(arch: str, src: str, dst: str, shape: Tuple[int, int],
                                        dtype: str) -> None:
    torch_dtype, ty = DTYPES[dtype]
    lowered = lower_for_emulator(module(arch, src, dst, shape, ty), parse_arch(arch), source_name="convert.ttgir")
    assert lowered.shared_bytes > 0, "the conversion should go through shared memory"
    if ty == "i1":
        x = torch.randint(0, 2, shape, dtype=torch.int8) * torch.randint(1, 100, shape, dtype=torch.int8)
        expected = (x != 0).to(torch.int8)
    elif torch_dtype.is_floating_point:
        x = torch.randn(shape).to(torch_dtype)
        expected = x
    else:
        x = torch.randint(-128, 127, shape, dtype=torch_dtype)
        expected = x
    y = torch.full(shape, 77, dtype=torch_dtype)
    kernel = load_kernel(lowered.llvm_dialect)
    buffers = [(t.data_ptr(), t.numel() * t.element_size(), name) for t, name in ((x, "x"), (y, "y"))]
    kernel.launch((2, 1, 1), struct.pack("<QQ", x.data_ptr(), y.data_ptr()), buffers, race_check=True)
    assert torch.equal(y, expected), f"{int((y != expected).sum())} of {y.numel()} elements differ"


# --- bank conflicts of the scratch accesses ------------------------------------------------------------------------

_OP = re.compile(r"^\s*(?:(%\w+) = )?llvm\.([\w.]+)(.*)$")
_BINARY = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
           "shl": lambda a, b: (a << b) & 0xFFFFFFFF, "lshr": lambda a, b: a >> b,
           "mul": lambda a, b: (a * b) & 0xFFFFFFFF, "add": lambda a, b: (a + b) & 0xFFFFFFFF}
_BYTES = {"f32": 4, "f16": 2, "i8": 1, "f64": 8}


def shared_accesses(body: List[str], tid: int) -> List[Tuple[str, int, int]]:
    """(kind, byte address, bytes) of each shared-memory access of thread `tid`, in program order: the
    address arithmetic of a conversion is straight-line integer code, evaluated here."""
    env: Dict[str, Optional[int]] = {}
    accesses = []
    for line in body:
        m = _OP.match(line)
        if not m:
            continue
        name, op, rest = m.groups()
        operands = re.findall(r"%\w+", rest)
        args = [env.get(o) for o in operands]
        if op == "mlir.constant" and re.match(r"\s*\((-?\d+) : i32\)", rest):
            env[name] = int(re.match(r"\s*\((-?\d+) : i32\)", rest).group(1))
        elif op == "call" and "read.ptx.sreg.tid.x" in rest:
            env[name] = tid
        elif op == "mlir.addressof":
            env[name] = 0
        elif op in _BINARY and None not in args[:2]:
            env[name] = _BINARY[op](args[0], args[1])
        elif op == "getelementptr":
            constant = re.search(r"\[(-?\d+)\]", rest)
            env[name] = args[0] + (int(constant.group(1)) if constant else args[1])
        elif op in ("store", "load") and "!llvm.ptr<3>" in rest:
            ty = re.search(r": (?:!llvm.ptr<3> -> )?(vector<(\d+)x(\w+)>|\w+)", rest.split("}")[-1])
            count, elem = (int(ty.group(2)), ty.group(3)) if ty.group(2) else (1, ty.group(1))
            accesses.append((op, args[1] if op == "store" else args[0], count * _BYTES[elem]))
        elif name:
            env[name] = None
    return accesses


def wavefronts(addresses: List[int], size: int) -> int:
    """Bank wavefronts of one warp access (32 banks of 4 bytes; phases of min(32, 128 / size) lanes)."""
    per_phase = min(32, 128 // size)
    worst = 0
    for start in range(0, len(addresses), per_phase):
        words: Dict[int, set] = {}
        for a in addresses[start:start + per_phase]:
            for word in range(a // 4, (a + size - 1) // 4 + 1):
                words.setdefault(word % 32, set()).add(word)
        worst = max(worst, max(len(w) for w in words.values()))
    return worst


CONFLICT_CASES = [("transpose", "f32"), ("transpose", "f16"), ("transpose_wide", "f32"), ("shared_vector", "f32"),
                  ("shared_vector", "f16"), ("shared_vector_2d", "f32")]


@pytest.mark.parametrize("case,dtype", CONFLICT_CASES)
@pytest.mark.parametrize("arch", list(WARP_SIZES))
def test_scratch_accesses_are_conflict_free(arch: str, case: str, dtype: str, tmp_path) -> None:
    """The first 32 lanes of every warp's scratch stores and loads hit distinct banks in each phase
    (one wavefront), where a row-major scratch serializes a transpose's column-wise side."""
    warp_size = WARP_SIZES[arch]
    _, src, dst, shape = next(p for p in layout_pairs(warp_size) if p[0] == case)
    m, n = shape
    source = tmp_path / "convert.mlir"
    source.write_text(f"""
#src = {src}
#dst = {dst}
module attributes {{"ttg.num-warps" = {NUM_WARPS} : i32, "ttg.threads-per-warp" = {warp_size} : i32, ttg.target = "musa:{arch}"}} {{
  tt.func public @convert(%x: tensor<{m}x{n}x{dtype}, #src>) -> tensor<{m}x{n}x{dtype}, #dst> {{
    %y = ttg.convert_layout %x : tensor<{m}x{n}x{dtype}, #src> -> tensor<{m}x{n}x{dtype}, #dst>
    tt.return %y : tensor<{m}x{n}x{dtype}, #dst>
  }}
}}
""")
    pipeline = (f"--pass-pipeline=builtin.module(musa-allocate-shared-memory{{arch={arch}}},"
                f"musa-insert-barriers{{arch={arch}}},convert-tritongpu-to-musa{{arch={arch}}})")
    proc = subprocess.run([find_musa_opt(), str(source), pipeline], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    body = proc.stdout[proc.stdout.index("llvm.func @convert("):].splitlines()[1:]
    for warp in range(NUM_WARPS):
        lanes = [shared_accesses(body, warp * warp_size + lane) for lane in range(32)]
        assert all(len(a) == len(lanes[0]) for a in lanes)
        for i, (kind, _, size) in enumerate(lanes[0]):
            addresses = [a[i][1] for a in lanes]
            assert wavefronts(addresses, size) == 1, (warp, kind, i, size, addresses)
