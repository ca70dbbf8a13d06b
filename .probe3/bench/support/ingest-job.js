"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runJobChild = runJobChild;
const node_child_process_1 = require("node:child_process");
/**
 * Forks a compiled script that does one job and answers one `result` (or `failed`) message:
 * unlike a server child, it has no ready state and may run for minutes. Killed by the cleanups
 * if the bench ends first.
 */
function runJobChild(script, cleanups, opts) {
    const child = (0, node_child_process_1.fork)(script, [], { env: opts.env, execArgv: opts.execArgv ?? [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    cleanups.add(`stop ${script}`, async () => {
        if (child.exitCode === null && child.signalCode === null)
            child.kill('SIGKILL');
        await exited;
    });
    const result = new Promise((resolve, reject) => {
        let settled = false;
        const settle = (error, result) => {
            if (settled)
                return;
            settled = true;
            if (error)
                reject(error);
            else
                resolve(result);
        };
        child.on('message', (message) => {
            if (message?.type === 'result')
                settle(null, message);
            else if (message?.type === 'failed')
                settle(new Error(`${script} failed:\n${message.message}`));
        });
        child.once('exit', (code, signal) => settle(new Error(`${script} exited without a result (code ${code}, signal ${signal})`)));
    });
    return { pid: child.pid ?? 0, result };
}
//# sourceMappingURL=ingest-job.js.map