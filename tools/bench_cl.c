/* The one thing duet's device info does not say: whether an OpenCL device is a CPU (PoCL), which
 * gets smaller default sizes. Asked of the queue's device through the interop API. */
#include "config.h"

#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include "bench.h"

int bench_cl_is_cpu(duet_ctx *ctx) {
  cl_command_queue q = (cl_command_queue)duet_ctx_native_queue(ctx);
  cl_device_id dev;
  cl_device_type type = 0;
  if (!q || clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS ||
      clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
    return 0;
  return (type & CL_DEVICE_TYPE_GPU) == 0 && (type & CL_DEVICE_TYPE_CPU) != 0;
}
