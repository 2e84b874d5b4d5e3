# Sightline: the service compiled, on Node 24 (the current LTS; CI runs the suite on it), as a non-root user. Build: docker build -t sightline .
# The build steps live in deploy/image-steps.sh, which a test runs without Docker.

FROM node:24-bookworm-slim AS build
# better-sqlite3 compiles from source; its toolchain stays in this stage.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN sh deploy/image-steps.sh

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATABASE_URL=/data/sightline.db
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The embedded SQLite file lives on a volume; with DATABASE_URL=postgres://… the volume stays empty.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8787
# Liveness: the process answers. Load balancers should use /readyz, which fails as soon as a stop begins.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# node itself is PID 1's command, so SIGTERM reaches the service's own graceful stop.
CMD ["node", "dist/src/main.js"]
