"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PollingSubscription = exports.ChangeSignal = void 0;
const batch_delivery_1 = require("../batch-delivery");
/** In-process "something was appended" signal; listeners must be cheap and never throw. */
class ChangeSignal {
    listeners = new Set();
    on(listener) {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
    }
    fire() {
        for (const listener of this.listeners)
            listener();
    }
}
exports.ChangeSignal = ChangeSignal;
/**
 * Follows readAll from a checkpoint. One loop per subscription, so the handler is never called
 * concurrently; a failed batch is retried as is until it succeeds or the subscription stops.
 */
class PollingSubscription {
    options;
    stopped = false;
    /** Bumped by every signal, so one arriving during a read is not lost. */
    signals = 0;
    interrupt;
    done;
    unlisten;
    constructor(options) {
        this.options = options;
        this.unlisten = options.changes.on(() => this.signal());
        this.done = this.run().finally(() => this.unlisten());
    }
    async stop() {
        this.stopped = true;
        this.interrupt?.();
        await this.done;
    }
    signal() {
        this.signals += 1;
        this.interrupt?.();
    }
    async run() {
        let after = this.options.after;
        while (!this.stopped) {
            const seen = this.signals;
            const batch = await this.read(after);
            if (batch === undefined)
                return;
            if (batch.length > 0) {
                if (!(await this.deliver(batch)))
                    return;
                after = batch[batch.length - 1].position;
            }
            else if (seen === this.signals) {
                await this.sleep(this.options.idlePollMs, true);
            }
        }
    }
    /** undefined once stopped; read errors (store unreachable) are retried with back-off. */
    async read(after) {
        for (let attempt = 0; !this.stopped; attempt += 1) {
            try {
                return await this.options.readAll(after, this.options.batchSize);
            }
            catch (error) {
                this.options.logger.warn({ err: error, attempt }, 'event subscription: read failed, retrying');
                await this.sleep((0, batch_delivery_1.retryDelay)(attempt), false);
            }
        }
        return undefined;
    }
    deliver(batch) {
        const control = { isStopped: () => this.stopped, pause: (ms) => this.sleep(ms, false) };
        return (0, batch_delivery_1.deliverWithRetry)(this.options.handler, batch, control, this.options.logger);
    }
    /** Ends early on stop(), and on a change signal only when `wakeOnSignal`. */
    sleep(ms, wakeOnSignal) {
        if (this.stopped)
            return Promise.resolve();
        return new Promise((resolve) => {
            const finish = () => {
                clearTimeout(timer);
                this.interrupt = undefined;
                resolve();
            };
            const timer = setTimeout(finish, ms);
            this.interrupt = wakeOnSignal ? finish : () => (this.stopped ? finish() : undefined);
        });
    }
}
exports.PollingSubscription = PollingSubscription;
//# sourceMappingURL=polling-subscription.js.map