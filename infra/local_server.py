"""Run the API locally: an embedded DynamoDB (moto), demo data, the scheduled jobs ticking, and the
Chalice app served by several worker processes, like concurrent Lambda instances.

    infra/dev.sh serve [--port 8000] [--workers 4] [--db-port 8001] [--tick 5]

Why processes: a Chalice app object keeps the current request on itself, so one process serves one
request at a time, exactly as a Lambda instance does; concurrency comes from several processes
sharing the one table. The moto server runs single-threaded so each DynamoDB call is atomic, as a
conditional write is in DynamoDB.
"""

from __future__ import annotations

import argparse
import json
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

ROOT = Path(__file__).resolve().parent.parent
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


def _worker(port: int, env: dict[str, str]) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    from chalice.cli.factory import CLIFactory
    from chalice.local import ChaliceRequestHandler, LocalDevServer

    import app

    class OneShotHandler(ChaliceRequestHandler):
        protocol_version = "HTTP/1.0"  # close after each response: a worker never idles on a socket

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

    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_worker, args=(args.port, env), daemon=True) for _ in range(args.workers)]
    for w in workers:
        w.start()
    stop = threading.Event()
    threading.Thread(target=_ticker, args=(args.tick, stop), daemon=True, name="scheduler").start()

    url = f"http://127.0.0.1:{args.port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{url}/v1/health", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    print(f"深宫 API on {url} (DynamoDB {endpoint}, {args.workers} workers, jobs every {args.tick}s)", flush=True)

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
