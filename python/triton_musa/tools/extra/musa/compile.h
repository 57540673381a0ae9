/* triton-musa AOT header for {kernel_name}: Triton kernel "{triton_kernel_name}" for MUSA.
 * Compile the .c beside it with -I<triton_musa/include> (triton_musa_driver.h includes the SDK's musa.h). */
#ifndef TT_KERNEL_INCLUDES
#define TT_KERNEL_INCLUDES

#include <stdint.h>
#include "triton_musa_driver.h"

#endif

MUresult load_{kernel_name}(void);
void unload_{kernel_name}(void);
// tt-linker: {kernel_name}:{full_signature}:{algo_info}
MUresult{_placeholder} {kernel_name}(MUstream stream, {signature});
