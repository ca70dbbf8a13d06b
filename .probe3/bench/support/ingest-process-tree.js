"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TreeRss = void 0;
exports.treeCpuMicros = treeCpuMicros;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/**
 * Peak resident memory of a process and its descendants (the app and the chDB engine process it
 * forks), summed at each 100 ms sample. Reads Linux's /proc; elsewhere every figure is null.
 * Per process, the kernel's own high-water mark (VmHWM) is kept as well: it sees spikes between
 * samples, but the processes' peaks need not coincide, so only the sampled sum is "the" peak.
 */
class TreeRss {
    rootPid;
    peakSum = 0;
    firstSum = null;
    highWater = new Map();
    timer;
    supported;
    constructor(rootPid, intervalMs = 100) {
        this.rootPid = rootPid;
        this.supported = status(rootPid) !== null;
        this.timer = setInterval(() => this.sample(), intervalMs).unref();
        this.sample();
    }
    /** Samples once more and stops; call before the processes exit. */
    stop() {
        this.sample();
        clearInterval(this.timer);
        if (!this.supported)
            return null;
        const processes = [...this.highWater.values()].map((p) => ({ name: p.name, peakBytes: p.bytes }));
        return { firstBytes: this.firstSum ?? 0, peakBytes: this.peakSum, processes };
    }
    sample() {
        if (!this.supported)
            return;
        let sum = 0;
        for (const pid of tree(this.rootPid)) {
            const s = status(pid);
            if (!s)
                continue;
            sum += s.rss;
            const known = this.highWater.get(pid);
            if (!known || s.hwm > known.bytes)
                this.highWater.set(pid, { name: known?.name ?? scriptOf(pid), bytes: s.hwm });
        }
        this.firstSum ??= sum;
        this.peakSum = Math.max(this.peakSum, sum);
    }
}
exports.TreeRss = TreeRss;
/**
 * CPU time (user + system) of a process and its descendants so far, in µs, from /proc ticks
 * (USER_HZ = 100 on Linux, so 10 ms resolution); null where there is no /proc.
 */
function treeCpuMicros(rootPid) {
    let ticks = 0;
    for (const pid of tree(rootPid)) {
        try {
            // Fields after the parenthesised command name: state is [0], utime [11], stime [12].
            const fields = (0, node_fs_1.readFileSync)(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
            ticks += Number(fields[11]) + Number(fields[12]);
        }
        catch {
            if (pid === rootPid)
                return null;
        }
    }
    return (ticks * 1_000_000) / USER_HZ;
}
const USER_HZ = 100;
function tree(root) {
    const pids = [root];
    for (let i = 0; i < pids.length; i++)
        pids.push(...children(pids[i]));
    return pids;
}
/** Children are listed per thread that forked them, so every thread of the process is read. */
function children(pid) {
    try {
        return (0, node_fs_1.readdirSync)(`/proc/${pid}/task`).flatMap((tid) => (0, node_fs_1.readFileSync)(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    }
    catch {
        return [];
    }
}
function status(pid) {
    try {
        const text = (0, node_fs_1.readFileSync)(`/proc/${pid}/status`, 'utf8');
        const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1] ?? 0) * 1024;
        return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    }
    catch {
        return null;
    }
}
/** The script a node process runs (`chdb.worker.js`), else its executable. */
function scriptOf(pid) {
    try {
        const args = (0, node_fs_1.readFileSync)(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        const script = args.find((arg) => arg.endsWith('.js') || arg.endsWith('.ts')) ?? args[0] ?? String(pid);
        return (0, node_path_1.basename)(script);
    }
    catch {
        return String(pid);
    }
}
//# sourceMappingURL=ingest-process-tree.js.map