# One image for every process of the arena: the gateway (`arena serve`), the worker pool
# (`arena worker`) and the metrics exporter (`arena metrics`). The Helm chart in helm/arena picks
# the subcommand; `docker run IMAGE --help` lists them all.
#
#   docker build -t caper-arena:0.1.0 .
#   docker run --rm -p 50051:50051 -e REDIS_URL=redis://redis:6379/0 caper-arena:0.1.0 \
#       serve --host 0.0.0.0 --port 50051 --metrics-port 9100

# --- builder: a virtualenv holding the arena and its dependencies, compiled ahead of time -------
FROM python:3.11-slim-bookworm AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# The venv lives at the path it will have in the runtime stage: venvs are not relocatable.
RUN python -m venv /opt/arena

WORKDIR /src
# Only what the wheel needs (see .dockerignore): the metadata first, then the packages.
COPY pyproject.toml README.md ./
COPY arena ./arena
COPY workers ./workers
COPY bots_sdk ./bots_sdk

# Build the wheel, install it with the server extra (the image runs the server, not only a bot)
# and its pinned-by-pyproject dependencies, and byte-compile everything now: the runtime root
# filesystem is read-only, so Python cannot write .pyc later.
RUN /opt/arena/bin/pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
    && /opt/arena/bin/pip install --no-cache-dir "$(echo /wheels/caper_arena-*.whl)[server]" \
    && /opt/arena/bin/python -m compileall -q /opt/arena

# --- runtime: slim Python, the venv, an unprivileged user with a fixed UID --------------------
FROM python:3.11-slim-bookworm AS runtime

LABEL org.opencontainers.image.title="caper-arena" \
      org.opencontainers.image.description="Caper Arena: gRPC bot gateway, RQ workers, metrics" \
      org.opencontainers.image.licenses="MIT"

# A fixed numeric UID/GID (matched by the chart's securityContext) and no login shell or home:
# HOME and TMPDIR point at /tmp, the only place the processes write (an emptyDir in Kubernetes).
# bubblewrap: the sandbox hosted (program) bots run in. Unprivileged, it needs the kernel's user
# namespaces, which a pod gets with a seccomp/AppArmor profile that allows them.
# gcc and libc6-dev: the `cc` a submission's build step compiles native bots with; nodejs: the
# `node` runtime. A build sees the whole of /usr read-only; a program only its runtime's part.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap=0.8.* \
        gcc=4:12.2.* libc6-dev=2.36-* nodejs=18.* \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 arena \
    && useradd --system --uid 10001 --gid arena --no-create-home \
        --home-dir /tmp --shell /usr/sbin/nologin arena

COPY --from=builder /opt/arena /opt/arena

ENV PATH="/opt/arena/bin:${PATH}" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    TMPDIR=/tmp

WORKDIR /tmp
USER 10001:10001

# gRPC (bots, organisers, health) and Prometheus /metrics.
EXPOSE 50051 9100

ENTRYPOINT ["arena"]
CMD ["--help"]
