"""An Xvfb server for a test, and the one thing a window manager does that the smoke test
needs: asking a window to close (WM_DELETE_WINDOW, what a title bar's close button sends).
Xlib through ctypes (libX11 comes with Qt's X libraries); no other package."""

from __future__ import annotations

import ctypes
import os
import select
import shutil
import subprocess
import time
from typing import Callable, List, Optional, TypeVar

T = TypeVar("T")
Window = ctypes.c_ulong
CLIENT_MESSAGE, IS_VIEWABLE = 33, 2


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", Window), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


class XWindowAttributes(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
                ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p),
                ("root", Window), ("class_", ctypes.c_int), ("bit_gravity", ctypes.c_int),
                ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int),
                ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
                ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
                ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]


ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


def wait_for(condition: Callable[[], Optional[T]], timeout: float, what: str) -> T:
    """``condition()`` once it is not None, checked every 20 ms for at most ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


class Xvfb:
    """``Xvfb`` on a display number it picks itself (-displayfd), 1280x800x24, no TCP."""

    def __init__(self) -> None:
        binary = shutil.which("Xvfb")
        if binary is None:
            raise RuntimeError("Xvfb is missing: run examples/desktop/ensure-xvfb.sh")
        reader, writer = os.pipe()
        self.process = subprocess.Popen([binary, "-displayfd", str(writer), "-screen", "0", "1280x800x24",
                                         "-nolisten", "tcp"], pass_fds=(writer,),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(writer)
        # Xvfb writes the number, then a newline, when it accepts clients; the pipe stays open
        # while it runs (a write to a closed pipe is fatal to it).
        self.reader = reader
        data = b""
        deadline = time.monotonic() + 30
        while not data.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([reader], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(reader, 64) if ready else b""
            if not chunk:
                break
            data += chunk
        number = data.decode().strip()
        if not number.isdigit():
            self.process.kill()
            errors = self.process.communicate()[1].decode(errors="replace")
            os.close(reader)
            raise RuntimeError(f"Xvfb did not start: {errors}")
        self.display = f":{number}"
        self.x: Optional[XDisplay] = XDisplay(self.display)

    @property
    def client(self) -> "XDisplay":
        assert self.x is not None, "the server was stopped"
        return self.x

    def stop(self) -> None:
        if getattr(self, "x", None) is not None:
            self.x.close()
            self.x = None
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        if self.process.stderr:
            self.process.stderr.close()
        os.close(self.reader)


class XDisplay:
    """A client connection: top-level windows by title, and WM_DELETE_WINDOW."""

    def __init__(self, name: str) -> None:
        self.xlib = xlib = ctypes.CDLL("libX11.so.6")
        xlib.XOpenDisplay.restype = ctypes.c_void_p
        xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        xlib.XDefaultRootWindow.restype = Window
        xlib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        xlib.XQueryTree.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(Window), ctypes.POINTER(Window),
                                    ctypes.POINTER(ctypes.POINTER(Window)), ctypes.POINTER(ctypes.c_uint)]
        xlib.XFetchName.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(ctypes.c_void_p)]
        xlib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, Window, ctypes.POINTER(XWindowAttributes)]
        xlib.XInternAtom.restype = ctypes.c_ulong
        xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        xlib.XSendEvent.argtypes = [ctypes.c_void_p, Window, ctypes.c_int, ctypes.c_long, ctypes.POINTER(XEvent)]
        xlib.XFree.argtypes = [ctypes.c_void_p]
        xlib.XGetInputFocus.argtypes = [ctypes.c_void_p, ctypes.POINTER(Window), ctypes.POINTER(ctypes.c_int)]
        xlib.XFlush.argtypes = [ctypes.c_void_p]
        xlib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
        xlib.XStringToKeysym.restype = ctypes.c_ulong
        xlib.XStringToKeysym.argtypes = [ctypes.c_char_p]
        xlib.XKeysymToKeycode.restype = ctypes.c_ubyte
        xlib.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.xtst = xtst = ctypes.CDLL("libXtst.so.6")
        xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                              ctypes.c_ulong]
        # A window may vanish between listing it and asking about it: ignore X errors
        # (Xlib's default handler would exit the test process).
        self._ignore = ERROR_HANDLER(lambda display, event: 0)
        xlib.XSetErrorHandler(self._ignore)
        self.display: Optional[int] = xlib.XOpenDisplay(name.encode())
        if not self.display:
            raise RuntimeError(f"cannot open the X display {name}")

    def close(self) -> None:
        if self.display:
            self.xlib.XCloseDisplay(self.display)
            self.display = None

    def top_levels(self) -> List[int]:
        root, parent = Window(), Window()
        children = ctypes.POINTER(Window)()
        count = ctypes.c_uint()
        root_window = self.xlib.XDefaultRootWindow(self.display)
        if not self.xlib.XQueryTree(self.display, root_window, ctypes.byref(root), ctypes.byref(parent),
                                    ctypes.byref(children), ctypes.byref(count)):
            return []
        windows = [children[i] for i in range(count.value)]
        if children:
            self.xlib.XFree(children)
        return windows

    def title(self, window: int) -> Optional[str]:
        name = ctypes.c_void_p()
        if not self.xlib.XFetchName(self.display, window, ctypes.byref(name)) or not name.value:
            return None
        title = ctypes.string_at(name.value).decode(errors="replace")
        self.xlib.XFree(name)
        return title

    def viewable(self, window: int) -> bool:
        attributes = XWindowAttributes()
        return bool(self.xlib.XGetWindowAttributes(self.display, window, ctypes.byref(attributes))) \
            and attributes.map_state == IS_VIEWABLE

    def shown_window(self, title: str) -> Optional[int]:
        """The viewable top-level window titled ``title``, or None."""
        self.xlib.XSync(self.display, 0)
        for window in self.top_levels():
            if self.title(window) == title and self.viewable(window):
                return window
        return None

    def ask_to_close(self, window: int) -> None:
        """WM_DELETE_WINDOW, as a window manager sends it when the close button is clicked."""
        event = XEvent()
        event.xclient.type = CLIENT_MESSAGE
        event.xclient.window = window
        event.xclient.message_type = self.xlib.XInternAtom(self.display, b"WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data[0] = self.xlib.XInternAtom(self.display, b"WM_DELETE_WINDOW", 0)
        event.xclient.data[1] = 0   # CurrentTime
        self.xlib.XSendEvent(self.display, window, 0, 0, ctypes.byref(event))
        self.xlib.XFlush(self.display)

    # ------------------------------------------------------------------ a keyboard (XTEST)

    def point_at(self, window: int) -> None:
        """Moves the pointer into ``window`` (with no window manager, the keyboard follows it)."""
        attributes = XWindowAttributes()
        self.xlib.XGetWindowAttributes(self.display, window, ctypes.byref(attributes))
        self.xtst.XTestFakeMotionEvent(self.display, -1, attributes.x + attributes.width // 2,
                                       attributes.y + attributes.height // 2, 0)
        self.xlib.XFlush(self.display)

    def has_keyboard(self, window: int) -> bool:
        """Whether ``window`` has the X input focus: the app took the keyboard (activateWindow),
        so its window-wide shortcuts (Ctrl+Q) work; before that a key press may be lost."""
        focus, revert = Window(), ctypes.c_int()
        self.xlib.XGetInputFocus(self.display, ctypes.byref(focus), ctypes.byref(revert))
        return focus.value == window

    def keycode(self, name: str) -> int:
        keysym = self.xlib.XStringToKeysym({" ": b"space"}.get(name, name.encode()))
        code = int(self.xlib.XKeysymToKeycode(self.display, keysym))
        if code == 0:
            raise ValueError(f"no key for {name!r}")
        return code

    def press(self, *names: str) -> None:
        """Presses the keys (keysym names: "Control_L", "q", "Return") and releases them in
        reverse, as fingers do; the X server sends them to the focused window."""
        codes = [self.keycode(name) for name in names]
        for code in codes:
            self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        for code in reversed(codes):
            self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.xlib.XFlush(self.display)
