"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PositionWaiters = void 0;
const event_store_port_1 = require("../infrastructure/event-store/event-store.port");
/** Callers waiting for a projection to reach a position (read-your-writes). */
class PositionWaiters {
    waiters = [];
    wait(reached, position, timeoutMs) {
        if (reached(position))
            return Promise.resolve(true);
        return new Promise((resolve) => {
            const waiter = {
                position,
                resolve,
                timer: setTimeout(() => {
                    this.waiters = this.waiters.filter((w) => w !== waiter);
                    resolve(false);
                }, timeoutMs),
            };
            this.waiters.push(waiter);
        });
    }
    /** Releases everyone whose position is at or before `checkpoint`. */
    advance(checkpoint) {
        const still = [];
        for (const waiter of this.waiters) {
            if ((0, event_store_port_1.comparePositions)(checkpoint, waiter.position) >= 0) {
                clearTimeout(waiter.timer);
                waiter.resolve(true);
            }
            else {
                still.push(waiter);
            }
        }
        this.waiters = still;
    }
    /** Stopping: nobody will be released any more. */
    cancelAll() {
        for (const waiter of this.waiters.splice(0)) {
            clearTimeout(waiter.timer);
            waiter.resolve(false);
        }
    }
}
exports.PositionWaiters = PositionWaiters;
//# sourceMappingURL=position-waiters.js.map