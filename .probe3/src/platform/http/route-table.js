"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RouteTable = void 0;
const find_my_way_1 = __importDefault(require("find-my-way"));
/**
 * Every route the app registered, so that a request that matched none can be told apart:
 * the path exists under another method (405 with Allow) or not at all (404). Fastify itself
 * answers 404 for both.
 */
class RouteTable {
    router = (0, find_my_way_1.default)({ ignoreTrailingSlash: true });
    methods = new Set();
    add(method, url) {
        for (const m of Array.isArray(method) ? method : [method]) {
            if (m === 'HEAD' && this.router.hasRoute('HEAD', url))
                continue;
            this.router.on(m, url, () => undefined);
            this.methods.add(m);
        }
    }
    /** The methods under which `path` exists, empty when it does not. */
    allowedMethods(path) {
        const pathOnly = path.split('?')[0];
        return [...this.methods].filter((m) => this.router.find(m, pathOnly) !== null).sort();
    }
}
exports.RouteTable = RouteTable;
//# sourceMappingURL=route-table.js.map