# Coven server image: `docker build -t coven .` then `docker run -p 8000:8000 coven`
# (SQLite in /data, in-process bus) — or see docker-compose.yml for PostgreSQL + Redis.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    COVEN_DATABASE_URL=sqlite+aiosqlite:////data/coven.db

WORKDIR /srv/coven
COPY pyproject.toml README.md alembic.ini ./
COPY engine ./engine
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
# Editable, so app/ finds migrations/, templates/ and static/ beside it.
RUN pip install --no-cache-dir -e . && mkdir -p /data

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"

CMD ["coven", "serve", "--host", "0.0.0.0", "--port", "8000"]
