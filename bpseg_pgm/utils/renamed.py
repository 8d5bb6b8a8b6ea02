"""Old public names that keep working for one release: each use warns ``FutureWarning`` and names the new one."""

from __future__ import annotations

import warnings
from typing import Any

__all__ = ["renamed_attribute", "renamed_method", "warn_renamed"]


def warn_renamed(owner: str, old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``owner.old`` is now ``owner.new`` (FutureWarning, pointing at the caller's line)."""
    warnings.warn(
        f"{owner}.{old} is renamed {new} and the old name will be removed in the next release; use {new}",
        FutureWarning,
        stacklevel=stacklevel,
    )


def renamed_attribute(old: str, new: str) -> property:
    """A read-only property ``old`` that warns and returns ``self.new``."""

    def get(self: Any) -> Any:
        warn_renamed(type(self).__name__, old, new)
        return getattr(self, new)

    return property(get, doc=f"Renamed :attr:`{new}`; ``{old}`` warns and will be removed in the next release.")


def renamed_method(old: str, new: str):
    """A method ``old`` that warns and calls ``self.new`` with the same arguments."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        warn_renamed(type(self).__name__, old, new)
        return getattr(self, new)(*args, **kwargs)

    method.__name__ = old
    method.__doc__ = f"Renamed :meth:`{new}`; ``{old}`` warns and will be removed in the next release."
    return method
