"""What chat, notices and the WeChat token need from storage, in domain terms (no boto3 types).

One DynamoDB adapter (`chalicelib.store.chat.DynamoChatStore`) and one in-memory twin
(`chalicelib.store.memory_chat.MemoryChatStore`) implement all three protocols and pass one
contract suite (tests/chat/test_store_contract.py)."""

from __future__ import annotations

from typing import Protocol

from chalicelib.domain.chat_model import (
    CachedToken,
    Channel,
    ChatMessage,
    MessageDraft,
    Mute,
    Report,
    RequestKey,
)
from chalicelib.domain.ports import Page


class ChatStore(Protocol):
    def append_message(self, room_id: str, draft: MessageDraft, request: RequestKey | None = None) -> ChatMessage:
        """Store a message as the next of its channel (seq = last + 1, atomically: parallel posts get
        distinct, gapless places and a reader never sees seq n+1 before seq n). With `request`, the
        key is stored with it in the same write; when the key is already stored (a retry racing its
        first attempt), the message stored under it is returned and nothing is written.

        Raises:
            RateLimited: BUSY, when the channel stayed contended over every attempt.
            ValidationFailed: IDEMPOTENCY_KEY_REUSED, when the key is stored with another request hash
                (another line sent with the same key at the same instant).
        """
        ...

    def message_for_key(self, room_id: str, user: str, key: str) -> tuple[ChatMessage, str] | None:
        """The message stored under a poster's Idempotency-Key, and the request hash it was sent with."""
        ...

    def get_message(self, room_id: str, channel: Channel, seq: int) -> ChatMessage | None: ...

    def list_messages(self, room_id: str, channel: Channel, after_seq: int | None, limit: int) -> list[ChatMessage]:
        """Oldest first: the messages with seq > after_seq (at most `limit`, the oldest of them), or
        with after_seq None the latest `limit` messages."""
        ...

    def take_rate_slot(self, room_id: str, user: str, now_ms: int, window_ms: int, limit: int) -> int:
        """Take one of `limit` posts per sliding `window_ms` for this user in this room, atomically
        (however many posts race for it). 0 = taken; otherwise how many ms until one frees up."""
        ...

    def get_mute(self, room_id: str, user: str) -> Mute | None: ...

    def set_mute(self, room_id: str, mute: Mute) -> None: ...

    def clear_mute(self, room_id: str, user: str) -> None: ...

    def add_report(self, report: Report) -> bool:
        """File a report; False when this reporter already reported this message (nothing written)."""
        ...

    def list_reports(self, limit: int, cursor: str | None) -> Page[Report]:
        """Newest first, across rooms, for the 司礼.

        Raises:
            MalformedRequest: BAD_CURSOR.
        """
        ...


class NoticeStore(Protocol):
    def add_credits(self, user: str, template_id: str, count: int, cap: int, consent: str | None = None) -> int:
        """Add one-time subscription credits (never above `cap`); returns the new count. `consent`: the
        reported consent's key: the credit item remembers the last one it counted, so the same report
        sent again adds nothing, template by template, wherever its first attempt stopped."""
        ...

    def take_credit(self, user: str, template_id: str) -> bool:
        """Use one credit, atomically; False when there is none."""
        ...

    def refund_credit(self, user: str, template_id: str) -> None: ...

    def clear_credits(self, user: str, template_id: str) -> None:
        """WeChat says she has none (43101): forget what we counted."""
        ...

    def credits(self, user: str) -> dict[str, int]:
        """template id -> credits, for the templates she has any record of."""
        ...

    def claim_notice(self, room_id: str, event: str, user: str, now_ms: int) -> bool:
        """Put the per-event dedupe item; False when this event was already claimed for this user."""
        ...

    def openid_of(self, user: str) -> str | None:
        """The WeChat openid the user logged in with (None for development logins and unknown users)."""
        ...


class TokenCache(Protocol):
    def get_token(self, app_id: str) -> CachedToken | None: ...

    def claim_token_refresh(self, app_id: str, seen_generation: int, now_ms: int, lease_ms: int,
                            holder: str) -> bool:
        """Become the one refresher: succeeds only if the token is still at `seen_generation` and no
        unexpired lease is held (or nothing is stored yet)."""
        ...

    def put_token(self, app_id: str, token: str, expires_ms: int, seen_generation: int, holder: str) -> bool:
        """Store a fresh token (generation + 1) and end the lease, if `holder` still holds it."""
        ...

    def release_token_refresh(self, app_id: str, holder: str) -> None:
        """Give the lease up after a failed refresh (others may try at once)."""
        ...


class ChatBackend(ChatStore, NoticeStore, TokenCache, Protocol):
    """All three, as both adapters provide them."""
