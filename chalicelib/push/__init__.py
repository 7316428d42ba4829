"""Push instead of polling: WebSocket connections that are told "room R changed" and nothing else.

- `service`: connect (the token checked), subscribe / unsubscribe (the room's own access rules),
  ping, disconnect — what the three WebSocket routes call (`chalicelib.api.ws_routes`);
- `fanout`: from the table's stream (committed changes, never the request path) to one notice per
  subscriber whose own view changed (`chalicelib.api.stream_handler`), and the chat helper's
  "your turn" hook with live presence;
- `sender`: the small port that delivers a message to a connection (API Gateway's management API
  when deployed, the local socket server in `infra/local_server.py`);
- `build`: the wiring, from `chalicelib.wiring.Services`.

No hidden information ever travels on a socket: a notice names a room the subscriber gave; the
client then fetches its own view with If-None-Match. See docs/architecture.md, "Push".
"""
