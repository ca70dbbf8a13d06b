"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.resolveWorkerEntry = resolveWorkerEntry;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/**
 * The compiled `chdb.worker.js` beside this file when there is one (production runs dist/).
 * Otherwise we run from TypeScript sources (ts-jest, @swc-node/register): the child process does
 * not inherit the parent's transpiler hook, so it gets swc's.
 */
function resolveWorkerEntry(dir = __dirname) {
    const compiled = (0, node_path_1.join)(dir, 'chdb.worker.js');
    if ((0, node_fs_1.existsSync)(compiled))
        return { file: compiled };
    return { file: (0, node_path_1.join)(dir, 'chdb.worker.ts'), execArgv: ['--require', require.resolve('@swc-node/register')] };
}
//# sourceMappingURL=chdb-worker.entry.js.map