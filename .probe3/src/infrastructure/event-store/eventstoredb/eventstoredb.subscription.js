"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStoreDbSubscription = void 0;
const db_client_1 = require("@eventstore/db-client");
const batch_delivery_1 = require("../batch-delivery");
const eventstoredb_mapping_1 = require("./eventstoredb.mapping");
/**
 * A catch-up subscription to $all without system events. Events are handed over one per batch:
 * `for await` pulls the next one only after the handler settled, so calls never overlap. A
 * dropped subscription is reopened after the last delivered position (subscriptions start
 * strictly after `fromPosition`).
 */
class EventStoreDbSubscription {
    client;
    handler;
    logger;
    stopped = false;
    current;
    cancelPause;
    done;
    constructor(client, after, handler, logger) {
        this.client = client;
        this.handler = handler;
        this.logger = logger;
        this.done = this.run(after);
    }
    async stop() {
        this.stopped = true;
        this.cancelPause?.();
        await this.current?.unsubscribe().catch(() => undefined);
        await this.done;
    }
    async run(after) {
        let checkpoint = after;
        for (let attempt = 0; !this.stopped; attempt += 1) {
            const subscription = this.client.subscribeToAll({
                fromPosition: checkpoint ? (0, eventstoredb_mapping_1.toClientPosition)(checkpoint) : db_client_1.START,
                filter: (0, db_client_1.excludeSystemEvents)(),
            });
            this.current = subscription;
            try {
                for await (const resolved of subscription) {
                    const event = resolved.event;
                    if (!event || (0, eventstoredb_mapping_1.isSystemEvent)(event))
                        continue;
                    const stored = (0, eventstoredb_mapping_1.toStoredEvent)(event);
                    if (!(await this.deliver(stored)))
                        break;
                    checkpoint = stored.position;
                    attempt = 0;
                }
            }
            catch (error) {
                if (!this.stopped)
                    this.logger.warn({ err: error, attempt }, 'event subscription: $all subscription dropped, reopening');
            }
            await subscription.unsubscribe().catch(() => undefined);
            if (!this.stopped)
                await this.pause((0, batch_delivery_1.retryDelay)(attempt));
        }
    }
    deliver(event) {
        const control = { isStopped: () => this.stopped, pause: (ms) => this.pause(ms) };
        return (0, batch_delivery_1.deliverWithRetry)(this.handler, [event], control, this.logger);
    }
    pause(ms) {
        if (this.stopped)
            return Promise.resolve();
        return new Promise((resolve) => {
            const finish = () => {
                clearTimeout(timer);
                this.cancelPause = undefined;
                resolve();
            };
            const timer = setTimeout(finish, ms);
            this.cancelPause = finish;
        });
    }
}
exports.EventStoreDbSubscription = EventStoreDbSubscription;
//# sourceMappingURL=eventstoredb.subscription.js.map