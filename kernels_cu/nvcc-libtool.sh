#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs nvcc under libtool's compile mode. libtool adds the C compiler's PIC flag, -fPIC, which
# nvcc rejects unless it is handed to the host compiler: rewrite it. Between --host and
# --end-host come the user's CPPFLAGS and CFLAGS: -D, -U and -I reach nvcc itself (so device
# code sees them too), everything else goes to the host compiler as one -Xcompiler= word each.
# nvcc splits an -Xcompiler value at commas, so a flag that holds commas is taken apart first:
# -Wp,A,B passes A and B on, -Wl,... is dropped (this is a compile), and -fX=a,b becomes
# -fX=a -fX=b (-fsanitize=address,undefined).
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
    1:-Wl,*) ;;
    1:-Wp,*)
      rest=${arg#-Wp,}
      while [ -n "$rest" ]; do
        one=${rest%%,*}
        case $one in -D* | -U* | -I*) set -- "$@" "$one" ;; *) set -- "$@" "-Xcompiler=$one" ;; esac
        [ "$one" = "$rest" ] && rest= || rest=${rest#*,}
      done ;;
    1:*=*,*)
      key=${arg%%=*}
      rest=${arg#*=}
      while [ -n "$rest" ]; do
        set -- "$@" "-Xcompiler=$key=${rest%%,*}"
        case $rest in *,*) rest=${rest#*,} ;; *) rest= ;; esac
      done ;;
    1:*) set -- "$@" "-Xcompiler=$arg" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec $nvcc "$@"
