# The casino service against an external PostgreSQL:
#   docker build -t casino . && docker run -e DATABASE_URL=postgresql://... -p 8000:8000 casino
# or with its embedded one, whose data and operator token stay in the /data volume:
#   docker run -v casino-data:/data -p 8000:8000 casino
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    CASINO_DATA_DIR=/data

RUN useradd --create-home --uid 10001 casino \
    && mkdir /data && chown casino /data

WORKDIR /app
# The dependencies exactly as requirements.lock pins them, each file checked
# against its hash (a layer of its own, kept while the lock is unchanged);
# then the service itself, which adds none.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY pyproject.toml README.md openapi.yaml ./
COPY docs/rules.md ./docs/rules.md
COPY domain ./domain
COPY service ./service
COPY migrations ./migrations
RUN pip install --no-cache-dir --no-deps .

USER casino
# The embedded database and the kept operator token: a volume, so that they
# outlive the container (mount one with -v casino-data:/data).
VOLUME /data
EXPOSE 8000
# The first start creates the embedded database and migrates it before the
# service answers: failed checks in the start period do not count.
HEALTHCHECK --start-period=90s --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
CMD ["casino", "serve", "--host", "0.0.0.0", "--port", "8000"]
