"""A real swizzle (`#ttg.swizzled_shared` with maxPhase > 1) through local_alloc and local_load:
every thread's shared-memory byte address, for both archs, against the swizzle's definition
(element by element, also inside the vectors a thread stores and loads at once).

The lowered function's address arithmetic is straight-line integer code, so it is evaluated
here for every thread id (a tiny interpreter over the llvm ops it uses): the store of the
element at (row, col) must land at

    byte = elem * (row * COLS + ((col // vec) ^ ((row // perPhase) % maxPhase)) * vec + col % vec)

and every register of the loading layout must read the byte of its own element. An
identity "swizzle" (the maxPhase = 1 layouts of the lit tests) fails this.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Tuple

import pytest

from test_corpus import find_musa_opt

ROWS, COLS = 16, 64


@dataclass(frozen=True)
class Blocked:
    """A blocked layout covering the ROWS x COLS tile exactly (no repetition, no broadcast)."""
    size_per_thread: Tuple[int, int]
    threads_per_warp: Tuple[int, int]
    warps_per_cta: Tuple[int, int]
    order: Tuple[int, int]

    def attr(self) -> str:
        return (f"#ttg.blocked<{{sizePerThread = {list(self.size_per_thread)}, threadsPerWarp = "
                f"{list(self.threads_per_warp)}, warpsPerCTA = {list(self.warps_per_cta)}, order = {list(self.order)}}}>")

    def coords(self, tid: int, reg: int, warp_size: int) -> Tuple[int, int]:
        lane, warp, out = tid % warp_size, tid // warp_size, [0, 0]
        for d in self.order:  # fastest dimension first, for lanes, warps and registers alike
            lane, lane_d = divmod(lane, self.threads_per_warp[d])
            warp, warp_d = divmod(warp, self.warps_per_cta[d])
            reg, reg_d = divmod(reg, self.size_per_thread[d])
            out[d] = (warp_d * self.threads_per_warp[d] + lane_d) * self.size_per_thread[d] + reg_d
        return out[0], out[1]


# (arch, warp size, store layout, load layout): both cover 16x64 with 4 warps.
ARCHS = {
    "mp_31": (32, Blocked((1, 8), (4, 8), (4, 1), (1, 0)), Blocked((2, 4), (8, 4), (1, 4), (1, 0))),
    "mp_22": (128, Blocked((1, 2), (4, 32), (4, 1), (1, 0)), Blocked((2, 1), (8, 16), (1, 4), (0, 1))),
}
# (vec, perPhase, maxPhase): the 128-byte f16 swizzle of K-major matrix operands, and a 2-row phase.
SWIZZLES = [(8, 1, 8), (4, 2, 4)]


def _module(arch: str, warp_size: int, store: Blocked, load: Blocked, vec: int, per_phase: int, max_phase: int) -> str:
    return f"""
#store = {store.attr()}
#load = {load.attr()}
#shared = #ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = [1, 0]}}>
#smem = #ttg.shared_memory
module attributes {{"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = {warp_size} : i32, ttg.target = "musa:{arch}"}} {{
  tt.func public @swizzled(%x: tensor<{ROWS}x{COLS}xf16, #store>) -> tensor<{ROWS}x{COLS}xf16, #load> {{
    %a = ttg.local_alloc %x : (tensor<{ROWS}x{COLS}xf16, #store>) -> !ttg.memdesc<{ROWS}x{COLS}xf16, #shared, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<{ROWS}x{COLS}xf16, #shared, #smem> -> tensor<{ROWS}x{COLS}xf16, #load>
    tt.return %l : tensor<{ROWS}x{COLS}xf16, #load>
  }}
}}
"""


_OP = re.compile(r"^\s*(?:(%\w+) = )?llvm\.([\w.]+)(.*)$")
_BINARY = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
           "shl": lambda a, b: (a << b) & 0xFFFFFFFF, "lshr": lambda a, b: a >> b,
           "mul": lambda a, b: (a * b) & 0xFFFFFFFF, "add": lambda a, b: (a + b) & 0xFFFFFFFF,
           "sub": lambda a, b: (a - b) & 0xFFFFFFFF}


def _element_bytes(type_text: str) -> int:
    """Bytes of the f16/f32 elements in an op's type."""
    return 2 if "f16" in type_text else 4


def _vector_lanes(type_text: str) -> int:
    return int(re.search(r"vector<(\d+)x", type_text).group(1))


def run_thread(body: List[str], tid: int) -> Tuple[Dict[int, int], Dict[int, int]]:
    """(input register -> byte it is stored at, output register -> byte it is loaded from) for thread `tid`."""
    env: Dict[str, object] = {}
    stores: Dict[int, int] = {}
    result: Dict[int, int] = {}
    for line in body:
        m = _OP.match(line)
        if not m:
            continue
        name, op, rest = m.groups()
        operands = re.findall(r"%\w+", rest)
        if op == "mlir.constant":
            env[name] = int(re.match(r"\((-?\d+) : i\d+\)", rest.strip()).group(1))
        elif op == "call" and "read.ptx.sreg.tid.x" in rest:
            env[name] = tid
        elif op == "mlir.addressof":
            env[name] = 0
        elif op in _BINARY:
            env[name] = _BINARY[op](env[operands[0]], env[operands[1]])
        elif op == "getelementptr":
            assert rest.endswith(", i8"), f"byte addressing expected: {line}"
            env[name] = env[operands[0]] + env[operands[1]]
        elif op == "extractvalue" and operands[0] == "%arg0":
            env[name] = ("in", int(re.search(r"\[(\d+)\]", rest).group(1)))
        elif op == "mlir.undef" and "vector<" in rest:
            env[name] = {}  # vector lane -> value
        elif op == "insertelement":
            env[name] = {**env[operands[1]], env[operands[2]]: env[operands[0]]}
        elif op == "extractelement":
            vector, lane = env[operands[0]], env[operands[1]]
            assert vector[0] == "smem-vector", f"extracts from a loaded vector: {line}"
            env[name] = ("smem", vector[1] + lane * _element_bytes(rest))
        elif op == "store" and "!llvm.ptr<3>" in rest:
            value = env[operands[0]]
            lanes = value if isinstance(value, dict) else {0: value}
            assert not isinstance(value, dict) or sorted(lanes) == list(range(_vector_lanes(rest))), line
            for lane, element in lanes.items():
                assert isinstance(element, tuple) and element[0] == "in", f"stores an input register: {line}"
                stores[element[1]] = env[operands[1]] + lane * _element_bytes(rest)
        elif op == "load" and "!llvm.ptr<3>" in rest:
            env[name] = ("smem-vector" if "vector<" in rest else "smem", env[operands[0]])
        elif op == "insertvalue" and isinstance(env.get(operands[0]), tuple):
            result[int(re.search(r"\[(\d+)\]", rest).group(1))] = env[operands[0]][1]
        elif op in ("call", "return", "mlir.undef", "insertvalue", "extractvalue"):
            continue  # barriers, the result struct's spine
        else:
            pytest.fail(f"the interpreter does not know `llvm.{op}`: {line}")
    return stores, result


@pytest.mark.parametrize("vec,per_phase,max_phase", SWIZZLES)
@pytest.mark.parametrize("arch", list(ARCHS))
def test_swizzled_store_and_load_addresses(arch: str, vec: int, per_phase: int, max_phase: int, tmp_path) -> None:
    warp_size, store, load = ARCHS[arch]
    source = tmp_path / "swizzled.mlir"
    source.write_text(_module(arch, warp_size, store, load, vec, per_phase, max_phase))
    pipeline = (f"--pass-pipeline=builtin.module(musa-allocate-shared-memory{{arch={arch}}},"
                f"musa-insert-barriers{{arch={arch}}},convert-tritongpu-to-musa{{arch={arch}}})")
    proc = subprocess.run([find_musa_opt(), str(source), pipeline], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    body = proc.stdout[proc.stdout.index("llvm.func @swizzled("):].splitlines()[1:]
    assert "llvm.musa.syncthreads.lm" in proc.stdout, "no barrier between the store and the load"

    def byte(row: int, col: int) -> int:
        phase = (row // per_phase) % max_phase
        return 2 * (row * COLS + ((col // vec) ^ phase) * vec + col % vec)

    assert len({byte(r, c) for r in range(ROWS) for c in range(COLS)}) == ROWS * COLS  # a permutation
    regs_in = ROWS * COLS // (4 * warp_size)
    for tid in range(4 * warp_size):
        stores, loads = run_thread(body, tid)
        assert sorted(stores) == list(range(regs_in)), (tid, stores)
        for reg, at in stores.items():
            assert at == byte(*store.coords(tid, reg, warp_size)), (tid, reg, store.coords(tid, reg, warp_size), at)
        assert sorted(loads) == list(range(regs_in)), (tid, loads)
        for reg, at in loads.items():
            assert at == byte(*load.coords(tid, reg, warp_size)), (tid, reg, load.coords(tid, reg, warp_size), at)
