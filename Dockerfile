# The bot image: exactly what the README's `make run` sets up, in a slim Python base.
FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/tycoon.db
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY engine/ engine/
COPY render/ render/
COPY data/ data/
RUN pip install .
RUN useradd --system --uid 10001 --create-home tycoon && mkdir /data && chown tycoon /data
USER tycoon
VOLUME /data
# discord.py's run() handles KeyboardInterrupt; python-telegram-bot traps SIGINT too
STOPSIGNAL SIGINT
CMD ["tycoon", "run"]
