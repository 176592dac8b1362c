# BrowserMesh over Streamable HTTP, with Debian's Chromium, as a non-root user. Build from a clone:
#   docker build -t browsermesh .
# Run (--init reaps Chromium's helper processes; the token comes from the environment):
#   docker run --init -p 127.0.0.1:8940:8940 -e BROWSERMESH_HTTP_TOKEN="$(openssl rand -hex 24)" --shm-size=1g browsermesh
# Check a container the way sessions will launch Chromium:  docker run --rm --init browsermesh --doctor
# (Not built or run by the project's CI: these machines have no container runtime. test/e2e/container.test.ts
# checks that every command and flag below is one the CLI accepts and that the health check works.)
#
# Base image: pin it by digest for reproducible builds (FROM node:22-bookworm-slim@sha256:<digest>, from
# `docker buildx imagetools inspect node:22-bookworm-slim`). Not pinned here: no registry or offline
# source of the digest was reachable where this file was written, and a made-up digest would not build.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/bundle-cli.mjs scripts/build-code-cache.mjs ./scripts/
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# Fonts: Latin (liberation), CJK and color emoji, so pages and screenshots do not show empty boxes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-cjk \
     fonts-noto-color-emoji ca-certificates \
  && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 browsermesh
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY README.md LICENSE ./
COPY docs ./docs
# The dashboard's page, script and pictures, served from assets/ next to dist/.
COPY assets ./assets
USER browsermesh
# Chromium's own sandbox needs user namespaces, which Docker's default seccomp profile refuses to an
# unprivileged process (Playwright's Docker docs say the same), so with it on the first session would
# fail. The trade-off taken here: Chromium's sandbox off, and the container is the boundary (non-root
# user, no added capabilities, no privileged mode; every page of every session shares that boundary).
# To keep Chromium's sandbox as well, run with a seccomp profile that allows clone/unshare of user
# namespaces (e.g. Playwright's seccomp_profile.json) and turn it on; --doctor then proves it starts:
#   docker run --init --security-opt seccomp=seccomp_profile.json -e BROWSERMESH_CHROMIUM_SANDBOX=on ...
ENV NODE_ENV=production \
    BROWSERMESH_CHROMIUM_SANDBOX=off \
    BROWSERMESH_EXECUTABLE_PATH=/usr/bin/chromium \
    BROWSERMESH_DATA_DIR=/home/browsermesh/.browsermesh \
    BROWSERMESH_HTTP_PORT=8940 \
    BROWSERMESH_DASHBOARD=true
EXPOSE 8940
# BROWSERMESH_HTTP_TOKEN must come from the environment (docker run -e, a secret): binding 0.0.0.0
# without it is refused at start (exit 2), by design. The dashboard (/dashboard/) takes the same token.
# Healthy means both the MCP endpoint's health and the dashboard's page answer (the dashboard's files
# ship in assets/, next to dist/).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "const u='http://127.0.0.1:'+(process.env.BROWSERMESH_HTTP_PORT||8940),h={headers:{authorization:'Bearer '+(process.env.BROWSERMESH_HTTP_TOKEN||'')}};Promise.all(['/healthz','/dashboard/'].map(p=>fetch(u+p,h))).then(r=>process.exit(r.every(x=>x.ok)?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["--http", "--host", "0.0.0.0"]
