"""The in-memory twin of `chalicelib.store.chat.DynamoChatStore`: the same conditions and answers,
under one lock (tests, the service layer's unit tests, tools). Passes the same contract suite."""

from __future__ import annotations

import threading
from dataclasses import replace

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
from chalicelib.store.cursors import CursorCodec


class MemoryChatStore:
    """ChatStore + NoticeStore + TokenCache in one process. Thread-safe."""

    def __init__(self, cursor_secret: bytes = b"memory-chat-cursors") -> None:
        self._lock = threading.RLock()
        self.messages: dict[tuple[str, Channel], list[ChatMessage]] = {}
        self.keys: dict[tuple[str, str, str], tuple[Channel, int, str]] = {}
        self.rates: dict[tuple[str, str], list[int]] = {}
        self.mutes: dict[tuple[str, str], Mute] = {}
        self.reports: dict[str, Report] = {}
        self.reported: set[tuple[str, str, str]] = set()
        self.credit_counts: dict[tuple[str, str], int] = {}
        self.notices: set[tuple[str, str, str]] = set()
        self.last_consent: dict[tuple[str, str], str] = {}
        self.openids: dict[str, str] = {}
        self.tokens: dict[str, CachedToken] = {}
        self._cursors = CursorCodec(cursor_secret)

    # -- messages ----------------------------------------------------------------------------------

    def append_message(self, room_id: str, draft: MessageDraft, request: RequestKey | None = None) -> ChatMessage:
        with self._lock:
            if request is not None:
                found = self.message_for_key(room_id, request.user, request.key)
                if found is not None:
                    return request.same_as(found)
            channel = self.messages.setdefault((room_id, draft.channel), [])
            message = ChatMessage.of(room_id, len(channel) + 1, draft)
            channel.append(message)
            if request is not None:
                self.keys[(room_id, request.user, request.key)] = (draft.channel, message.seq, request.request_hash)
            return message

    def message_for_key(self, room_id: str, user: str, key: str) -> tuple[ChatMessage, str] | None:
        with self._lock:
            found = self.keys.get((room_id, user, key))
            if found is None:
                return None
            channel, seq, request_hash = found
            message = self.get_message(room_id, channel, seq)
            return (message, request_hash) if message is not None else None

    def get_message(self, room_id: str, channel: Channel, seq: int) -> ChatMessage | None:
        with self._lock:
            messages = self.messages.get((room_id, channel), [])
            return messages[seq - 1] if 0 < seq <= len(messages) else None

    def list_messages(self, room_id: str, channel: Channel, after_seq: int | None, limit: int) -> list[ChatMessage]:
        with self._lock:
            messages = list(self.messages.get((room_id, channel), []))
        if after_seq is None:
            return messages[-limit:]
        return messages[max(after_seq, 0):max(after_seq, 0) + limit]

    # -- limits and moderation ---------------------------------------------------------------------

    def take_rate_slot(self, room_id: str, user: str, now_ms: int, window_ms: int, limit: int) -> int:
        with self._lock:
            taken = self.rates.setdefault((room_id, user), [])
            if len(taken) >= limit and taken[-limit] > now_ms - window_ms:
                return taken[-limit] + window_ms - now_ms
            taken.append(now_ms)
            del taken[:-limit]
            return 0

    def get_mute(self, room_id: str, user: str) -> Mute | None:
        with self._lock:
            return self.mutes.get((room_id, user))

    def set_mute(self, room_id: str, mute: Mute) -> None:
        with self._lock:
            self.mutes[(room_id, mute.user)] = mute

    def clear_mute(self, room_id: str, user: str) -> None:
        with self._lock:
            self.mutes.pop((room_id, user), None)

    def add_report(self, report: Report) -> bool:
        m = report.message
        with self._lock:
            once = (m.room_id, m.id, report.reporter)
            if once in self.reported:
                return False
            self.reported.add(once)
            self.reports[f"{report.at_ms:013d}#{m.room_id}#{m.id}#{report.reporter}"] = report
            return True

    def list_reports(self, limit: int, cursor: str | None) -> Page[Report]:
        start = self._cursors.decode(cursor, scope="chat-reports")
        with self._lock:
            keys = sorted(self.reports, reverse=True)
            if start:
                keys = [k for k in keys if k < str(start.get("sk", ""))]
            page = keys[:limit]
            items = [self.reports[k] for k in page]
        more = len(keys) > limit
        return Page(items=items, cursor=self._cursors.encode({"sk": page[-1]}, scope="chat-reports") if more else None)

    # -- notices -----------------------------------------------------------------------------------

    def add_credits(self, user: str, template_id: str, count: int, cap: int, consent: str | None = None) -> int:
        with self._lock:
            if consent is not None and self.last_consent.get((user, template_id)) == consent:
                return self.credit_counts.get((user, template_id), 0)
            now = min(cap, self.credit_counts.get((user, template_id), 0) + min(count, cap))
            self.credit_counts[(user, template_id)] = now
            if consent is not None:
                self.last_consent[(user, template_id)] = consent
            return now

    def take_credit(self, user: str, template_id: str) -> bool:
        with self._lock:
            have = self.credit_counts.get((user, template_id), 0)
            if have <= 0:
                return False
            self.credit_counts[(user, template_id)] = have - 1
            return True

    def refund_credit(self, user: str, template_id: str) -> None:
        with self._lock:
            self.credit_counts[(user, template_id)] = self.credit_counts.get((user, template_id), 0) + 1

    def clear_credits(self, user: str, template_id: str) -> None:
        with self._lock:
            self.credit_counts[(user, template_id)] = 0

    def credits(self, user: str) -> dict[str, int]:
        with self._lock:
            return {t: n for (u, t), n in sorted(self.credit_counts.items()) if u == user}

    def claim_notice(self, room_id: str, event: str, user: str, now_ms: int) -> bool:
        with self._lock:
            if (room_id, event, user) in self.notices:
                return False
            self.notices.add((room_id, event, user))
            return True

    def openid_of(self, user: str) -> str | None:
        with self._lock:
            return self.openids.get(user)

    # -- the WeChat access token -------------------------------------------------------------------

    def get_token(self, app_id: str) -> CachedToken | None:
        with self._lock:
            return self.tokens.get(app_id)

    def claim_token_refresh(self, app_id: str, seen_generation: int, now_ms: int, lease_ms: int,
                            holder: str) -> bool:
        with self._lock:
            current = self.tokens.get(app_id)
            if current is not None and (current.generation != seen_generation
                                        or (current.holder is not None and current.lease_until_ms >= now_ms)):
                return False
            base = current or CachedToken(token=None, expires_ms=0, generation=seen_generation)
            self.tokens[app_id] = replace(base, lease_until_ms=now_ms + lease_ms, holder=holder)
            return True

    def put_token(self, app_id: str, token: str, expires_ms: int, seen_generation: int, holder: str) -> bool:
        with self._lock:
            current = self.tokens.get(app_id)
            if current is None or current.holder != holder or current.generation != seen_generation:
                return False
            self.tokens[app_id] = CachedToken(token=token, expires_ms=expires_ms, generation=seen_generation + 1)
            return True

    def release_token_refresh(self, app_id: str, holder: str) -> None:
        with self._lock:
            current = self.tokens.get(app_id)
            if current is not None and current.holder == holder:
                self.tokens[app_id] = replace(current, lease_until_ms=0, holder=None)
