/* triton-musa: the part of the MUSA driver API (libmusa.so, musa.h) that our
 * generated launchers, the device utilities and AOT output use.
 *
 * A real build includes the SDK's <musa.h>. With TRITON_MUSA_DECLARATIONS_ONLY
 * defined, the declarations below are used instead, so that generated C can
 * be compiled (and checked) on machines without the SDK. Their names and
 * signatures follow MUSA-FACTS.md; the numeric values of the enumerators are
 * NOT the SDK's (no public source gives them) and such a build must never be
 * linked against a real libmusa.so.
 */
#ifndef TRITON_MUSA_DRIVER_H
#define TRITON_MUSA_DRIVER_H

#ifndef TRITON_MUSA_DECLARATIONS_ONLY
#include <musa.h>
#else
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t muuint32_t;
typedef uint64_t muuint64_t;
typedef unsigned long long MUdeviceptr;
typedef int MUdevice;
typedef struct MUctx_st *MUcontext;
typedef struct MUmod_st *MUmodule;
typedef struct MUfunc_st *MUfunction;
typedef struct MUstream_st *MUstream;

typedef enum MUresult_enum {
  MUSA_SUCCESS = 0,
  MUSA_ERROR_INVALID_VALUE = 1,
  MUSA_ERROR_OUT_OF_MEMORY = 2,
  MUSA_ERROR_NOT_INITIALIZED = 3,
  MUSA_ERROR_INVALID_CONTEXT = 201,
  MUSA_ERROR_INVALID_IMAGE = 200,
  MUSA_ERROR_NOT_FOUND = 500,
  MUSA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701
} MUresult;

typedef enum MUfunction_attribute_enum {
  MU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  MU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  MU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  MU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
} MUfunction_attribute;

typedef enum MUdevice_attribute_enum {
  MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  MU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  MU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  MU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  MU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  MU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  MU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  MU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
} MUdevice_attribute;

typedef enum MUpointer_attribute_enum {
  MU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3
} MUpointer_attribute;

typedef enum MUtensorDescriptorDataType_enum {
  MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT8 = 0,
  MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT16 = 1,
  MU_TENSOR_DESCRIPTOR_DATA_TYPE_UINT32 = 2
} MUtensorDescriptorDataType;

typedef enum MUtensorDescriptorInterleave_enum {
  MU_TENSOR_DESCRIPTOR_INTERLEAVE_NONE = 0
} MUtensorDescriptorInterleave;

/* 64 bytes, 64-byte aligned, passed to kernels by value. */
typedef struct MUtensorDescriptor_st {
  _Alignas(64) unsigned long long opaque[8];
} MUtensorDescriptor;

MUresult muInit(unsigned int flags);
MUresult muGetErrorString(MUresult error, const char **str);
MUresult muCtxGetCurrent(MUcontext *ctx);
MUresult muCtxSetCurrent(MUcontext ctx);
MUresult muDevicePrimaryCtxRetain(MUcontext *ctx, MUdevice dev);
MUresult muDeviceGet(MUdevice *device, int ordinal);
MUresult muDeviceGetAttribute(int *value, MUdevice_attribute attrib, MUdevice dev);
MUresult muModuleLoadData(MUmodule *module, const void *image);
MUresult muModuleUnload(MUmodule module);
MUresult muModuleGetFunction(MUfunction *func, MUmodule module, const char *name);
MUresult muFuncGetAttribute(int *value, MUfunction_attribute attrib, MUfunction func);
MUresult muFuncSetAttribute(MUfunction func, MUfunction_attribute attrib, int value);
MUresult muPointerGetAttribute(void *data, MUpointer_attribute attribute, MUdeviceptr ptr);
MUresult muLaunchKernel(MUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, MUstream hStream, void **kernelParams, void **extra);
MUresult muTensorDescriptorEncode(MUtensorDescriptor *desc, MUtensorDescriptorDataType type, muuint32_t rank,
                                  void *globalAddress, const muuint64_t *globalDim,
                                  const muuint64_t *globalStrides, MUtensorDescriptorInterleave interleave,
                                  muuint64_t oobConstantFill);

#ifdef __cplusplus
}
#endif
#endif /* TRITON_MUSA_DECLARATIONS_ONLY */
#endif /* TRITON_MUSA_DRIVER_H */
