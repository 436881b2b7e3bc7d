#!/bin/sh
# need-package.sh PACKAGE TEST-COMMAND...
# Make sure a Debian package is present before a make target uses it. When
# the test command fails, install the package if we can do so without asking
# (root, or password-less sudo); otherwise say exactly what to run, and fail.
pkg=$1
shift
"$@" >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ]; then
    sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "Missing Debian package '$pkg'. Install it with:" >&2
    echo "    sudo apt-get install -y $pkg" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing package '$pkg', and this is not a Debian/Ubuntu system: install it with your package manager." >&2
    exit 1
fi
echo "Installing the missing Debian package '$pkg' ..." >&2
export DEBIAN_FRONTEND=noninteractive
# make -j installs several packages at once (make test on a fresh machine):
# apt takes dpkg's lock and fails at once if another install holds it, so
# wait for it instead, up to five minutes.
apt="$sudo apt-get -o DPkg::Lock::Timeout=300"
$apt install -y -qq "$pkg" >/dev/null 2>&1 ||
    { $apt update -qq >/dev/null 2>&1 && $apt install -y -qq "$pkg" >/dev/null; } || {
    echo "Could not install '$pkg'. Run: sudo apt-get update && sudo apt-get install -y $pkg" >&2
    exit 1
}
"$@" >/dev/null 2>&1 || { echo "'$pkg' is installed but '$*' still fails." >&2; exit 1; }
