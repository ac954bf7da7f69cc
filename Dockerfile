# resolve-bot's container image: `bash scripts/container-build.sh` (or `buildah bud --format docker .`
# / `docker build .` once BASE exists). compose.yaml runs it with Redis and a second worker.
#
# BASE: Debian bookworm minbase + tini + Node.js 20 + npm, made by scripts/container-base.sh with
# debootstrap and the npm registry, so the build pulls nothing from a container registry. Any
# glibc image with Node 20 and npm on PATH and tini at /usr/bin/tini will do (node:20-bookworm-slim
# plus `apt-get install tini`, say).
ARG BASE=localhost/resolve-bot-base:node20-bookworm

# Build: compile the TypeScript, then keep only the production dependencies. node_modules comes
# from the build context, where `npm ci` (CI's, or yours) installed it for Node 20 on glibc: so
# better-sqlite3's native module is copied, not compiled (the base has no compiler, and its
# install script would fetch a prebuilt binary from GitHub). Node 20 modules share one ABI
# (NODE_MODULE_VERSION 115) and bookworm is the glibc they were built against; the last step
# loads it on the image's Node to prove so.
FROM ${BASE} AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json tsconfig.build.json app.yml ./
COPY node_modules ./node_modules
COPY src ./src
COPY examples ./examples
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund --offline \
  && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

# Runtime: production dependencies and the compiled code only, as an unprivileged user.
FROM ${BASE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    RESOLVE_BOT_DATA_DIR=/data
RUN groupadd --system --gid 10001 resolvebot \
  && useradd --system --uid 10001 --gid resolvebot --home-dir /app --shell /usr/sbin/nologin resolvebot \
  && mkdir -p /data \
  && chown resolvebot:resolvebot /data
WORKDIR /app
COPY --from=build /build/package.json /build/app.yml ./
COPY --from=build /build/node_modules ./node_modules
COPY --from=build /build/dist ./dist
USER resolvebot
# The embedded job queue (SQLite) lives here; with REDIS_URL it stays empty.
VOLUME /data
EXPOSE 3000
# tini is PID 1: it hands SIGTERM to Node (which finishes running commands within
# RESOLVE_BOT_SHUTDOWN_GRACE_MS, then exits) and reaps what the tools' processes leave.
STOPSIGNAL SIGTERM
# Liveness: GET /healthz on PORT, or on RESOLVE_BOT_WORKER_PORT for `worker`.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/src/ops/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/cli.js"]
# `all`: webhooks and jobs in one process (npm start); `server` or `worker` for one role.
CMD ["all"]
