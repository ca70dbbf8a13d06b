"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HTTPS_REQUIRED_MESSAGE = exports.FrontDoor = void 0;
exports.createTlsServer = createTlsServer;
const node_http_1 = require("node:http");
const node_https_1 = require("node:https");
const node_net_1 = require("node:net");
const error_envelope_1 = require("./error-envelope");
const TLS_HANDSHAKE = 0x16;
const HTTPS_REQUIRED = 'HTTPS is required: this port speaks TLS only; use https://';
/**
 * One port, two protocols: the first byte of a connection says whether it is a TLS handshake
 * (handed to the HTTPS server) or plain HTTP (answered 400 in the error envelope, as the spec
 * wants, instead of a TLS alert the client cannot read).
 */
class FrontDoor {
    tlsServer;
    listener;
    plain;
    sockets = new Set();
    constructor(tlsServer) {
        this.tlsServer = tlsServer;
        this.plain = (0, node_http_1.createServer)({ maxHeaderSize: 16 * 1024 }, rejectPlainHttp);
        this.plain.keepAliveTimeout = 1;
        this.listener = (0, node_net_1.createServer)({ pauseOnConnect: false }, (socket) => this.route(socket));
    }
    listen(port, host) {
        return new Promise((resolve, reject) => {
            this.listener.once('error', reject);
            this.listener.listen(port, host, () => {
                this.listener.off('error', reject);
                // The HTTP servers never listen themselves; 'listening' starts their connection tracking,
                // which enforces headersTimeout/requestTimeout and lets closeIdleConnections work.
                this.tlsServer.emit('listening');
                this.plain.emit('listening');
                const address = this.listener.address();
                resolve(typeof address === 'object' && address ? address.port : port);
            });
        });
    }
    /**
     * Stops accepting connections; in-flight requests finish, keep-alive sockets close as soon as
     * they are idle, and whatever is still open after `graceMs` is cut.
     */
    async close(graceMs = 10_000) {
        const drained = new Promise((resolve) => this.listener.close(() => resolve()));
        this.tlsServer.close();
        this.plain.close();
        const sweep = setInterval(() => this.closeIdle(), 25);
        this.closeIdle();
        const deadline = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
        await Promise.race([drained, deadline]);
        clearInterval(sweep);
        for (const socket of this.sockets)
            socket.destroy();
        await drained;
    }
    closeIdle() {
        this.tlsServer.closeIdleConnections();
        this.plain.closeIdleConnections();
    }
    route(socket) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.once('error', () => socket.destroy());
        socket.setTimeout(10_000, () => socket.destroy());
        socket.once('data', (first) => {
            socket.setTimeout(0);
            socket.pause();
            socket.unshift(first);
            const target = first[0] === TLS_HANDSHAKE ? this.tlsServer : this.plain;
            target.emit('connection', socket);
            process.nextTick(() => socket.resume());
        });
    }
}
exports.FrontDoor = FrontDoor;
function rejectPlainHttp(_req, res) {
    const body = JSON.stringify((0, error_envelope_1.envelope)('missing_required_field', HTTPS_REQUIRED));
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
}
function createTlsServer(material, handler) {
    const server = (0, node_https_1.createServer)({ cert: material.cert, key: material.key, minVersion: 'TLSv1.2', maxHeaderSize: 16 * 1024, requestTimeout: 30_000, headersTimeout: 10_000 }, handler);
    server.keepAliveTimeout = 65_000;
    return server;
}
exports.HTTPS_REQUIRED_MESSAGE = HTTPS_REQUIRED;
//# sourceMappingURL=front-door.js.map