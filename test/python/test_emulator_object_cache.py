"""The emulator's object cache (issue 22): a kernel's host object code, kept in Triton's cache by
``load_kernel``, is linked again by the next load of the same kernel without compiling, and runs
the same; a bad image is an error for ``emulator_load_cached`` and is compiled again (and replaced) by
``load_kernel``. And the startup memos (startup_cache.py): a file's remembered digest is read again
when the file changes, and Triton's ``triton_key()`` keeps its value."""

from __future__ import annotations

import ctypes
import os
import struct
from pathlib import Path
from typing import Any, List

import pytest

from triton_musa import _musa_mlir
from triton_musa.backend import emulator_launcher, startup_cache

# out[t] = in[t] * 3 + block, for 64 threads of two warps (one block per launch here).
MODULE = """
module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  llvm.func @__musa_emu_thread_id(i32) -> i32
  llvm.func @__musa_emu_block_id(i32) -> i32
  llvm.func @triple(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>) attributes {musa.kernel} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %tid = llvm.call @__musa_emu_thread_id(%c0) : (i32) -> i32
    %bid = llvm.call @__musa_emu_block_id(%c0) : (i32) -> i32
    %p = llvm.getelementptr %in[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %v = llvm.load %p : !llvm.ptr<1> -> i32
    %m = llvm.mul %v, %c3 : i32
    %r = llvm.add %m, %bid : i32
    %q = llvm.getelementptr %out[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %r, %q : i32, !llvm.ptr<1>
    llvm.return
  }
}
"""


def run(kernel: Any) -> List[int]:
    src = (ctypes.c_int32 * 64)(*range(64))
    out = (ctypes.c_int32 * 64)()
    kernel.launch((1, 1, 1), struct.pack("<QQ", ctypes.addressof(src), ctypes.addressof(out)),
                  [(ctypes.addressof(src), 256, "argument 'in'"), (ctypes.addressof(out), 256, "argument 'out'")])
    return list(out)


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TRITON_MUSA_EMULATOR_OBJECT_CACHE", raising=False)
    return tmp_path


def images(root: Path) -> List[Path]:
    return sorted(root.rglob("kernel.emuobj"))


def test_second_load_links_the_cached_object(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = emulator_launcher.load_kernel(MODULE)
    assert run(first) == [3 * i for i in range(64)]
    assert len(images(cache_dir)) == 1

    def no_compile(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the second load compiled the kernel again")

    monkeypatch.setattr(_musa_mlir, "emulator_load", no_compile)
    second = emulator_launcher.load_kernel(MODULE)
    assert (second.name, second.param_kinds, second.num_warps, second.warp_size) == ("triple", ["ptr", "ptr"], 2, 32)
    assert second.host_ir == first.host_ir
    assert run(second) == [3 * i for i in range(64)]


def test_counting_build_is_cached_apart(cache_dir: Path) -> None:
    emulator_launcher.load_kernel(MODULE)
    counting = emulator_launcher.load_kernel(MODULE, count_instructions=True)
    assert len(images(cache_dir)) == 2
    src = (ctypes.c_int32 * 64)()
    out = (ctypes.c_int32 * 64)()
    instructions, _ = counting.launch((1, 1, 1), struct.pack("<QQ", ctypes.addressof(src), ctypes.addressof(out)),
                                      [(ctypes.addressof(src), 256, "in"), (ctypes.addressof(out), 256, "out")])
    assert instructions > 0


def test_bad_image_is_compiled_again(cache_dir: Path) -> None:
    emulator_launcher.load_kernel(MODULE)
    (image, ) = images(cache_dir)
    data = image.read_bytes()
    image.write_bytes(data[:len(data) // 2])  # truncated
    with pytest.raises(_musa_mlir.EmulatorError, match="not a kernel cache image"):
        _musa_mlir.emulator_load_cached(image.read_bytes())
    kernel = emulator_launcher.load_kernel(MODULE)
    assert run(kernel) == [3 * i for i in range(64)]
    assert image.read_bytes() == data  # replaced by the new build's image


def test_object_cache_off(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_MUSA_EMULATOR_OBJECT_CACHE", "0")
    assert run(emulator_launcher.load_kernel(MODULE)) == [3 * i for i in range(64)]
    assert images(cache_dir) == []
    monkeypatch.setenv("TRITON_MUSA_EMULATOR_OBJECT_CACHE", "sometimes")
    with pytest.raises(ValueError, match="TRITON_MUSA_EMULATOR_OBJECT_CACHE"):
        emulator_launcher.load_kernel(MODULE)


def test_file_digest_follows_the_file(cache_dir: Path) -> None:
    import hashlib
    path = cache_dir / "lib.bin"
    path.write_bytes(b"one")
    first = startup_cache.file_digest(str(path), startup_cache.file_stamp(str(path)))
    assert first == hashlib.sha256(b"one").hexdigest()
    path.write_bytes(b"three")
    os.utime(path, ns=(1, 1))
    second = startup_cache.file_digest(str(path), startup_cache.file_stamp(str(path)))
    assert second == hashlib.sha256(b"three").hexdigest()
    # Remembered: a later process (here: the cache of this one cleared) reads the memo, not the file.
    startup_cache.file_digest.cache_clear()
    assert startup_cache.file_digest(str(path), startup_cache.file_stamp(str(path))) == second


def test_triton_key_memo_keeps_tritons_value(cache_dir: Path) -> None:
    from triton.runtime import cache
    original = getattr(cache.triton_key, "__wrapped_triton_key__", cache.triton_key)
    memoized = startup_cache._memoized_triton_key(original)
    assert memoized() == original()
    # A second process: the memo file answers.
    again = startup_cache._memoized_triton_key(lambda: pytest.fail("triton_key was computed again"))
    assert again() == original()
