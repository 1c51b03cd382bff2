"""The banker's spread in numbers: amounts for the prizes that keep every prize different
(seed 004 ¶5, ¶9)."""

from __future__ import annotations


def find_spread(bases: list[int | None], total: int, minimum: int = 0,
                order: list[int] | None = None) -> tuple[int, ...] | None:
    """A way to add ``total`` chips over the prize slots so all present prizes differ.

    Args:
        bases: chips already on each slot; ``None`` for an empty slot (gets 0).
        total: chips to add (≥ 0).
        minimum: least amount any present prize may end with.
        order: slot order in which to try (the last present slot takes the remainder).

    Returns:
        additions per slot, or ``None`` when no spread makes every amount different.
    """
    present = [i for i, b in enumerate(bases) if b is not None]
    if order is not None:
        present = [i for i in order if bases[i] is not None]
    out = [0] * len(bases)
    if not present:
        return tuple(out) if total == 0 else None
    on = [b or 0 for b in bases]  # the chips on each slot (only present slots are read)

    def rec(k: int, left: int, used: set[int]) -> bool:
        i = present[k]
        if k == len(present) - 1:
            final = on[i] + left
            if final >= minimum and final not in used:
                out[i] = left
                return True
            return False
        for x in range(0, left + 1):
            final = on[i] + x
            if final < minimum or final in used:
                continue
            out[i] = x
            used.add(final)
            if rec(k + 1, left - x, used):
                return True
            used.discard(final)
        return False

    return tuple(out) if rec(0, total, set()) else None
