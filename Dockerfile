# The bot image: exactly what the README's `make run` sets up, in a slim Python base.
FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/tycoon.db TYCOON_HEARTBEAT=/tmp/tycoon-heartbeat
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY engine/ engine/
COPY render/ render/
COPY words/ words/
COPY data/ data/
# the engine compiled as `make` does (tycoon compile); the compiler is removed again after
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install '.[fast]' && tycoon compile \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 10001 --create-home tycoon && mkdir /data && chown tycoon /data
USER tycoon
VOLUME /data
# SIGINT ends `tycoon run` cleanly (status 0); it exits 1 when it cannot recover, 2 for a refused token
STOPSIGNAL SIGINT
# the clock task touches the heartbeat after each sweep that reached the database (at most every 5 s);
# older than 90 s means the clocks are stuck or the database is gone
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import os,sys,time; sys.exit(time.time() - os.path.getmtime(os.environ['TYCOON_HEARTBEAT']) > 90)"
CMD ["tycoon", "run"]
