"""gunicorn settings: gunicorn -c gunicorn.conf.py 'scorekeeper:create_app()'

From the environment: PORT (listen on 0.0.0.0:PORT; without it on 127.0.0.1:8000,
for a reverse proxy on the same machine) and WEB_CONCURRENCY (how many workers).
Logs are JSON, one object per line: requests on stdout, everything else on stderr.
"""

import gc
import os
import resource

from gunicorn import glogging

from scorekeeper.logs import JsonFormatter, loggable_path

bind = f"0.0.0.0:{os.environ['PORT']}" if os.environ.get("PORT") else "127.0.0.1:8000"

# 2 workers per core and one more, at most 8 (each keeps its own database
# connections). gevent's workers, so that the live pages' streams (web/live.py),
# one per phone watching a session, wait in a greenlet each rather than hold a
# worker; requests still take turns on a worker's one core (bench/README.md).
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * (os.cpu_count() or 1) + 1, 8))
worker_class = "gevent"
# Open connections a worker takes at once. The app holds at most 1,000 live
# streams a worker (LIVE_STREAMS_PER_PROCESS), so pages always find room; and
# the 5,000 connections one hostile client holds until the app's deadlines cut
# them (a slow request body, after 10 s) do not fill the workers' pools
# (bench/README.md, "One client against the server"). Each connection is a
# file: the limit on open files is raised to match (on_starting), within the
# hard limit, which bounds this too.
WORKER_CONNECTIONS = 4000
SPARE_FILES = 200  # a worker's other files: database connections, logs, templates
_, _hard_files = resource.getrlimit(resource.RLIMIT_NOFILE)
worker_connections = (WORKER_CONNECTIONS if _hard_files == resource.RLIM_INFINITY
                      else max(min(WORKER_CONNECTIONS, _hard_files - SPARE_FILES), 100))
# On a restart a worker finishes its requests, all short, but not the streams,
# which would hold it for their whole 5 minutes: after this many seconds they
# are cut, and the browsers open them again on the new workers.
graceful_timeout = 5


# Objects a request allocates before the young generation is collected (700 by
# default: several collections a request).
GC_YOUNG_THRESHOLD = 50_000


def on_starting(server):
    """Before the workers start: the soft limit on open files (often 1,024)
    raised to what worker_connections needs; the workers inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = server.cfg.worker_connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))


def post_worker_init(worker):
    """Once a worker has loaded the app, its long-lived objects (modules,
    templates, the database metadata) leave the garbage collector's sight, and
    young objects are collected less often: otherwise collections during
    requests walk them all (figures in bench/README.md)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


class JsonAccessLogger(glogging.Logger):
    """gunicorn's logger, with each request logged as JSON fields."""

    def access(self, resp, req, environ, request_time):
        status = int(str(resp.status).split(None, 1)[0])
        method = environ.get("REQUEST_METHOD")
        path = loggable_path(environ.get("PATH_INFO"))
        headers = {name.lower(): value for name, value in resp.headers}
        self.access_log.info("%s %s %s", method, path, status, extra={"fields": {
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": round(request_time.total_seconds() * 1000, 1),
            "remote_addr": environ.get("REMOTE_ADDR"),  # the client's, with PROXY_FIX
            "request_id": headers.get("x-request-id"),
        }})


logger_class = JsonAccessLogger
accesslog = "-"
errorlog = "-"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": JsonFormatter}},
    "handlers": {
        "stdout": {"class": "logging.StreamHandler", "formatter": "json",
                   "stream": "ext://sys.stdout"},
        "stderr": {"class": "logging.StreamHandler", "formatter": "json",
                   "stream": "ext://sys.stderr"},
    },
    # The app's own log (errors with their traceback) goes through the root logger.
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {
        # No level here, so that --log-level still applies.
        "gunicorn.error": {"handlers": ["stderr"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["stdout"], "propagate": False},
    },
}
