#!/bin/sh
# Runs nvcc under libtool's compile mode. libtool adds the C compiler's PIC flag, -fPIC, which
# nvcc rejects unless it is handed to the host compiler: rewrite it. Between --host and
# --end-host come the user's CPPFLAGS and CFLAGS: -D, -U and -I reach nvcc itself (so device
# code sees them too), everything else goes to the host compiler as one -Xcompiler= word each.
# usage: nvcc-libtool.sh NVCC ARGS... [--host FLAGS... --end-host] ARGS...
nvcc=$1
shift
host=0
for arg do
  shift
  case $host:$arg in
    *:--host) host=1 ;;
    *:--end-host) host=0 ;;
    *:-fPIC) set -- "$@" -Xcompiler=-fPIC ;;
    1:-D* | 1:-U* | 1:-I*) set -- "$@" "$arg" ;;
    1:*) set -- "$@" "-Xcompiler=$arg" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec $nvcc "$@"
