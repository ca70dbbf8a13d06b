"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getOnce = getOnce;
exports.getUntilOk = getUntilOk;
const node_https_1 = require("node:https");
/** One GET with certificate verification on (the CA is the server's self-signed certificate). */
function getOnce(url, ca, headers = {}) {
    return new Promise((resolve, reject) => {
        const req = (0, node_https_1.request)(url, { method: 'GET', ca, headers, agent: false, timeout: 5000 }, (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`GET ${url}: timed out`)));
        req.on('error', reject);
        req.end();
    });
}
/**
 * Polls until the GET answers 200: keys issued at start-up reach the Redis read model through
 * the projections, a moment after the command returns.
 */
async function getUntilOk(url, ca, headers, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const response = await getOnce(url, ca, headers);
        if (response.status === 200)
            return response.body;
        if (Date.now() > deadline)
            throw new Error(`GET ${url}: ${response.status} ${response.body}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
}
//# sourceMappingURL=probe.js.map