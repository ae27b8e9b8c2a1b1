# The image: exactly what `make run` sets up (plain Python, nothing compiled), in a slim base.
#   docker build -t tycoon .
#   docker run -p 8080:8080 -v tycoon-data:/data tycoon                      # the web table
#   docker run -e TELEGRAM_TOKEN=123:abc -v tycoon-data:/data tycoon        # the bots (and tokens: both)
FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/tycoon.db TYCOON_HEARTBEAT=/tmp/tycoon-heartbeat \
    TYCOON_WEB_HOST=0.0.0.0 TYCOON_WEB_PORT=8080 TYCOON_METRICS_PORT=9090
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY engine/ engine/
COPY render/ render/
COPY words/ words/
COPY data/ data/
RUN pip install --only-binary=:all: .
RUN useradd --system --uid 10001 --create-home tycoon && mkdir /data && chown tycoon /data
USER tycoon
VOLUME /data
# 8080: the web table (and its /healthz, /metrics); 9090: /healthz and /metrics of a bots-only process
EXPOSE 8080 9090
# SIGINT and SIGTERM end `tycoon run` cleanly, drained (status 0); it exits 1 when it should be started again, 2 for a
# refused token or a bad setting (one line names the variable)
STOPSIGNAL SIGINT
# the clock task touches the heartbeat after each sweep that reached the database (at most every
# 5 s), in every mode (web table, bots, both); older than 90 s: clocks stuck or the database gone
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import os,sys,time; sys.exit(time.time() - os.path.getmtime(os.environ['TYCOON_HEARTBEAT']) > 90)"
CMD ["tycoon", "run"]
