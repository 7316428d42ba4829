"""Chat values: channels, messages, mutes, reports, content verdicts, cached WeChat tokens.

Plain frozen values shared by the services, the storage port and its adapters (no boto3 here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from chalicelib.core.errors import ValidationFailed
from chalicelib.core.game import ViewerRole


class Channel(StrEnum):
    TABLE = "table"
    """席间: the players and the host; in games where spectators do not chat apart, everyone."""
    WATCH = "watch"
    """看台: the spectators of a game with `spectators_chat_apart` (players never see it)."""

    @property
    def letter(self) -> str:
        return self.value[0]


_BY_LETTER = {c.letter: c for c in Channel}
_MESSAGE_ID = re.compile(r"^([a-z])([1-9][0-9]{0,8})$")


def message_id(channel: Channel, seq: int) -> str:
    """A message's id: its channel's letter and its place in the channel ("t12", "w3")."""
    return f"{channel.letter}{seq}"


def parse_message_id(text: str) -> tuple[Channel, int] | None:
    m = _MESSAGE_ID.match(text)
    if m is None or m.group(1) not in _BY_LETTER:
        return None
    return _BY_LETTER[m.group(1)], int(m.group(2))


def channel_of_letter(letter: str) -> Channel | None:
    return _BY_LETTER.get(letter)


class Scene(IntEnum):
    """WeChat content-security scenes (msgSecCheck v2 `scene`)."""

    PROFILE = 1
    """资料: names and nicknames (shown to everyone, kept)."""
    COMMENT = 2
    """评论: chat lines, the storyteller's tells."""
    FORUM = 3
    """论坛."""
    SOCIAL_LOG = 4
    """社交日志."""


class Verdict(StrEnum):
    """WeChat's `result.suggest`."""

    PASS = "pass"
    REVIEW = "review"
    """Doubtful: WeChat suggests a human look at it."""
    RISKY = "risky"


class ReportReason(StrEnum):
    ABUSE = "abuse"
    """辱骂、人身攻击."""
    SPOILER = "spoiler"
    """泄露暗中信息（观战者向席上透底等）."""
    SPAM = "spam"
    """广告、刷屏."""
    OTHER = "other"
    """其他."""
    REVIEW = "review"
    """Filed by the content check itself: WeChat suggested a human review of a line it let through."""


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who said it, as the room shows her: a seat and its name, the host, or a spectator's nickname.
    Never a hidden role. `user` is kept for moderation and shown only to moderators."""

    user: str
    role: ViewerRole
    seat: int | None
    name: str


@dataclass(frozen=True, slots=True)
class MessageDraft:
    """A message before the store gives it its place in the channel."""

    channel: Channel
    at_ms: int
    speaker: Speaker
    text: str
    """What is shown: the free text, or the phrase's text."""
    phrase: str | None = None
    """The quick phrase's id when one was sent."""
    flagged: bool = False
    """The content check suggested a review (the line is shown and filed for the 司礼)."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    room_id: str
    channel: Channel
    seq: int
    """1, 2, 3… per room and channel, in the order the messages were stored (no gaps)."""
    at_ms: int
    speaker: Speaker
    text: str
    phrase: str | None = None
    flagged: bool = False

    @property
    def id(self) -> str:
        return message_id(self.channel, self.seq)

    @classmethod
    def of(cls, room_id: str, seq: int, draft: MessageDraft) -> ChatMessage:
        return cls(room_id=room_id, channel=draft.channel, seq=seq, at_ms=draft.at_ms, speaker=draft.speaker,
                   text=draft.text, phrase=draft.phrase, flagged=draft.flagged)


@dataclass(frozen=True, slots=True)
class RequestKey:
    """An Idempotency-Key a poster sent, and a hash of what she asked (a key reused for another
    message is refused, a retry gets the first answer)."""

    user: str
    key: str
    request_hash: str

    def same_as(self, found: tuple[ChatMessage, str]) -> ChatMessage:
        """The message stored under this key, if it was stored for this very request.

        Raises:
            ValidationFailed: IDEMPOTENCY_KEY_REUSED (the key went with another line).
        """
        message, stored_hash = found
        if stored_hash != self.request_hash:
            raise ValidationFailed("这个请求编号（Idempotency-Key）已用于另一句话", code="IDEMPOTENCY_KEY_REUSED")
        return message


@dataclass(frozen=True, slots=True)
class Mute:
    user: str
    until_ms: int
    by: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class Report:
    """A reported line, with a copy of it (the 司礼 sees what was said even after the room is gone)."""

    message: ChatMessage
    reporter: str
    reporter_name: str
    reason: ReportReason
    at_ms: int


@dataclass(frozen=True, slots=True)
class CachedToken:
    """The WeChat access token as the table holds it, and who (if anyone) is refreshing it."""

    token: str | None
    expires_ms: int
    generation: int
    """Counts refreshes: a refresh is claimed for the generation one has seen."""
    lease_until_ms: int = 0
    holder: str | None = None
