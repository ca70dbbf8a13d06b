"use strict";
/** IPC between analytics.bench.ts and its app child (analytics-app-server.ts). */
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=analytics-messages.js.map