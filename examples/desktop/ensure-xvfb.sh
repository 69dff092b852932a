#!/usr/bin/env bash
# Makes sure Xvfb (Debian's `xvfb`), the X libraries Qt's xcb platform loads and libXtst are
# present, for the smoke test that runs the real app on an X server. As root they are installed
# with apt-get; otherwise the exact command is printed and the script fails.
#
# The decision comes from facts that cannot flake: Xvfb is on PATH, ldd's whole output (read
# into a variable, never through an early-closing pipe under pipefail) names no missing
# library, and libXtst.so.6 loads. When all is present, nothing is installed.
#
#   examples/desktop/ensure-xvfb.sh [path/to/venv/python]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vpy="${1:-$("$here/ensure-qt.sh")}"
apt_packages="xvfb libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 \
libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0 libx11-xcb1 libxtst6"
qt_lib="$("$vpy" -c 'import os, PySide6; print(os.path.join(os.path.dirname(PySide6.__file__), "Qt", "lib"))')"
unresolved() {   # the libraries Qt's xcb platform needs that the loader cannot find, one line
    local linked
    linked="$(ldd "$qt_lib/libQt6XcbQpa.so.6" 2>&1 || echo "ldd failed: not found")"
    case "$linked" in
        *"not found"*) printf '%s\n' "$linked" | awk '/not found/ {print $1}' | tr '\n' ' ' ;;
    esac
}
missing() {   # Xvfb, a library of Qt's xcb platform, or libXtst (the smoke test's keyboard)
    ! command -v Xvfb >/dev/null || [ -n "$(unresolved)" ] ||
        ! "$vpy" -c 'import ctypes; ctypes.CDLL("libXtst.so.6")' 2>/dev/null
}
if missing; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "ensure-xvfb: installing $apt_packages" >&2
        (apt-get -o DPkg::Lock::Timeout=300 update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $apt_packages) >/dev/null
    else
        echo "ensure-xvfb: Xvfb or Qt's X libraries are missing; run:" >&2
        echo "  sudo apt-get install -y $apt_packages" >&2
        exit 1
    fi
    if missing; then
        echo "ensure-xvfb: still missing after apt-get: $(command -v Xvfb || echo Xvfb) $(unresolved)" >&2
        exit 1
    fi
fi
command -v Xvfb
