"""Conversions of ``tl.float8e4b15`` in software (Triton's ``convert_custom_types`` hook).

Triton has no MLIR type for fp8e4b15: it is an i8 in the IR, and every cast to or from it is
left to the backend's ``convert_custom_types``. The format, as Triton's GPU backends read it:
sign, 4 exponent bits with bias 15, 3 mantissa bits, every code finite (no infinity, no NaN):
the largest value is 0x7F = 1.875, the smallest subnormal 2^-17. Its values are the fp16 values
with the top exponent bit clear and 7 low mantissa bits dropped, so widening goes through fp16
exactly; narrowing rounds the f32 value once (rtne, or rtz when asked), saturating at 1.875
(infinities included; NaN has no code and becomes the largest value, sign kept). Integer
bit manipulation only, so it needs no fp8 hardware on any MUSA arch.
"""

from __future__ import annotations

from typing import Any

import triton.language as tl
from triton._C.libtriton import ir


def _like(x: Any, dtype: tl.dtype) -> tl.dtype:
    return x.type.with_element_ty(dtype) if x.type.is_block() else dtype


def _retype(x: Any, dtype: tl.dtype) -> Any:
    """The same i8 values seen as another 8-bit type (no op: fp8e4b15 is an i8 in the IR)."""
    return tl.tensor(x.handle, _like(x, dtype))


def _round_shift(sem: Any, v: Any, shift: Any, rtz: bool) -> Any:
    """``v >> shift`` (int32, v >= 0), rounded to nearest even unless ``rtz``."""
    q = sem.lshr(v, shift)
    if rtz:
        return q
    rem = sem.and_(v, sem.sub(sem.shl(1, shift), 1, False))
    half = sem.shl(1, sem.sub(shift, 1, False))
    odd = sem.equal(sem.and_(q, 1), 1)
    up = sem.or_(sem.greater_than(rem, half), sem.and_(sem.equal(rem, half), odd))
    return sem.add(q, sem.cast(up, tl.int32), False)


def _upcast(sem: Any, x: Any, dst: tl.dtype) -> Any:
    bits = sem.cast(_retype(x, tl.uint8), tl.int32)
    magnitude = sem.shl(sem.and_(bits, 0x7F), 7)
    sign = sem.shl(sem.and_(bits, 0x80), 8)
    fp16 = sem.bitcast(sem.cast(sem.or_(magnitude, sign), tl.int16), tl.float16)
    return sem.cast(fp16, dst)


def _downcast(sem: Any, x: Any, rtz: bool) -> Any:
    if x.type.scalar.is_fp64():
        raise ValueError("fp64 -> fp8e4b15 is not supported on MUSA (it would round twice); "
                         "convert to float32 first")
    f32 = sem.cast(x, tl.float32)  # exact from every narrower float, rtne from integers
    bits = sem.bitcast(f32, tl.int32)
    sign = sem.and_(sem.lshr(bits, 24), 0x80)
    magnitude = sem.and_(bits, 0x7FFFFFFF)
    exponent = sem.lshr(magnitude, 23)
    mantissa = sem.and_(magnitude, 0x7FFFFF)
    # Normal results: rebias the f32 exponent (127 -> 15) in place and drop 20 mantissa bits (a
    # carry out of the mantissa bumps the exponent, as it should).
    normal = _round_shift(sem, sem.sub(magnitude, 112 << 23, False), 20, rtz)
    # Subnormal results (destination exponent below 1): the significand shifted by 21 - e, with e
    # the destination exponent, capped at 25 where the result is 0 anyway.
    is_zero_exp = sem.equal(exponent, 0)
    significand = sem.where(is_zero_exp, mantissa, sem.or_(mantissa, 0x800000))
    dest_exp = sem.sub(sem.where(is_zero_exp, sem.add(exponent, 1, False), exponent), 112, False)
    amount = sem.sub(21, dest_exp, False)
    amount = sem.where(sem.greater_than(amount, 25), 25, amount)
    subnormal = _round_shift(sem, significand, amount, rtz)
    result = sem.where(sem.greater_than(dest_exp, 0), normal, subnormal)
    result = sem.where(sem.greater_than(result, 0x7F), 0x7F, result)
    result = sem.or_(result, sign)
    return _retype(sem.cast(sem.cast(result, tl.uint32), tl.uint8), tl.float8e4b15)


@tl.core.builtin
def convert_fp8e4b15(arg: Any, dst_ty: tl.dtype, fp_downcast_rounding: Any = None, _semantic: Any = None) -> Any:
    """Triton's ``convert_custom_types``: a cast from or to fp8e4b15 (any other type on the
    other side: floats, integers, fp8e4b15 itself)."""
    src = arg.type.scalar
    dst = dst_ty.scalar
    if src.is_fp8e4b15():
        if dst.is_fp8e4b15():
            return arg
        return _upcast(_semantic, arg, dst)
    rtz = fp_downcast_rounding == ir.ROUNDING_MODE.RTZ
    return _downcast(_semantic, arg, rtz)
