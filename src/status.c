/* SPDX-License-Identifier: MIT */
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
