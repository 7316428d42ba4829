"""What a screen would hide or twist in text people type (names, chat lines)."""

from __future__ import annotations

import unicodedata

# Cc control, Cf format (zero-width spaces and joiners, bidi overrides and isolates, BOM),
# Co private use, Cs surrogates, Zl/Zp line and paragraph separators
_REFUSED = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})
ZWJ = "\u200d"
"""Zero-width joiner: invisible alone, but it binds emoji sequences (👩‍👧) that chat may carry."""


def hidden_characters(text: str, *, allow_zwj: bool = False) -> list[str]:
    """The characters of `text` a reader could not see or that reorder it, as U+XXXX, sorted."""
    return sorted({
        f"U+{ord(ch):04X}" for ch in text
        if unicodedata.category(ch) in _REFUSED and not (allow_zwj and ch == ZWJ)
    })
