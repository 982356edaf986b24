# The bot in a slim image: the installed wheel runs (no source tree), as uid 10001, with the
# database on the /data volume. docs/OPERATIONS.md says how to run, check and back it up.
#
#   docker build -t domino-bot .
#   docker run --env-file .env -v domino-data:/data domino-bot

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# --- build: the wheel, from the product's packages only (.dockerignore keeps the rest out) ---
FROM ${PYTHON_IMAGE} AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY renderers ./renderers
COPY bot ./bot
RUN pip wheel --no-cache-dir --disable-pip-version-check --no-deps --wheel-dir /dist .

# --- run ---------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/dominoes.sqlite3 \
    HTTP_PORT=8080

# DejaVu covers Latin, Cyrillic and more; the pictures fall back to it after the PyPI font.
# FriBiDi lets Pillow's wheel (which bundles libraqm and HarfBuzz) join Arabic letters and lay
# them right to left; without it names in Arabic script are drawn as "Player N".
# /data belongs to uid 10001: a named volume copies that ownership on first use; a host folder
# mounted there must be chowned to 10001 by hand.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 bot \
    && useradd --uid 10001 --gid 10001 --create-home --shell /usr/sbin/nologin bot \
    && mkdir /data && chown 10001:10001 /data

# The pinned dependencies first: this layer is rebuilt only when requirements.txt changes.
COPY requirements.txt /tmp/requirements.txt
RUN pip install -r /tmp/requirements.txt && rm /tmp/requirements.txt

# Then the bot itself, without its dependencies; pip check fails the build if the pins no
# longer satisfy the wheel's requirements.
COPY --from=build /dist/ /tmp/dist/
RUN pip install --no-deps /tmp/dist/*.whl && pip check && rm -rf /tmp/dist

USER 10001:10001
WORKDIR /home/bot
VOLUME ["/data"]
EXPOSE 8080
# Alive when the bot's HTTP server answers (slim has no curl: Python's urllib does it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('HTTP_PORT', '8080') + '/healthz/live', timeout=4)"]
CMD ["domino-bot"]
