"""The in-memory twin of `chalicelib.store.push.DynamoPushStore`: the same conditions, the same
answers (tests/push/test_store_contract.py runs one suite on both)."""

from __future__ import annotations

import threading
from dataclasses import replace

from chalicelib.domain.ports import Connection, Subscription


class MemoryPushStore:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.connections: dict[str, Connection] = {}
        self.subs: dict[tuple[str, str], Subscription] = {}

    def put_connection(self, conn: Connection) -> None:
        with self._lock:
            self.connections[conn.id] = replace(conn, rooms=frozenset())

    def get_connection(self, connection_id: str) -> Connection | None:
        with self._lock:
            return self.connections.get(connection_id)

    def delete_connection(self, connection_id: str) -> Connection | None:
        with self._lock:
            conn = self.connections.pop(connection_id, None)
            if conn is not None:
                for room_id in conn.rooms:
                    self.subs.pop((room_id, connection_id), None)
            return conn

    def subscribe(self, sub: Subscription, max_rooms: int) -> bool:
        with self._lock:
            conn = self.connections.get(sub.connection_id)
            if conn is None or (sub.room_id not in conn.rooms and len(conn.rooms) >= max_rooms):
                return False
            self.connections[conn.id] = replace(conn, rooms=conn.rooms | {sub.room_id})
            self.subs[(sub.room_id, sub.connection_id)] = sub
            return True

    def unsubscribe(self, connection_id: str, room_id: str) -> None:
        with self._lock:
            self.subs.pop((room_id, connection_id), None)
            conn = self.connections.get(connection_id)
            if conn is not None:
                self.connections[connection_id] = replace(conn, rooms=conn.rooms - {room_id})

    def subscriptions(self, room_id: str) -> list[Subscription]:
        with self._lock:
            return sorted((s for (rid, _), s in self.subs.items() if rid == room_id),
                          key=lambda s: s.connection_id)

    def set_tag(self, room_id: str, connection_id: str, tag: str, version: int) -> bool:
        with self._lock:
            sub = self.subs.get((room_id, connection_id))
            if sub is None:
                return False
            self.subs[(room_id, connection_id)] = replace(sub, tag=tag, version=version)
            return True
