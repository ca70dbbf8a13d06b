"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NdjsonBody = exports.MAX_INGEST_BYTES = exports.MAX_RECORDS_PER_REQUEST = void 0;
exports.registerNdjsonParser = registerNdjsonParser;
const domain_error_1 = require("../shared/domain-error");
exports.MAX_RECORDS_PER_REQUEST = 10_000;
exports.MAX_INGEST_BYTES = 16 * 1024 * 1024;
class NdjsonBody {
    lines;
    constructor(lines) {
        this.lines = lines;
    }
}
exports.NdjsonBody = NdjsonBody;
const utf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * Parses NDJSON as the bytes arrive, line by line: a bad line becomes a rejected record, not a
 * failed request; more than 10,000 records or 16 MiB stops reading at once with 413.
 */
function registerNdjsonParser(fastify) {
    fastify.addContentTypeParser('application/x-ndjson', (request, payload, done) => {
        const lines = [];
        let pending = Buffer.alloc(0);
        let bytes = 0;
        let finished = false;
        const finish = (error) => {
            if (finished)
                return;
            finished = true;
            if (error) {
                payload.removeAllListeners('data');
                payload.resume();
            }
            done(error, error ? undefined : new NdjsonBody(lines));
        };
        const take = (line) => {
            if (line.length === 0 || (line.length === 1 && line[0] === 0x0d))
                return;
            if (lines.length >= exports.MAX_RECORDS_PER_REQUEST)
                throw new domain_error_1.DomainError('payload_too_large', `At most ${exports.MAX_RECORDS_PER_REQUEST} records per request`);
            lines.push(parseLine(line));
        };
        payload.on('data', (chunk) => {
            if (finished)
                return;
            bytes += chunk.length;
            try {
                if (bytes > exports.MAX_INGEST_BYTES)
                    throw new domain_error_1.DomainError('payload_too_large', `At most ${exports.MAX_INGEST_BYTES} bytes per request`);
                pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
                let start = 0;
                for (let newline = pending.indexOf(0x0a, start); newline !== -1; newline = pending.indexOf(0x0a, start)) {
                    take(pending.subarray(start, newline));
                    start = newline + 1;
                }
                pending = pending.subarray(start);
            }
            catch (error) {
                finish(error);
            }
        });
        payload.on('end', () => {
            try {
                take(pending);
                finish(null);
            }
            catch (error) {
                finish(error);
            }
        });
        payload.on('error', (error) => finish(error));
        void request;
    });
}
function parseLine(line) {
    let text;
    try {
        text = utf8.decode(line);
    }
    catch {
        return { error: 'line is not valid UTF-8' };
    }
    try {
        return { value: JSON.parse(text) };
    }
    catch (error) {
        return { error: `line is not valid JSON: ${error.message}` };
    }
}
//# sourceMappingURL=ndjson.parser.js.map