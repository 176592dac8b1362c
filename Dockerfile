# BrowserMesh over Streamable HTTP, with Debian's Chromium, as a non-root user so Chromium's sandbox
# stays on. Build from a clone:   docker build -t browsermesh .
# Run:  docker run -p 8940:8940 -e BROWSERMESH_HTTP_TOKEN="$(openssl rand -hex 24)" --shm-size=1g browsermesh
# (Not built or run by the project's CI: these machines have no container runtime. test/e2e/container.test.ts
# checks that every command and flag below is one the CLI accepts and that the health check works.)

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
  && rm -rf /var/lib/apt/lists/*
# Chromium's sandbox needs an unprivileged user (it refuses to sandbox as root). Docker's default
# seccomp profile allows the user namespaces it uses; no --no-sandbox, no extra capabilities.
RUN useradd --create-home --uid 10001 browsermesh
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY README.md LICENSE ./
COPY docs ./docs
USER browsermesh
ENV NODE_ENV=production \
    BROWSERMESH_EXECUTABLE_PATH=/usr/bin/chromium \
    BROWSERMESH_DATA_DIR=/home/browsermesh/.browsermesh \
    BROWSERMESH_HTTP_PORT=8940
EXPOSE 8940
# BROWSERMESH_HTTP_TOKEN must come from the environment (docker run -e, a secret): binding 0.0.0.0
# without it is refused at start (exit 2), by design.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BROWSERMESH_HTTP_PORT||8940)+'/healthz',{headers:{authorization:'Bearer '+(process.env.BROWSERMESH_HTTP_TOKEN||'')}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["--http", "--host", "0.0.0.0"]
