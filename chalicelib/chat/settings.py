"""Chat and notice settings per stage, read from the environment in one place.

    CHAT_CONTENT_CHECK        "wechat" (msgSecCheck) or "local" (the word list). Default: "local" in
                              the local stage, "wechat" anywhere else; "local" is refused in Lambda.
    WECHAT_NOTICES            JSON: notice kind -> {"template_id": …, "fields": {keyword: value name}}
                              for the kinds this stage sends ("turn", "hurry", "vote", "game_end").
                              Absent or empty: notices are disabled (a log line says so).
    WECHAT_NOTICE_PAGE        the mini-program page a notice opens; {room_id}, {game} and {family}
                              are filled in. Default "pages/room-{family}/index?id={room_id}".
    WECHAT_MINIPROGRAM_STATE  "formal" | "trial" | "developer" (default: "developer" locally, else "formal").

Value names a template's keywords can take: "game" (the game's title), "tip" (what to do, e.g.
「轮到你出手了」), "time" (when, China time), "room" (the room id). Without "fields" a template gets
{"thing1": "game", "thing2": "tip"}.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from chalicelib.config import ConfigurationError


class NoticeKind(StrEnum):
    TURN = "turn"
    """Her turn (a TURN pending newly includes her seat)."""
    HURRY = "hurry"
    """The creator pressed 催战: the round was settled and a new one waits for her."""
    VOTE = "vote"
    """The storyteller opened a vote (a HOST pending became a TURN with a deadline)."""
    GAME_END = "game_end"
    """The game she sat in is over."""


VALUE_NAMES = frozenset({"game", "tip", "time", "room"})
DEFAULT_FIELDS: Mapping[str, str] = MappingProxyType({"thing1": "game", "thing2": "tip"})
STATES = ("formal", "trial", "developer")


@dataclass(frozen=True)
class NoticeTemplate:
    template_id: str
    fields: Mapping[str, str] = DEFAULT_FIELDS
    """Template keyword (e.g. "thing1") -> value name."""


@dataclass(frozen=True)
class ChatSettings:
    content_check: str = "local"
    notices: Mapping[NoticeKind, NoticeTemplate] = field(default_factory=dict)
    notice_page: str = "pages/room-{family}/index?id={room_id}"
    miniprogram_state: str = "developer"

    @property
    def notices_enabled(self) -> bool:
        return bool(self.notices)

    def template_ids(self) -> frozenset[str]:
        return frozenset(t.template_id for t in self.notices.values())


def _templates(raw: str) -> dict[NoticeKind, NoticeTemplate]:
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise TypeError("not an object")
        out: dict[NoticeKind, NoticeTemplate] = {}
        for kind, spec in data.items():
            template_id = str(spec["template_id"]).strip()
            fields = dict(spec.get("fields") or DEFAULT_FIELDS)
            if not template_id or not set(fields.values()) <= VALUE_NAMES:
                raise ValueError(f"bad template for {kind}")
            out[NoticeKind(kind)] = NoticeTemplate(template_id, MappingProxyType(fields))
        return out
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise ConfigurationError(f"WECHAT_NOTICES is malformed: {e}") from e


def load_chat_settings(env: Mapping[str, str] | None = None, *, local: bool, in_lambda: bool = False) -> ChatSettings:
    """The chat settings of this stage (`local`: the local stage outside Lambda).

    Raises:
        ConfigurationError: an unknown content check, "local" in Lambda, malformed templates or state.
    """
    env = os.environ if env is None else env
    check = env.get("CHAT_CONTENT_CHECK", "local" if local else "wechat")
    if check not in ("wechat", "local"):
        raise ConfigurationError(f"CHAT_CONTENT_CHECK must be wechat or local, not {check!r}")
    if check == "local" and in_lambda:
        raise ConfigurationError("CHAT_CONTENT_CHECK=local is refused in Lambda: deployed stages ask WeChat")
    state = env.get("WECHAT_MINIPROGRAM_STATE", "developer" if local else "formal")
    if state not in STATES:
        raise ConfigurationError(f"WECHAT_MINIPROGRAM_STATE must be one of {STATES}, not {state!r}")
    page = env.get("WECHAT_NOTICE_PAGE", "pages/room-{family}/index?id={room_id}")
    try:
        page.format(room_id="r", game="g", family="f")
    except (KeyError, IndexError, ValueError) as e:
        raise ConfigurationError(f"WECHAT_NOTICE_PAGE may use only {{room_id}}, {{game}}, {{family}}: {e}") from e
    return ChatSettings(content_check=check, notices=_templates(env.get("WECHAT_NOTICES", "")), notice_page=page,
                        miniprogram_state=state)
