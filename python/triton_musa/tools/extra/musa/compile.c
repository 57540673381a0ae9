/* triton-musa AOT source for {kernel_name}: Triton kernel "{triton_kernel_name}" for MUSA,
 * its mubin embedded below, loaded on first launch through the MUSA driver API.
 * Specialization: {kernel_docstring} */
#include <stddef.h>
#include <stdint.h>
#include "triton_musa_driver.h"

static const unsigned char {kernel_name}_mubin[{bin_size}] = {{ {bin_data} }};
static MUmodule {kernel_name}_module = NULL;
static MUfunction {kernel_name}_function = NULL;

void unload_{kernel_name}(void) {{
  if ({kernel_name}_module != NULL)
    muModuleUnload({kernel_name}_module);
  {kernel_name}_module = NULL;
  {kernel_name}_function = NULL;
}}

/* Loads the mubin into the current context (once); a kernel that needs more shared memory than
 * the static per-block limit of device 0 opts in to the dynamic limit. */
MUresult load_{kernel_name}(void) {{
  const int shared = {shared};
  MUresult rc;
  if ({kernel_name}_function != NULL)
    return MUSA_SUCCESS;
  if ((rc = muModuleLoadData(&{kernel_name}_module, {kernel_name}_mubin)) != MUSA_SUCCESS)
    return rc;
  if ((rc = muModuleGetFunction(&{kernel_name}_function, {kernel_name}_module, "{triton_kernel_name}")) != MUSA_SUCCESS) {{
    unload_{kernel_name}();
    return rc;
  }}
  if (shared > 0) {{
    MUdevice device;
    int static_limit = 0;
    if ((rc = muDeviceGet(&device, 0)) == MUSA_SUCCESS &&
        (rc = muDeviceGetAttribute(&static_limit, MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, device)) == MUSA_SUCCESS &&
        shared > static_limit)
      rc = muFuncSetAttribute({kernel_name}_function, MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared);
    if (rc != MUSA_SUCCESS) {{
      unload_{kernel_name}();
      return rc;
    }}
  }}
  return MUSA_SUCCESS;
}}

/* Launches on `stream` over the grid ({gridX}, {gridY}, {gridZ}) with {num_warps} warps of {warp_size} threads.
 * The two trailing scratch pointers of Triton's calling convention are not read by MUSA kernels. */
MUresult {kernel_name}(MUstream stream, {signature}) {{
  MUresult rc = load_{kernel_name}();
  if (rc != MUSA_SUCCESS)
    return rc;
  unsigned int gX = {gridX};
  unsigned int gY = {gridY};
  unsigned int gZ = {gridZ};
  if (gX * gY * gZ == 0)
    return MUSA_SUCCESS;
  MUdeviceptr global_scratch = 0;
  MUdeviceptr profile_scratch = 0;
  void *args[{num_args}] = {{ {arg_pointers} }};
  return muLaunchKernel({kernel_name}_function, gX, gY, gZ, {num_warps} * {warp_size}, 1, 1, {shared}, stream, args, NULL);
}}
