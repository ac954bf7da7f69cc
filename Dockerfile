# resolve-bot's container image: `docker build -t resolve-bot .`, or `docker compose up -d --build`
# with compose.yaml (Redis and a second worker). Released images: ghcr.io/<owner>/resolve-bot
# (.github/workflows/release.yml, on a v* tag).
#
# BASE: any Debian trixie image with Node.js 24 and npm under /usr/local. CI, which reaches no
# container registry, passes a stand-in made with debootstrap (scripts/container-build.sh).
ARG BASE=node:24-trixie-slim

# Build: install the locked dependencies for this platform (native modules included: better-sqlite3
# and ast-grep are installed for the image's Linux, not for the machine that runs the build), compile
# the TypeScript, then keep only the production dependencies. better-sqlite3 downloads a prebuilt
# binary when it can and otherwise compiles itself: python3, make and g++ stay in this stage.
FROM ${BASE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# The dependencies first: this layer is reused as long as package*.json are unchanged.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json app.yml ./
COPY src ./src
COPY examples ./examples
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

# Runtime: Node, tini, the production dependencies and the compiled code, as an unprivileged user.
FROM ${BASE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
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
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/src/apps/bin.js"]
# `all`: webhooks and jobs in one process (npm start); `server` or `worker` for one role.
CMD ["all"]
