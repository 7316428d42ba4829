"""Run the API locally: an embedded DynamoDB (moto), demo data, the scheduled jobs ticking, and the
Chalice app served by several worker processes, like concurrent Lambda instances.

    infra/dev.sh serve [--port 8000] [--workers 4] [--db-port 8001] [--tick 5] [--client-dir DIR]
                       [--ws-port 8002] [--stream-poll 0.05]

The H5 client (client/dist/h5, built by `infra/dev.sh serve`) is served at `/` on the same origin:
API paths (`/v1/…`, `/openapi.json`) go to the app; any other GET is a file of the build, or its
index.html so the client's router can take the path.

Why processes: a Chalice app object keeps the current request on itself, so one process serves one
request at a time, exactly as a Lambda instance does; concurrency comes from several processes
sharing the one table. The moto server runs single-threaded so each DynamoDB call is atomic, as a
conditional write is in DynamoDB.

Push (room notices) runs as deployed, on the same code: the table's stream is on (moto's DynamoDB
Streams), a thread polls it like Lambda's event source mapping and calls the stream function
(`chalicelib.api.stream_handler`), and a real WebSocket endpoint (`--ws-port`) calls the three
WebSocket functions with API Gateway's events and delivers what they send (`infra/local_push.py`).
`GET /v1/live` tells clients its address.
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import urllib.request
from http.server import HTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLIENT_DIR = ROOT / "client" / "dist" / "h5"
LOCAL_ENV = {
    "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_DEFAULT_REGION": "ap-northeast-1",
    "POWERTOOLS_METRICS_DISABLED": "true",
}


def _stage_env() -> dict[str, str]:
    config = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))
    return {**config.get("environment_variables", {}), **config["stages"]["local"]["environment_variables"]}


def start_dynamodb(port: int) -> str:
    """A single-threaded moto server in a daemon thread; returns its endpoint URL."""
    from moto.moto_server.werkzeug_app import (
        DomainDispatcherApplication,
        MotoRequestHandler,
        create_backend_app,
    )
    from werkzeug.serving import make_server

    from infra.moto_speedups import install, install_plain_json_answers

    install()  # moto fast enough to play whole games on, with the same answers
    install_plain_json_answers()

    class QuietHandler(MotoRequestHandler):
        # one request per connection: a single-threaded server must never sit on an idle keep-alive
        protocol_version = "HTTP/1.0"

        def log_request(self, *args: object, **kwargs: object) -> None:
            pass

    server = make_server("127.0.0.1", port, DomainDispatcherApplication(create_backend_app), threaded=False,
                         request_handler=QuietHandler)
    threading.Thread(target=server.serve_forever, daemon=True, name="dynamodb").start()
    return f"http://127.0.0.1:{server.server_address[1]}"


class ReusePortServer(HTTPServer):
    """Every worker binds the same port; the kernel spreads connections across them."""

    allow_reuse_address = True
    allow_reuse_port = True
    request_queue_size = 256  # a burst of phones connecting at once must queue, not be refused


def is_api_path(path: str) -> bool:
    """Paths the app answers; everything else belongs to the H5 client."""
    path = path.split("?", 1)[0].split("#", 1)[0]
    return path == "/v1" or path.startswith("/v1/") or path == "/openapi.json"


def client_file(client_dir: Path, path: str) -> Path | None:
    """The build's file for a URL path; index.html for a path that is no file (a client route);
    None when there is no build. Never a file outside `client_dir`."""
    index = client_dir / "index.html"
    if not index.is_file():
        return None
    from urllib.parse import unquote

    rel = unquote(path.split("?", 1)[0].split("#", 1)[0]).lstrip("/")
    root = client_dir.resolve()
    try:
        candidate = (root / rel).resolve()
    except (OSError, ValueError):
        return index
    if rel and candidate.is_file() and candidate.is_relative_to(root):
        return candidate
    return index


def _content_type(file: Path) -> str:
    kind = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html",
            ".json": "application/json", ".svg": "image/svg+xml", ".txt": "text/plain"}.get(file.suffix)
    if kind:
        return f"{kind}; charset=utf-8"
    return mimetypes.guess_type(file.name)[0] or "application/octet-stream"


def _worker(port: int, env: dict[str, str], client_dir: str | None = None) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    from chalice.cli.factory import CLIFactory
    from chalice.local import ChaliceRequestHandler, LocalDevServer

    import app
    from chalicelib.api.errors import gateway_answer

    static_root = Path(client_dir) if client_dir else None

    class OneShotHandler(ChaliceRequestHandler):
        protocol_version = "HTTP/1.0"  # close after each response: a worker never idles on a socket

        def _send_error_response(self, error: Any) -> None:
            # the gateway's own refusals (no token, unknown path) in the API's shape, as deployed
            answer = gateway_answer(error.CODE, error.body)
            if answer is None:
                super()._send_error_response(error)
                return
            status, body = answer
            self._send_http_response(status, {"Content-Type": "application/json; charset=utf-8"}, body)

        def do_GET(self) -> None:
            if static_root is None or is_api_path(self.path):
                self._generic_handle()
            else:
                self._send_client_file(head=False)

        def do_HEAD(self) -> None:
            if static_root is None or is_api_path(self.path):
                self._generic_handle()
            else:
                self._send_client_file(head=True)

        def _send_client_file(self, *, head: bool) -> None:
            assert static_root is not None
            file = client_file(static_root, self.path)
            if file is None:
                body = b"H5 client not built: run infra/dev.sh serve (or npm run build:h5 in client/)\n"
                self.send_response(404)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
            else:
                body = file.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", _content_type(file))
                # hashed assets never change; index.html must be asked for again to see a new build
                immutable = file.name != "index.html" and file.parent != static_root.resolve()
                self.send_header("Cache-Control", "public, max-age=31536000, immutable" if immutable else "no-cache")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
            if is_api_path(self.path):
                super().log_request(code, size)

    config = CLIFactory(str(ROOT)).create_config_obj(chalice_stage_name="local")
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    LocalDevServer(app.app, config, "127.0.0.1", port, handler_cls=OneShotHandler,
                   server_cls=ReusePortServer).server.serve_forever()


def _ticker(tick_s: float, stop: threading.Event) -> None:
    from chalicelib.observability import flush_metrics, logger
    from chalicelib.rooms import sweeper
    from chalicelib.wiring import services

    last_expiry = 0.0
    while not stop.wait(tick_s):
        try:
            deps = services().room_deps()
            sweeper.settle_overdue(deps)
            if time.monotonic() - last_expiry >= 60:
                sweeper.expire_stalled(deps)
                last_expiry = time.monotonic()
            flush_metrics()
        except Exception:  # noqa: BLE001 - keep ticking; the error is logged for the developer
            logger.exception("scheduled job failed")


def start_push(svc: Any, ws_port: int, poll_s: float, stop: threading.Event) -> Any:
    """The WebSocket endpoint (push's sender from now on) and the stream poller thread."""
    from chalicelib.push.build import use_sender
    from infra.local_push import (
        SocketServer,
        StreamPoller,
        chalice_handlers,
        enable_stream,
        stream_function,
        streams_client,
    )

    arn = enable_stream(svc.dynamodb, svc.settings.table_name)
    sockets = SocketServer("127.0.0.1", ws_port, chalice_handlers()).start()
    use_sender(sockets)
    poller = StreamPoller(streams_client(svc.dynamodb), arn, stream_function())
    threading.Thread(target=poller.run, args=(stop, poll_s), daemon=True, name="stream").start()
    return sockets


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db-port", type=int, default=0, help="moto port (0 = any free port)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--tick", type=float, default=5.0, help="seconds between scheduled-job ticks")
    parser.add_argument("--no-demo", action="store_true", help="start with an empty table")
    parser.add_argument("--client-dir", default=str(CLIENT_DIR),
                        help="the H5 build served at / (default client/dist/h5; '' = API only)")
    parser.add_argument("--ws-port", type=int, default=0, help="WebSocket port for room notices (0 = any free port)")
    parser.add_argument("--stream-poll", type=float, default=0.05,
                        help="seconds between reads of the table's stream while it is quiet")
    args = parser.parse_args(argv)

    env = {**LOCAL_ENV, **_stage_env()}
    os.environ.update(env)
    endpoint = start_dynamodb(args.db_port or _free_port())
    env["AWS_ENDPOINT_URL_DYNAMODB"] = endpoint
    os.environ["AWS_ENDPOINT_URL_DYNAMODB"] = endpoint

    from chalicelib.store.table import create_table
    from chalicelib.wiring import services

    svc = services()
    create_table(svc.dynamodb, svc.settings.table_name)
    if not args.no_demo:
        from infra import demo_data

        demo_data.load(svc)
    stop = threading.Event()
    sockets = start_push(svc, args.ws_port, args.stream_poll, stop)
    env["LIVE_URL"] = sockets.url

    ctx = multiprocessing.get_context("spawn")
    client_dir = args.client_dir or None
    workers = [ctx.Process(target=_worker, args=(args.port, env, client_dir), daemon=True)
               for _ in range(args.workers)]
    for w in workers:
        w.start()
    threading.Thread(target=_ticker, args=(args.tick, stop), daemon=True, name="scheduler").start()

    url = f"http://127.0.0.1:{args.port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{url}/v1/health", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    print(f"深宫 API on {url} (DynamoDB {endpoint}, {args.workers} workers, jobs every {args.tick}s)", flush=True)
    if client_dir:
        built = (Path(client_dir) / "index.html").is_file()
        print(f"H5 client on {url}/ ({client_dir}{'' if built else ', not built yet'})", flush=True)
    print(f"Room notices on {sockets.url} (the table's stream read every {args.stream_poll}s)", flush=True)

    def shutdown(*_: object) -> None:
        stop.set()
        for w in workers:
            w.terminate()
        for w in workers:
            w.join(5)
        os._exit(0)  # daemon threads (moto, scheduler) may be mid-call: do not wait for them

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    while True:
        time.sleep(1)
        if not all(w.is_alive() for w in workers):
            print("a worker died; stopping", file=sys.stderr)
            shutdown()


if __name__ == "__main__":
    sys.exit(main())
