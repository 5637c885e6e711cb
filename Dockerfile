# syntax=docker/dockerfile:1
# The Node target in a container (docs/releases.md, "Containers").
#   docker build --build-arg SOURCE_COMMIT=$(git rev-parse --short=12 HEAD) -t edge-cms .
#   docker compose up        (compose.yaml: PostgreSQL, SeaweedFS, Mailpit)
# A container is updated by running a newer image, not by the in-app
# supervisor: an image is immutable and its orchestrator (Compose,
# Kubernetes) already restarts, replaces and rolls back containers, so the
# server runs directly, and POST /v1/system/update/apply answers 409 saying
# so. The update check still works (UPDATE_FEED_URL).

# Node 24 on Debian 13 (trixie), pinned to the exact release tag. Node 24,
# not the oldest Node the project runs on (22.18): its AsyncLocalStorage (the
# request's log scope) needs no promise hooks, which on Node 22 every promise
# of the process pays; an uncached article read measured ×1.85–1.99 its
# floor's CPU on 24.21 against ×2.21–2.46 on 22.23 (docs/benchmarks.md).
# Not by digest: the digest could not be looked up where this was written (no
# registry access); add `@sha256:…` from `docker buildx imagetools inspect`
# for byte-for-byte rebuilds.
ARG NODE_IMAGE=node:24.21.0-trixie-slim

# --- build: the admin's static files and the Node bundle (needs the dev dependencies)
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY worker ./worker
COPY drizzle ./drizzle
COPY admin-qwik ./admin-qwik
ARG SOURCE_COMMIT=unknown
RUN SOURCE_COMMIT=${SOURCE_COMMIT} npm run build -- --force
# Only what the bundle cannot carry (native better-sqlite3, the external
# database drivers, the WebP encoder's wasm) with what they need, as the lock
# file installed them: scripts/lib/runtime-deps.ts.
RUN node scripts/runtime-deps.ts /runtime

# --- runtime: what the build made and the few packages it could not bundle; nothing is installed here
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8787 \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/app/data/cms.db \
    STORAGE_URL=file:/app/uploads \
    CMS_RELEASES_DIR=/app/data/releases
WORKDIR /app
COPY --from=build /runtime/node_modules ./node_modules
COPY --from=build /src/dist/node ./dist/node
COPY --from=build /src/admin-qwik/dist ./admin-qwik/dist
COPY --from=build /src/drizzle/sqlite/migrations ./drizzle/sqlite/migrations
COPY --from=build /src/drizzle/mysql/migrations ./drizzle/mysql/migrations
COPY --from=build /src/drizzle/postgres/migrations ./drizzle/postgres/migrations
# The server writes only under data/ (SQLite, the generated JWT secret, the
# activity log) and uploads/; the code stays root-owned and read-only to it.
RUN mkdir -p /app/data /app/uploads && chown node:node /app/data /app/uploads
USER node
VOLUME ["/app/data", "/app/uploads"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=64", "dist/node/server.mjs"]
