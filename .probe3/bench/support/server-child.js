"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startServerChild = startServerChild;
const node_child_process_1 = require("node:child_process");
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
/**
 * Forks a compiled server script and waits for its `ready` message. The child gets its own
 * process (and so its own core) so it never shares a JS thread with the load generator.
 */
async function startServerChild(script, cleanups, opts = {}) {
    const child = (0, node_child_process_1.fork)(script, [], { env: opts.env ?? process.env, execArgv: opts.execArgv ?? [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const stop = stopper(child);
    // Registered before waiting, so a bench interrupted during start-up still stops the child.
    cleanups.add(`stop ${script}`, stop);
    try {
        const ready = await waitForReady(child, script);
        return { ready, stop, cpuMicros: () => askCpuUsage(child) };
    }
    catch (error) {
        await stop();
        throw error;
    }
}
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
function askCpuUsage(child) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error('no cpu-usage reply')), 5000);
        const onMessage = (message) => message?.type === 'cpu-usage' && done(null, message.micros);
        function done(error, micros = 0) {
            clearTimeout(timer);
            child.off('message', onMessage);
            if (error)
                reject(error);
            else
                resolve(micros);
        }
        child.on('message', onMessage);
        const request = { type: 'cpu-usage' };
        child.send(request);
    });
}
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
//# sourceMappingURL=server-child.js.map