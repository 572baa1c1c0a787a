# Tanya as a container image: `docker build -t tanya .` (compose.yaml runs several behind nginx).
# Stage 1 installs everything and builds the SPA; stage 2 keeps what runs: production dependencies, the built SPA
# and the server's TypeScript (run by tsx, as `npm start` does), as a non-root user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --logLevel warn && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    STATIC_DIR=/app/dist
WORKDIR /app
COPY --from=build /app/package.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/server ./server
COPY --from=build /app/contract ./contract
COPY --from=build /app/shared ./shared
# DATA_DIR: SQLite (when no DATABASE_URL), files (when no S3_BUCKET), the outbox (when no SMTP_URL).
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
VOLUME ["/data"]
# Ready, not just alive: the database (and Redis when configured) answer.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/api/v1/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "--import", "tsx", "server/main.ts"]
