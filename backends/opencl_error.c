/* SPDX-License-Identifier: MIT */
/* The OpenCL backend's error reporting (opencl_internal.h), in a file of its own: every file of
 * the backend reports through it, and it calls none of them. */
#include "opencl_internal.h"

#define CL_PLATFORM_NOT_FOUND_KHR_ (-1001)

const char *duet__cl_error_name(cl_int err) {
  // clang-format off: one status per line, which the formatter would fold into a staircase
  switch (err) {
#define E(x) \
  case x: return #x;
    E(CL_SUCCESS)
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE)
    E(CL_INVALID_PLATFORM)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
    case CL_PLATFORM_NOT_FOUND_KHR_: return "CL_PLATFORM_NOT_FOUND_KHR";
  }
  // clang-format on
  return "unknown OpenCL error";
}

int duet__cl_fail(duet_ctx *ctx, cl_int err, const char *call) {
  int status = (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY ||
                err == CL_INVALID_BUFFER_SIZE)
                   ? DUET_ENOMEM
                   : DUET_EBACKEND;
  return duet__fail(ctx, status, "opencl: %s failed: %s (%d)", call, duet__cl_error_name(err),
                    (int)err);
}
