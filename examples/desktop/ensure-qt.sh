#!/usr/bin/env bash
# Makes sure the project's venv (build/venv, tools/ensure-venv.sh) has PySide6 and pytest-qt,
# and that the system libraries and fonts Qt's wheels need are present. Prints the venv's
# python.
#
# Every decision comes from a fact that cannot flake: PySide6 and pytest-qt import at the
# pinned version (else pip installs them), and Qt itself starts offscreen and lists at least
# one font family (else the system packages are missing). No pipeline is tested under
# pipefail (a `grep -q` that closes a pipe early makes it fail at random). When everything is
# there, nothing is installed and nothing is downloaded; when something is missing, root gets
# it with apt-get and anyone else gets the exact command to run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
vpy="$("$repo/tools/ensure-venv.sh")"
# PySide6 6.12.0 drops a reference to None on every call that returns nothing
# (processEvents, qWait, ...): the interpreter aborts after a few thousand. 6.9.2 does not.
pyside=6.9.2
if ! "$vpy" -c "import PySide6, pytestqt; assert PySide6.__version__ == '$pyside'" 2>/dev/null; then
    echo "ensure-qt: installing PySide6-Essentials $pyside and pytest-qt into $repo/build/venv" >&2
    "$vpy" -m pip install -q --disable-pip-version-check "PySide6-Essentials==$pyside" "pytest-qt==4.5.0" >&2
fi
# Qt's wheels bundle Qt but load a few system libraries (GL, EGL, xkbcommon, fontconfig, ...)
# and need a font. The probe is Qt itself: a QApplication offscreen, and its font families.
apt_packages="libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0 fonts-dejavu-core"
qt_works() {
    QT_QPA_PLATFORM=offscreen "$vpy" -c '
import sys
from PySide6.QtWidgets import QApplication
from PySide6.QtGui import QFontDatabase
app = QApplication(["ensure-qt"])
sys.exit(0 if QFontDatabase.families() else 3)' >/dev/null 2>&1
}
if ! qt_works; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "ensure-qt: installing $apt_packages" >&2
        (apt-get -o DPkg::Lock::Timeout=300 update -qq &&
         DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $apt_packages) >/dev/null
        if ! qt_works; then
            echo "ensure-qt: Qt still does not start offscreen (or finds no font) after apt-get" >&2
            exit 1
        fi
    else
        echo "ensure-qt: Qt cannot start (its system libraries or a font are missing); run:" >&2
        echo "  sudo apt-get install -y $apt_packages" >&2
        exit 1
    fi
fi
echo "$vpy"
