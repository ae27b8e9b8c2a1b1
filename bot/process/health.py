"""``/healthz`` and ``/metrics`` for operators, on the web table's server and, in a process without
it, on ``TYCOON_METRICS_PORT`` (aiohttp; the metrics are ``engine/service/metrics.py`` and the
process's own, in Prometheus' text format). Also the access log of these servers: one structured
line per request (``bot.access``: method, path, status, milliseconds, client).

``/healthz`` is healthy (200) while the clock task has swept the database within ``STALE`` seconds:
the same proof of work as the heartbeat file that the image's health check reads.
"""

from __future__ import annotations

import logging
import time

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

STALE = 90.0  # seconds without a sweep before the process counts as unhealthy
SERVICE_KEY = web.AppKey("health_service", object)


class AccessLog(AbstractAccessLogger):
    """One line per request, ``key=value`` pairs: what a log collector can parse."""

    def log(self, request, response, time_taken: float) -> None:
        self.logger.info("method=%s path=%s status=%s ms=%.1f client=%s", request.method, request.path,
                         response.status, time_taken * 1000, request.remote)


ACCESS_LOGGER = logging.getLogger("bot.access")


async def healthz(request: web.Request) -> web.Response:
    service = request.app[SERVICE_KEY]
    swept = service.health.swept_at
    age = None if swept is None else round(time.time() - swept, 1)
    # a database that refuses writes (locked, full) still answers the sweep's reads: said apart
    refusing = service.health.writes_failing()
    healthy = age is not None and age <= STALE and not refusing
    return web.json_response({"ok": healthy, "last_sweep_seconds_ago": age,
                              "database": "refusing writes" if refusing else "ok"}, status=200 if healthy else 503)


async def metrics(request: web.Request) -> web.Response:
    response = web.Response(body=generate_latest())
    response.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return response


def add_routes(app: web.Application, service) -> None:
    """``/healthz`` and ``/metrics`` on an application (the web table's, or the small one below)."""
    app[SERVICE_KEY] = service
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics)


async def start(service, host: str, port: int) -> web.AppRunner:
    """A server of its own for ``/healthz`` and ``/metrics`` (a process with only chat bots)."""
    app = web.Application()
    add_routes(app, service)
    runner = web.AppRunner(app, access_log=ACCESS_LOGGER, access_log_class=AccessLog)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
