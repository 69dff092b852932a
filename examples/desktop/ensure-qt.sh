#!/usr/bin/env bash
# Makes sure the project's venv (build/venv, tools/ensure-venv.sh) has PySide6 and pytest-qt,
# and that the system libraries Qt's wheels load are present (installed with apt-get as root,
# otherwise the exact command is printed). Prints the venv's python.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
vpy="$("$repo/tools/ensure-venv.sh")"
# PySide6 6.12.0 drops a reference to None on every call that returns nothing
# (processEvents, qWait, ...): the interpreter aborts after a few thousand. 6.9.2 does not.
pyside=6.9.2
if ! "$vpy" -c "import PySide6.QtWidgets, pytestqt; assert PySide6.__version__ == '$pyside'" 2>/dev/null; then
    echo "ensure-qt: installing PySide6-Essentials $pyside and pytest-qt into $repo/build/venv" >&2
    "$vpy" -m pip install -q --disable-pip-version-check "PySide6-Essentials==$pyside" "pytest-qt==4.5.0" >&2
fi
# Qt's wheels bundle Qt but load a few system libraries (GL, EGL, xkbcommon, fontconfig, ...).
apt_packages="libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"
if ! "$vpy" -c 'import PySide6.QtWidgets' 2>/dev/null || ! fc-list 2>/dev/null | grep -q .; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "ensure-qt: installing $apt_packages" >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt_packages) >/dev/null
    else
        echo "ensure-qt: PySide6 cannot load its system libraries; run:  sudo apt-get install -y $apt_packages" >&2
        exit 1
    fi
fi
echo "$vpy"
