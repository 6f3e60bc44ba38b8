/* SPDX-License-Identifier: MIT */
/* The OpenCL ICD loader, opened at run time so that nothing links libOpenCL: a machine without
 * OpenCL still loads libduet and duet-bench, and the OpenCL backend then reports no device with
 * the reason. Every OpenCL function duet calls is one line of DUET__CL_FUNCTIONS and one member
 * of duet__cl, typed from the header's own prototype; callers write duet__cl.clFinish(queue). */
#ifndef DUET_OPENCL_LOADER_H
#define DUET_OPENCL_LOADER_H

#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#define DUET__CL_FUNCTIONS(X)     \
  X(clGetPlatformIDs)             \
  X(clGetPlatformInfo)            \
  X(clGetDeviceIDs)               \
  X(clGetDeviceInfo)              \
  X(clCreateContext)              \
  X(clReleaseContext)             \
  X(clRetainContext)              \
  X(clCreateCommandQueue)         \
  X(clGetCommandQueueInfo)        \
  X(clReleaseCommandQueue)        \
  X(clFinish)                     \
  X(clFlush)                      \
  X(clCreateProgramWithSource)    \
  X(clCreateProgramWithBinary)    \
  X(clBuildProgram)               \
  X(clGetProgramBuildInfo)        \
  X(clGetProgramInfo)             \
  X(clRetainProgram)              \
  X(clReleaseProgram)             \
  X(clCreateKernel)               \
  X(clCreateKernelsInProgram)     \
  X(clGetKernelWorkGroupInfo)     \
  X(clGetKernelInfo)              \
  X(clGetKernelArgInfo)           \
  X(clSetKernelArg)               \
  X(clReleaseKernel)              \
  X(clEnqueueNDRangeKernel)       \
  X(clCreateBuffer)               \
  X(clReleaseMemObject)           \
  X(clEnqueueMigrateMemObjects)   \
  X(clEnqueueWriteBuffer)         \
  X(clEnqueueReadBuffer)          \
  X(clEnqueueCopyBuffer)          \
  X(clEnqueueMarkerWithWaitList)  \
  X(clEnqueueBarrierWithWaitList) \
  X(clEnqueueMapBuffer)           \
  X(clEnqueueUnmapMemObject)      \
  X(clWaitForEvents)              \
  X(clGetEventInfo)               \
  X(clGetEventProfilingInfo)      \
  X(clReleaseEvent)

typedef struct {
#define DUET__CL_MEMBER(name) __typeof__(name) *name;
  DUET__CL_FUNCTIONS(DUET__CL_MEMBER)
#undef DUET__CL_MEMBER
} duet__cl_api;

/* Filled by a successful duet__cl_load; never cleared, since the library stays open for the
 * life of the process (contexts, and vendor libraries such as CLBlast, hold its objects). */
extern duet__cl_api duet__cl;

/* Opens $DUET_OPENCL_LIBRARY, else the loader's soname, and resolves every function, on the first
 * call from any thread; later calls return the same answer. NULL when duet__cl is ready, else
 * why not: a static text naming the file and dlerror(). */
const char *duet__cl_load(void);

#endif
