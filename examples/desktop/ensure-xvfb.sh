#!/usr/bin/env bash
# Makes sure Xvfb (Debian's `xvfb`), the X libraries Qt's xcb platform loads and libXtst are
# present, for the smoke test that runs the real app on an X server. As root they are installed with
# apt-get; otherwise the exact command is printed and the script fails.
#
#   examples/desktop/ensure-xvfb.sh [path/to/venv/python]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
vpy="${1:-$("$here/ensure-qt.sh")}"
apt_packages="xvfb libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 \
libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0 libx11-xcb1 libxtst6"
qt_lib="$("$vpy" -c 'import os, PySide6; print(os.path.join(os.path.dirname(PySide6.__file__), "Qt", "lib"))')"
missing() {   # Xvfb, a library of Qt's xcb platform, or libXtst (the smoke test's keyboard)
    ! command -v Xvfb >/dev/null || ldd "$qt_lib/libQt6XcbQpa.so.6" | grep -q 'not found' ||
        ! ldconfig -p | grep -q 'libXtst\.so\.6'
}
if missing; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "ensure-xvfb: installing $apt_packages" >&2
        (apt-get -o DPkg::Lock::Timeout=300 update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $apt_packages) >/dev/null
    else
        echo "ensure-xvfb: Xvfb or Qt's X libraries are missing; run:  sudo apt-get install -y $apt_packages" >&2
        exit 1
    fi
    if missing; then
        echo "ensure-xvfb: still missing after apt-get: $(command -v Xvfb || echo Xvfb)" \
             "$(ldd "$qt_lib/libQt6XcbQpa.so.6" | grep 'not found' | tr -s ' \t\n' ' ')" >&2
        exit 1
    fi
fi
command -v Xvfb
