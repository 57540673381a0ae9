/* A stand-in for libmusa.so in tests: records what the generated launcher passes to the driver. Addresses in
   [stub_device_lo, stub_device_hi) count as device memory. */
#include <stdint.h>
#include <string.h>
#include "triton_musa_driver.h"

unsigned long long stub_device_lo, stub_device_hi;
size_t stub_param_sizes[32];
int stub_num_params;
unsigned stub_grid[3], stub_block[3], stub_shared;
unsigned long long stub_stream, stub_function;
unsigned char stub_params[1024];
unsigned long long stub_encoded[16]; /* type, rank, address, dims[5], strides[4], interleave, oob fill, desc % 64 */
int stub_encode_calls;
int stub_param_aligned64[32]; /* per kernel parameter: its address is 64-byte aligned */

MUresult muGetErrorString(MUresult error, const char **str) { (void)error; *str = "stub error"; return MUSA_SUCCESS; }

MUresult muPointerGetAttribute(void *data, MUpointer_attribute attribute, MUdeviceptr ptr) {
  if (attribute != MU_POINTER_ATTRIBUTE_DEVICE_POINTER || ptr < stub_device_lo || ptr >= stub_device_hi)
    return MUSA_ERROR_INVALID_VALUE;
  *(MUdeviceptr *)data = ptr;
  return MUSA_SUCCESS;
}

MUresult muTensorDescriptorEncode(MUtensorDescriptor *desc, MUtensorDescriptorDataType type, muuint32_t rank,
                                  void *globalAddress, const muuint64_t *globalDim, const muuint64_t *globalStrides,
                                  MUtensorDescriptorInterleave interleave, muuint64_t oobConstantFill) {
  memset(stub_encoded, 0, sizeof(stub_encoded));
  ++stub_encode_calls;
  stub_encoded[0] = (unsigned long long)type;
  stub_encoded[1] = rank;
  stub_encoded[2] = (unsigned long long)globalAddress;
  for (muuint32_t i = 0; i < rank; ++i) stub_encoded[3 + i] = globalDim[i];
  for (muuint32_t i = 0; i + 1 < rank; ++i) stub_encoded[8 + i] = globalStrides[i];
  stub_encoded[12] = (unsigned long long)interleave;
  stub_encoded[13] = oobConstantFill;
  stub_encoded[14] = (unsigned long long)(uintptr_t)desc % 64;
  memset(desc, 0xA5, sizeof(*desc));
  desc->opaque[0] = (unsigned long long)globalAddress;
  return MUSA_SUCCESS;
}

MUresult muLaunchKernel(MUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, MUstream stream, void **params, void **extra) {
  (void)extra;
  stub_grid[0] = gx; stub_grid[1] = gy; stub_grid[2] = gz;
  stub_block[0] = bx; stub_block[1] = by; stub_block[2] = bz;
  stub_shared = shared;
  stub_stream = (unsigned long long)stream;
  stub_function = (unsigned long long)f;
  size_t offset = 0;
  for (int i = 0; i < stub_num_params; ++i) {
    memcpy(stub_params + offset, params[i], stub_param_sizes[i]);
    stub_param_aligned64[i] = (uintptr_t)params[i] % 64 == 0;
    offset += stub_param_sizes[i];
  }
  return MUSA_SUCCESS;
}

/* Module loading and attributes, for the device utilities (musa_utils): the loaded function's attributes come
   from stub_func_attrs and the device's from stub_device_attrs, both indexed by the attribute's number;
   stub_dynamic_shared records the last MAX_DYNAMIC_SHARED_SIZE_BYTES set. */
int stub_func_attrs[16];
int stub_device_attrs[128];
int stub_dynamic_shared;
static int stub_context, stub_module, stub_func;

MUresult muCtxGetCurrent(MUcontext *ctx) { *ctx = (MUcontext)&stub_context; return MUSA_SUCCESS; }
MUresult muCtxSetCurrent(MUcontext ctx) { (void)ctx; return MUSA_SUCCESS; }
MUresult muDevicePrimaryCtxRetain(MUcontext *ctx, MUdevice dev) {
  (void)dev; *ctx = (MUcontext)&stub_context; return MUSA_SUCCESS;
}
MUresult muDeviceGet(MUdevice *device, int ordinal) { *device = ordinal; return MUSA_SUCCESS; }
MUresult muModuleLoadData(MUmodule *module, const void *image) {
  (void)image; *module = (MUmodule)&stub_module; return MUSA_SUCCESS;
}
MUresult muModuleGetFunction(MUfunction *func, MUmodule module, const char *name) {
  (void)module; (void)name; *func = (MUfunction)&stub_func; return MUSA_SUCCESS;
}
MUresult muFuncGetAttribute(int *value, MUfunction_attribute attrib, MUfunction func) {
  (void)func;
  if ((unsigned)attrib >= 16) return MUSA_ERROR_INVALID_VALUE;
  *value = stub_func_attrs[attrib];
  return MUSA_SUCCESS;
}
MUresult muFuncSetAttribute(MUfunction func, MUfunction_attribute attrib, int value) {
  (void)func;
  if (attrib != MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) return MUSA_ERROR_INVALID_VALUE;
  stub_dynamic_shared = value;
  return MUSA_SUCCESS;
}
MUresult muDeviceGetAttribute(int *value, MUdevice_attribute attrib, MUdevice dev) {
  (void)dev;
  if ((unsigned)attrib >= 128) return MUSA_ERROR_INVALID_VALUE;
  *value = stub_device_attrs[attrib];
  return MUSA_SUCCESS;
}
