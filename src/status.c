/* Status codes: names and messages from the one table in duet.h. */
#include "duet_internal.h"

const char *duet_version(void) { return PACKAGE_VERSION; }

const char *duet_strerror(int status) {
  switch (status) {
#define DUET__STATUS_MSG(name, code, msg) \
  case DUET_##name: return msg;
    DUET_STATUS_MAP(DUET__STATUS_MSG)
#undef DUET__STATUS_MSG
  }
  return "unknown duet status code";
}

const char *duet_status_name(int status) {
  switch (status) {
#define DUET__STATUS_NAME(name, code, msg) \
  case DUET_##name: return "DUET_" #name;
    DUET_STATUS_MAP(DUET__STATUS_NAME)
#undef DUET__STATUS_NAME
  }
  return "DUET_UNKNOWN";
}

const char *duet__kernel_name(duet__kernel k) {
  static const char *const names[] = {
#define DUET__KERNEL_STR(id, name) name,
      DUET__KERNEL_MAP(DUET__KERNEL_STR)
#undef DUET__KERNEL_STR
  };
  return (unsigned)k < DUET__K_COUNT ? names[k] : "unknown";
}
