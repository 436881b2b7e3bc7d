#!/bin/sh
# find-sanitizer.sh CUDA_HOME: print the path of compute-sanitizer, or say
# where it was looked for and how to get it, and fail. Used by
# `make check SANITIZE=1`.
#
# The toolkit's own copy comes first ($CUDA_HOME/bin, where NVIDIA's
# packages link it, then $CUDA_HOME/compute-sanitizer, where it really
# lives): it matches the toolkit the grader was built with. Then PATH.
home=${1:-/usr/local/cuda}
for p in "$home/bin/compute-sanitizer" "$home/compute-sanitizer/compute-sanitizer"; do
    if [ -x "$p" ]; then
        echo "$p"
        exit 0
    fi
done
if p=$(command -v compute-sanitizer 2>/dev/null); then
    echo "$p"
    exit 0
fi
# CUDART_VERSION 13000 -> the package suffix 13-0.
v=$(sed -n 's/^#define CUDART_VERSION *\([0-9][0-9]*\).*/\1/p' "$home/include/cuda_runtime_api.h" 2>/dev/null)
version=${v:+$((v / 1000))-$((v % 1000 / 10))}
cat >&2 <<MSG
compute-sanitizer was not found: not in $home/bin, not in
$home/compute-sanitizer, and not on PATH. It is part of the CUDA Toolkit
(NVIDIA's package cuda-sanitizer-${version:-<version>}); install it, or point
CUDA_HOME at a toolkit that has it: make check ... SANITIZE=1 CUDA_HOME=/path/to/cuda
MSG
exit 1
