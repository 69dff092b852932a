"""A tiny terminal emulator: enough of xterm for what ncurses sends, to read a screen's text.

Handles UTF-8 text, CR/LF/BS/TAB, cursor movement (CUP, CUU/CUD/CUF/CUB, HPA/VPA, CNL/CPL,
save/restore), erasing (ED, EL, ECH), insert/delete of characters and lines, scroll regions
(DECSTBM, IND, RI, SU/SD), REP, the alternate screen, and ignores modes, SGR, charsets and
OSC strings. Attributes are not kept: tests read text.
"""

from __future__ import annotations

import codecs
from typing import List


class Screen:
    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.grid: List[List[str]] = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self.saved = (0, 0)
        self.top, self.bottom = 0, rows - 1
        self.wrap_pending = False
        self.last_char = " "
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._state = "text"
        self._params = ""
        self._osc_esc = False

    # ------------------------------------------------------------------ public

    def resize(self, rows: int, cols: int) -> None:
        grid = [[" "] * cols for _ in range(rows)]
        for y in range(min(rows, self.rows)):
            for x in range(min(cols, self.cols)):
                grid[y][x] = self.grid[y][x]
        self.grid, self.rows, self.cols = grid, rows, cols
        self.top, self.bottom = 0, rows - 1
        self.y, self.x = min(self.y, rows - 1), min(self.x, cols - 1)

    def feed(self, data: bytes) -> None:
        for ch in self._decoder.decode(data):
            self._char(ch)

    def lines(self) -> List[str]:
        return ["".join(row).rstrip() for row in self.grid]

    def text(self) -> str:
        return "\n".join(self.lines())

    # ------------------------------------------------------------------ parser

    def _char(self, ch: str) -> None:
        state = self._state
        if state == "text":
            if ch == "\x1b":
                self._state = "esc"
            elif ch < " " or ch == "\x7f":
                self._control(ch)
            else:
                self._print(ch)
        elif state == "esc":
            self._escape(ch)
        elif state == "csi":
            if "\x40" <= ch <= "\x7e":
                self._state = "text"
                self._csi(ch, self._params)
            elif ch == "\x1b":
                self._state = "esc"
            else:
                self._params += ch
        elif state == "osc":
            if ch == "\x07" or (self._osc_esc and ch == "\\"):
                self._state = "text"
            self._osc_esc = ch == "\x1b"
        elif state == "charset":
            self._state = "text"

    def _control(self, ch: str) -> None:
        if ch == "\r":
            self.x, self.wrap_pending = 0, False
        elif ch in "\n\x0b\x0c":
            self._index()
        elif ch == "\b":
            self.x, self.wrap_pending = max(0, self.x - 1), False
        elif ch == "\t":
            self.x = min(self.cols - 1, (self.x // 8 + 1) * 8)

    def _escape(self, ch: str) -> None:
        self._state = "text"
        if ch == "[":
            self._state, self._params = "csi", ""
        elif ch == "]":
            self._state, self._osc_esc = "osc", False
        elif ch in "()*+":
            self._state = "charset"
        elif ch == "7":
            self.saved = (self.y, self.x)
        elif ch == "8":
            self.y, self.x = self.saved
        elif ch == "D":
            self._index()
        elif ch == "E":
            self.x = 0
            self._index()
        elif ch == "M":
            self._reverse_index()
        elif ch == "c":
            self.__init__(self.rows, self.cols)  # type: ignore[misc]

    def _csi(self, final: str, params: str) -> None:
        private = params[:1] in ("?", ">", "=", "<")
        if private:
            if final in "hl" and params[1:] in ("1049", "47", "1047"):
                self._erase_all()  # alternate screen in/out: start blank
            return
        numbers = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []

        def n(index: int = 0, default: int = 1) -> int:
            value = numbers[index] if index < len(numbers) else 0
            return value if value else default

        self.wrap_pending = final in "m" and self.wrap_pending
        if final in "Hf":
            self.y, self.x = self._clamp_y(n(0) - 1), self._clamp_x(n(1) - 1)
        elif final == "A":
            self.y = max(self.top if self.y >= self.top else 0, self.y - n())
        elif final == "B":
            self.y = min(self.bottom if self.y <= self.bottom else self.rows - 1, self.y + n())
        elif final == "C":
            self.x = self._clamp_x(self.x + n())
        elif final == "D":
            self.x = self._clamp_x(self.x - n())
        elif final == "E":
            self.y, self.x = self._clamp_y(self.y + n()), 0
        elif final == "F":
            self.y, self.x = self._clamp_y(self.y - n()), 0
        elif final == "G" or final == "`":
            self.x = self._clamp_x(n() - 1)
        elif final == "d":
            self.y = self._clamp_y(n() - 1)
        elif final == "J":
            mode = n(0, 0)
            if mode == 0:
                self._erase_line(self.y, self.x, self.cols)
                for y in range(self.y + 1, self.rows):
                    self._erase_line(y, 0, self.cols)
            elif mode == 1:
                for y in range(0, self.y):
                    self._erase_line(y, 0, self.cols)
                self._erase_line(self.y, 0, self.x + 1)
            else:
                self._erase_all()
        elif final == "K":
            mode = n(0, 0)
            if mode == 0:
                self._erase_line(self.y, self.x, self.cols)
            elif mode == 1:
                self._erase_line(self.y, 0, self.x + 1)
            else:
                self._erase_line(self.y, 0, self.cols)
        elif final == "X":
            self._erase_line(self.y, self.x, min(self.cols, self.x + n()))
        elif final == "@":
            row = self.grid[self.y]
            count = min(n(), self.cols - self.x)
            row[self.x:] = [" "] * count + row[self.x:self.cols - count]
        elif final == "P":
            row = self.grid[self.y]
            count = min(n(), self.cols - self.x)
            row[self.x:] = row[self.x + count:] + [" "] * count
        elif final == "L":
            if self.top <= self.y <= self.bottom:
                for _ in range(min(n(), self.bottom - self.y + 1)):
                    self.grid.pop(self.bottom)
                    self.grid.insert(self.y, [" "] * self.cols)
        elif final == "M":
            if self.top <= self.y <= self.bottom:
                for _ in range(min(n(), self.bottom - self.y + 1)):
                    self.grid.pop(self.y)
                    self.grid.insert(self.bottom, [" "] * self.cols)
        elif final == "S":
            for _ in range(n()):
                self._scroll_up()
        elif final == "T":
            for _ in range(n()):
                self._scroll_down()
        elif final == "r":
            top, bottom = n(0) - 1, n(1, self.rows) - 1
            if 0 <= top < bottom < self.rows:
                self.top, self.bottom = top, bottom
            else:
                self.top, self.bottom = 0, self.rows - 1
            self.y = self.x = 0
        elif final == "b":
            for _ in range(n()):
                self._print(self.last_char)
        elif final == "s":
            self.saved = (self.y, self.x)
        elif final == "u":
            self.y, self.x = self.saved
        # m (SGR), h/l (modes), n (reports), t, q: ignored

    # ------------------------------------------------------------------ operations

    def _clamp_x(self, x: int) -> int:
        return max(0, min(self.cols - 1, x))

    def _clamp_y(self, y: int) -> int:
        return max(0, min(self.rows - 1, y))

    def _print(self, ch: str) -> None:
        if self.wrap_pending:
            self.x = 0
            self._index()
            self.wrap_pending = False
        self.grid[self.y][self.x] = ch
        self.last_char = ch
        if self.x == self.cols - 1:
            self.wrap_pending = True
        else:
            self.x += 1

    def _index(self) -> None:
        self.wrap_pending = False
        if self.y == self.bottom:
            self._scroll_up()
        elif self.y < self.rows - 1:
            self.y += 1

    def _reverse_index(self) -> None:
        if self.y == self.top:
            self._scroll_down()
        elif self.y > 0:
            self.y -= 1

    def _scroll_up(self) -> None:
        self.grid.pop(self.top)
        self.grid.insert(self.bottom, [" "] * self.cols)

    def _scroll_down(self) -> None:
        self.grid.pop(self.bottom)
        self.grid.insert(self.top, [" "] * self.cols)

    def _erase_line(self, y: int, start: int, end: int) -> None:
        row = self.grid[y]
        for x in range(max(0, start), min(self.cols, end)):
            row[x] = " "

    def _erase_all(self) -> None:
        self.grid = [[" "] * self.cols for _ in range(self.rows)]
