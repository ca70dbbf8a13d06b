"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.retryDelay = void 0;
exports.deliverWithRetry = deliverWithRetry;
const RETRY_DELAYS_MS = [50, 100, 250, 500, 1000, 2000, 5000];
const retryDelay = (attempt) => RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
exports.retryDelay = retryDelay;
/**
 * Hands one batch to the handler until it succeeds: a subscription never moves past a batch its
 * handler rejected. Returns false when the subscription stopped first.
 */
async function deliverWithRetry(handler, batch, control, logger) {
    for (let attempt = 0; !control.isStopped(); attempt += 1) {
        try {
            await handler(batch);
            return true;
        }
        catch (error) {
            const { hi, lo } = batch[0].position;
            logger.warn({ err: error, attempt, from: `${hi}:${lo}`, size: batch.length }, 'event subscription: handler failed, retrying the same batch');
            await control.pause((0, exports.retryDelay)(attempt));
        }
    }
    return false;
}
//# sourceMappingURL=batch-delivery.js.map