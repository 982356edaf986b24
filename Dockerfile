# The bot in a slim image: non-root, the database on a volume, the same install as the README.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/dominoes.sqlite3

# DejaVu covers Latin, Cyrillic and more; the pictures fall back to it after the PyPI font.
# FriBiDi lets Pillow's wheel (which bundles libraqm and HarfBuzz) join Arabic letters and lay
# them right to left; without it names in Arabic script are drawn as "Player N".
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 bot \
    && mkdir /data && chown bot:bot /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY renderers ./renderers
COPY bot ./bot
RUN pip install --no-cache-dir .

USER bot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
