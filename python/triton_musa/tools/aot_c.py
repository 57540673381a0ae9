"""The C pair written by ``triton_musa.tools.compile``: the mubin as bytes, a load,
an unload and a launch function over the MUSA driver API (``triton_musa_driver.h``)."""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

_C_TYPES = {"i1": "int8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
            "u1": "uint8_t", "u8": "uint8_t", "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t",
            "fp16": "uint16_t", "bf16": "uint16_t", "fp32": "float", "f32": "float", "fp64": "double"}


def c_type(ty: str) -> str:
    if ty.startswith("*"):
        return "MUdeviceptr"
    if ty not in _C_TYPES:
        raise ValueError(f"AOT: argument type {ty!r} is not supported (tensor descriptors need a runtime encode)")
    return _C_TYPES[ty]


def render(*, func_name: str, triton_name: str, spec: Any, binary: bytes, shared: int, threads: int,
           grid: Sequence[str], algo_info: str) -> Tuple[str, str]:
    args: List[Tuple[str, str]] = [(c_type(t), n) for n, t in spec.runtime_args]
    sig = ", ".join(f"{t} {n}" for t, n in args)
    params = ", ".join(f"&{n}" for _, n in args) or "NULL"
    data = ",".join(f"0x{b:02x}" for b in binary)
    header = f'''/* Triton kernel "{triton_name}" compiled for MUSA by triton_musa.tools.compile. */
#pragma once
#include <stdint.h>
#include "triton_musa_driver.h"

// tt-linker: {func_name}:{sig}:{algo_info}
MUresult load_{func_name}(void);
void unload_{func_name}(void);
MUresult {func_name}(MUstream stream{", " + sig if sig else ""});
'''
    source = f'''#include "{func_name}.h"

static const unsigned char {func_name}_mubin[{max(1, len(binary))}] = {{{data or "0"}}};
static MUmodule {func_name}_module = NULL;
static MUfunction {func_name}_function = NULL;

MUresult load_{func_name}(void) {{
  MUresult rc = muModuleLoadData(&{func_name}_module, {func_name}_mubin);
  if (rc != MUSA_SUCCESS) return rc;
  rc = muModuleGetFunction(&{func_name}_function, {func_name}_module, "{triton_name}");
  if (rc != MUSA_SUCCESS || {shared} == 0) return rc;
  /* shared memory above the static per-block limit must be opted into */
  MUdevice device;
  int static_limit = 0;
  if ((rc = muDeviceGet(&device, 0)) != MUSA_SUCCESS) return rc;
  if ((rc = muDeviceGetAttribute(&static_limit, MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, device)) != MUSA_SUCCESS)
    return rc;
  if ({shared} > static_limit)
    rc = muFuncSetAttribute({func_name}_function, MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, {shared});
  return rc;
}}

void unload_{func_name}(void) {{
  if ({func_name}_module != NULL) muModuleUnload({func_name}_module);
  {func_name}_module = NULL;
  {func_name}_function = NULL;
}}

MUresult {func_name}(MUstream stream{", " + sig if sig else ""}) {{
  if ({func_name}_function == NULL) {{
    MUresult rc = load_{func_name}();
    if (rc != MUSA_SUCCESS) return rc;
  }}
  unsigned gX = {grid[0]}, gY = {grid[1]}, gZ = {grid[2]};
  if (gX * gY * gZ == 0) return MUSA_SUCCESS;
  void *params[] = {{{params}}};
  return muLaunchKernel({func_name}_function, gX, gY, gZ, {threads}, 1, 1, {shared}, stream, params, NULL);
}}
'''
    return source, header
