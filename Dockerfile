# The riichi server: the README's set-up command in a slim image, records on a volume.
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY server ./server
COPY static ./static

# The README's install step, verbatim.
RUN python3 -m pip install --no-cache-dir -e .

RUN useradd --create-home --uid 10001 riichi && mkdir -p /data && chown riichi /data
USER riichi

ENV RIICHI_HOST=0.0.0.0 \
    RIICHI_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]

# The README's start step, verbatim.
CMD ["python3", "-m", "server"]
