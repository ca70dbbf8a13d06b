# Build stage: compile TypeScript with the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY media-gateway ./media-gateway
COPY bench ./bench
COPY console ./console
COPY clients ./clients
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code and production dependencies only, as an unprivileged user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=8443
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8443
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "require('https').get({host:'127.0.0.1',port:process.env.PORT,path:'/healthz',rejectUnauthorized:false},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
