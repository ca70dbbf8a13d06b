"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PeakRss = void 0;
const node_fs_1 = require("node:fs");
/**
 * The process's peak resident set: the kernel's high-water mark (VmHWM) where there is one, which
 * counts chDB's native memory and spikes between samples; elsewhere the max of 100 ms samples.
 */
class PeakRss {
    sampled = process.memoryUsage.rss();
    timer = setInterval(() => {
        this.sampled = Math.max(this.sampled, process.memoryUsage.rss());
    }, 100).unref();
    peakBytes() {
        this.sampled = Math.max(this.sampled, process.memoryUsage.rss());
        return Math.max(this.sampled, highWaterMark() ?? 0);
    }
    stop() {
        clearInterval(this.timer);
    }
}
exports.PeakRss = PeakRss;
function highWaterMark() {
    try {
        const match = /^VmHWM:\s+(\d+) kB$/m.exec((0, node_fs_1.readFileSync)('/proc/self/status', 'utf8'));
        return match ? Number(match[1]) * 1024 : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=ingest-memory.js.map