"""What a screen would hide or twist in text people type (names, chat lines, a storyteller's words)."""

from __future__ import annotations

import unicodedata

from pydantic import AfterValidator

# Cc control, Cf format (zero-width spaces and joiners, bidi overrides and isolates, BOM),
# Co private use, Cs surrogates, Zl/Zp line and paragraph separators
_REFUSED = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})
_BLANK = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})
"""Letters and symbols that draw nothing (Hangul fillers, the blank Braille cell): a name or line of
them reads as empty though no check for spaces sees it."""
_IGNORABLE_MARKS = frozenset({"\u034f", "\u17b4", "\u17b5", *map(chr, range(0x180B, 0x1810)),
                              *map(chr, range(0xE0100, 0xE01F0))})
"""Marks Unicode says to draw as nothing (the grapheme joiner, Khmer's silent vowels, Mongolian and
supplementary variation selectors): invisible wherever they stand."""
MAX_MARKS = 4
"""Combining marks on one character: more than this stack over the lines around them (Zalgo text);
no script we show needs more."""
ZWJ = "\u200d"
"""Zero-width joiner: invisible alone, but it binds emoji sequences (👩‍👧) that chat may carry."""


def hidden_characters(text: str, *, allow_zwj: bool = False) -> list[str]:
    """The characters of `text` a reader could not see, that reorder it, or that pile over its
    neighbours (a combining mark past the `MAX_MARKS`th on one character), as U+XXXX, sorted."""
    found: set[str] = set()
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Mn", "Me"):
            marks += 1
        elif ch != ZWJ:  # a joiner keeps the marks after it on the same character: no fresh count
            marks = 0
        if ((category in _REFUSED and not (allow_zwj and ch == ZWJ)) or ch in _BLANK or ch in _IGNORABLE_MARKS
                or marks > MAX_MARKS):
            found.add(f"U+{ord(ch):04X}")
    return sorted(found)


def visible(text: str) -> bool:
    """Something in `text` draws: a letter, digit, symbol or punctuation (not only marks, spaces or
    format characters — a variation selector alone draws nothing)."""
    return any(unicodedata.category(ch)[0] not in "MZC" for ch in text)


def typed_text(value: str) -> str:
    """Free text typed for others to read (a pydantic validator): NFC, and nothing hidden in it.

    Raises:
        ValueError: a character a reader could not see, that reorders the text or piles over it.
    """
    value = unicodedata.normalize("NFC", value)
    bad = hidden_characters(value)
    if bad:
        raise ValueError(f"文字不能含有看不见、改变文字方向或层层叠加的字符：{'、'.join(bad)}")
    if value and not visible(value):
        raise ValueError("文字不能只有看不见的字符")
    return value


def at_most(limit: int, what: str) -> AfterValidator:
    """The length limit again, on the text as kept (a pydantic validator, after the one that
    normalises it): `max_length` counts what was sent, and NFC may lengthen it (U+FB2C, U+1D160 and
    others decompose into three characters each). `what` names it in the refusal (名字, 文字)."""

    def check(value: str) -> str:
        if len(value) > limit:
            raise ValueError(f"{what}最多 {limit} 个字")
        return value

    return AfterValidator(check)
