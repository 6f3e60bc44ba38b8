#!/bin/sh
# Runs nvcc under libtool's compile mode. libtool adds the C compiler's PIC flag, -fPIC, which
# nvcc rejects unless it is handed to the host compiler: rewrite it, pass everything else on.
# usage: nvcc-libtool.sh NVCC ARGS...
nvcc=$1
shift
for arg do
  shift
  case $arg in
    -fPIC) set -- "$@" -Xcompiler=-fPIC ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec $nvcc "$@"
