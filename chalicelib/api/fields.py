"""Field types for what people type: names are checked for what a screen would hide or twist."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

from chalicelib.core.text import at_most, hidden_characters, visible


def clean_name(value: str) -> str:
    """NFC-normalised and trimmed; refuses invisible and direction-changing characters.

    Raises:
        ValueError: the name holds a character a reader could not see or that reorders the text.
    """
    value = unicodedata.normalize("NFC", value).strip()
    bad = hidden_characters(value)
    if bad:
        raise ValueError(f"名字不能含有看不见、改变文字方向或层层叠加的字符：{'、'.join(bad)}")
    if not visible(value):  # empty, or nothing in it draws
        raise ValueError("名字不能为空")
    return value


PersonName = Annotated[str, Field(min_length=1, max_length=20, description="名字（1–20 个字）"),
                      AfterValidator(clean_name), at_most(20, "名字")]
"""A player's name or WeChat nickname."""
ConsortName = Annotated[str, Field(min_length=1, max_length=12, description="妃子名号（1–12 个字）"),
                       AfterValidator(clean_name), at_most(12, "名字")]
"""A 妃子's name."""
