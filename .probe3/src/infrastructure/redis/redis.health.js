"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pingRedis = pingRedis;
/** Rejects when Redis does not answer PING within timeoutMs (may be shorter than commandTimeout). */
async function pingRedis(redis, timeoutMs) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis PING timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
        const reply = await Promise.race([redis.ping(), timeout]);
        if (reply !== 'PONG')
            throw new Error(`Unexpected PING reply: ${String(reply)}`);
    }
    finally {
        clearTimeout(timer);
    }
}
//# sourceMappingURL=redis.health.js.map