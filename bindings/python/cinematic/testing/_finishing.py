"""``with`` for the test doubles that finish: TestRuntime and TestStore."""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["FinishesOnExit"]

T = TypeVar("T", bound="FinishesOnExit")


class FinishesOnExit:
    """A block that ends normally runs :meth:`finish` (its checks); one that raised only
    :meth:`close`, so the block's own exception is the one reported."""

    def finish(self) -> None:
        """Checks what is left and closes (each double says what)."""
        raise NotImplementedError

    def close(self) -> None:
        """Closes without checking."""
        raise NotImplementedError

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, kind: Any, *rest: Any) -> None:
        if kind is None:
            self.finish()
        else:
            self.close()
