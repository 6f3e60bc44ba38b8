# SPDX-License-Identifier: MIT
# Documentation, included by the top-level Makefile.am.
# - make doc: the API reference (HTML and man(3) pages) from src/duet.h with doxygen, into api/
#   of the build tree. Any doxygen warning (an undocumented name too) fails it. With
#   --enable-doc it is part of `make`, and `make install` installs it.
# - duet-bench.1 from `duet-bench --help` and --version with help2man, plus its .h2m sections.
#   It is distributed, and rebuilt only when its sources change (as automake does for info
#   files), so builders from a tarball need no help2man.

DUET_DOCSRC = $(top_srcdir)/src/duet.h $(top_srcdir)/src/duet_kernel.h $(top_srcdir)/docs/mainpage.dox \
	$(top_srcdir)/docs/man-functions.sh
doc: api/stamp
api/stamp: $(DUET_DOCSRC) Doxyfile
	@if test -z "$(DOXYGEN)"; then \
	  echo "make doc: configure found no doxygen; install it (Debian: apt-get install doxygen)" \
	    "and run configure again" >&2; \
	  exit 1; \
	fi
	$(AM_V_GEN)rm -rf api && $(DOXYGEN) Doxyfile && \
	$(SHELL) $(top_srcdir)/docs/man-functions.sh api/man/man3 && touch $@
.PHONY: doc duet-clean-doc
clean-local: duet-clean-doc
duet-clean-doc:
	-rm -rf api

if DUET_ENABLE_DOC
all-local: api/stamp
# Doxygen decides the file names (one man page per documented name, all duet* or DUET*), so
# automake cannot list them; these rules install the tree as built, and uninstall every man(3)
# page of the API's prefixes.
DUET_MAN3DIR = $(mandir)/man3
DUET_APIDIR = $(htmldir)/api
install-data-local: api/stamp
	$(MKDIR_P) '$(DESTDIR)$(DUET_MAN3DIR)' '$(DESTDIR)$(DUET_APIDIR)'
	$(INSTALL_DATA) api/man/man3/duet*.3 api/man/man3/DUET*.3 '$(DESTDIR)$(DUET_MAN3DIR)'
	$(INSTALL_DATA) api/html/* '$(DESTDIR)$(DUET_APIDIR)'
uninstall-local:
	rm -f '$(DESTDIR)$(DUET_MAN3DIR)'/duet*.3 '$(DESTDIR)$(DUET_MAN3DIR)'/DUET*.3
	rm -rf '$(DESTDIR)$(DUET_APIDIR)'
endif

dist_man1_MANS = tools/duet-bench.1
EXTRA_DIST += tools/duet-bench.h2m
# The binary is an order-only prerequisite: built first, but a rebuilt binary alone (in a
# tarball's read-only source tree, say) does not make the page out of date. The page is also in
# git: without help2man, a checkout whose timestamps make it look stale keeps it, with a warning.
DUET_H2M = $(HELP2MAN) --no-info --name='time duet kernel variants on CUDA and OpenCL devices' \
	--include=$(srcdir)/tools/duet-bench.h2m ./tools/duet-bench$(EXEEXT)
# bench_suite.c: --help counts the suite's shapes.
$(srcdir)/tools/duet-bench.1: $(srcdir)/tools/bench_opts.c $(srcdir)/tools/bench.h \
	$(srcdir)/tools/bench_suite.c $(srcdir)/tools/duet-bench.h2m $(top_srcdir)/configure.ac | \
	tools/duet-bench$(EXEEXT)
	$(AM_V_GEN)if $(HELP2MAN) --version >/dev/null 2>&1; then \
	  $(DUET_H2M) --output=$@.tmp && mv -f $@.tmp $@; \
	elif test -f $@; then \
	  echo "warning: help2man not found: $@ is not regenerated" >&2; touch $@; \
	else \
	  $(DUET_H2M) --output=$@; \
	fi
