/* How the CUDA backend finds kernels compiled by nvcc: each .cu file of kernels_cu/ exports one
 * table of (kernel name, host stub address), ended by a NULL name. The names are those of
 * kernels_cl/, so both backends resolve a duet__kernel id through duet__kernel_name(). */
#ifndef DUET_CU_REGISTRY_H
#define DUET_CU_REGISTRY_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *name;
  const void *fn;
} duet__cu_kernel;

extern const duet__cu_kernel duet__cu_copy_kernels[];
extern const duet__cu_kernel duet__cu_transpose_kernels[];
extern const duet__cu_kernel duet__cu_gemm_kernels[];

#ifdef __cplusplus
}
#endif
#endif
