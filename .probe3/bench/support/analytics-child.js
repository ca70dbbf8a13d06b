"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AnalyticsAppChild = void 0;
const node_child_process_1 = require("node:child_process");
const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 30_000;
/**
 * The app child with the bench-only commands. server-child.ts keeps its ChildProcess to itself,
 * and these commands need it to send requests and pair the answers, hence this small twin.
 */
class AnalyticsAppChild {
    child;
    ready;
    stopNow;
    nextId = 1;
    waiting = new Map();
    constructor(child, ready, stopNow) {
        this.child = child;
        this.ready = ready;
        this.stopNow = stopNow;
        child.on('message', (message) => {
            if (message?.type === 'bench-progress')
                process.stderr.write(`bench (app child): ${message.message}\n`);
            if (message?.type !== 'bench-answer')
                return;
            const waiter = this.waiting.get(message.id);
            this.waiting.delete(message.id);
            if (message.ok)
                waiter?.resolve(message.value);
            else
                waiter?.reject(new Error(`app child: ${message.error}`));
        });
        child.once('exit', (code, signal) => {
            for (const waiter of this.waiting.values())
                waiter.reject(new Error(`app child exited (code ${code}, signal ${signal})`));
            this.waiting.clear();
        });
    }
    static async start(script, env, cleanups) {
        const child = (0, node_child_process_1.fork)(script, [], { env, execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        const stop = stopper(child);
        cleanups.add(`stop ${script}`, stop);
        const ready = await waitForReady(child, script).catch(async (error) => {
            await stop();
            throw error;
        });
        return new AnalyticsAppChild(child, ready, stop);
    }
    call(op, args) {
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.waiting.set(id, { resolve: resolve, reject });
            this.child.send({ type: 'bench-call', id, op, args });
        });
    }
    /** Idempotent. */
    stop() {
        return this.stopNow();
    }
}
exports.AnalyticsAppChild = AnalyticsAppChild;
function waitForReady(child, script) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => settle(new Error(`${script}: not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
        const onMessage = (message) => {
            if (message?.type === 'ready')
                settle(null, message);
            else if (message?.type === 'failed')
                settle(new Error(`${script} failed to start:\n${message.message}`));
        };
        const onExit = (code, signal) => settle(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
        function settle(error, ready) {
            clearTimeout(timer);
            child.off('message', onMessage).off('exit', onExit);
            if (error)
                reject(error);
            else
                resolve(ready);
        }
        child.on('message', onMessage).once('exit', onExit);
    });
}
/** Graceful stop (the app drains and closes chDB), SIGKILL after a grace period. */
function stopper(child) {
    let stopped = null;
    return () => {
        stopped ??= new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null)
                return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            child.once('exit', () => {
                clearTimeout(kill);
                resolve();
            });
            const request = { type: 'stop' };
            if (child.connected)
                child.send(request, (error) => error && child.kill('SIGTERM'));
            else
                child.kill('SIGTERM');
        });
        return stopped;
    };
}
//# sourceMappingURL=analytics-child.js.map