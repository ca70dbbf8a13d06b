"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.trunksProjection = trunksProjection;
const node_crypto_1 = require("node:crypto");
const secret_errors_1 = require("../../infrastructure/secrets/secret.errors");
const trunk_view_1 = require("./trunk-view");
/**
 * Trunk list/get views and the gateway's per-username record. The gateway record carries the
 * SIP digest HA1, computed here from the decrypted password; once a trunk's data key is
 * destroyed the password cannot be decrypted any more and a replay leaves HA1 null.
 */
function trunksProjection(secrets, sipDomain) {
    async function ha1(trunkId, username, password) {
        try {
            const plain = await secrets.decrypt(trunkId, 'sip_password', password);
            return (0, node_crypto_1.createHash)('md5').update(`${username}:${sipDomain}:${plain}`).digest('hex');
        }
        catch (error) {
            // Crypto-shredded (or never keyed) secrets have no HA1; anything else (a vault outage)
            // is rethrown so the runner retries the batch instead of recording a wrong null.
            if (error instanceof secret_errors_1.SecretDestroyedError || error instanceof secret_errors_1.SecretUnavailableError)
                return null;
            throw error;
        }
    }
    return {
        name: 'trunks',
        async apply(stored, view) {
            const event = stored;
            switch (event.type) {
                case 'TrunkCreated':
                    return created(event.data, await ha1(event.data.trunk_id, event.data.sip_username, event.data.sip_password));
                case 'TrunkUpdated':
                    return updated(event.data, view);
                case 'SipPasswordRotated': {
                    const trunk = await read(view, trunk_view_1.trunkKeys.trunk(event.data.trunk_id));
                    const gateway = await read(view, trunk_view_1.trunkKeys.gateway(event.data.sip_username));
                    const ops = [];
                    if (trunk)
                        ops.push(setJson(trunk_view_1.trunkKeys.trunk(trunk.id), { ...trunk, updated_at: event.data.rotated_at, password_rotated_at: event.data.rotated_at }));
                    if (gateway && gateway.trunk_id === event.data.trunk_id) {
                        ops.push(setJson(trunk_view_1.trunkKeys.gateway(gateway.sip_username), { ...gateway, ha1: await ha1(event.data.trunk_id, event.data.sip_username, event.data.sip_password) }));
                    }
                    return ops;
                }
                case 'TrunkDeleted':
                    return deleted(event.data, view);
                default:
                    return [];
            }
        },
    };
}
function created(d, digest) {
    const trunk = {
        id: d.trunk_id, account_id: d.account_id, name: d.name, status: 'active', ai_provider: d.ai_provider, sip_username: d.sip_username,
        created_at: d.created_at, updated_at: d.created_at, ...d.settings,
        elevenlabs_agent_id: d.wiring.elevenlabs_agent_id ?? null, custom_endpoint: d.wiring.custom_endpoint ?? null, password_rotated_at: null,
    };
    const score = Date.parse(d.created_at);
    return [
        setJson(trunk_view_1.trunkKeys.trunk(d.trunk_id), trunk),
        { op: 'zadd', key: trunk_view_1.trunkKeys.byAccount(d.account_id), score, member: d.trunk_id },
        { op: 'zadd', key: trunk_view_1.trunkKeys.byAccountAndStatus(d.account_id, 'active'), score, member: d.trunk_id },
        setJson(trunk_view_1.trunkKeys.gateway(d.sip_username), gatewayOf(trunk, digest)),
    ];
}
async function updated(d, view) {
    const before = await read(view, trunk_view_1.trunkKeys.trunk(d.trunk_id));
    if (!before)
        return [];
    const { wiring, ...fields } = d.changes;
    const after = {
        ...before, ...fields, updated_at: d.updated_at,
        ...(wiring?.elevenlabs_agent_id !== undefined ? { elevenlabs_agent_id: wiring.elevenlabs_agent_id } : {}),
        ...(wiring?.custom_endpoint !== undefined ? { custom_endpoint: wiring.custom_endpoint } : {}),
    };
    const ops = [setJson(trunk_view_1.trunkKeys.trunk(d.trunk_id), after)];
    if (after.status !== before.status) {
        const score = Date.parse(before.created_at);
        ops.push({ op: 'zrem', key: trunk_view_1.trunkKeys.byAccountAndStatus(d.account_id, before.status), member: d.trunk_id });
        ops.push({ op: 'zadd', key: trunk_view_1.trunkKeys.byAccountAndStatus(d.account_id, after.status), score, member: d.trunk_id });
    }
    const gateway = await read(view, trunk_view_1.trunkKeys.gateway(before.sip_username));
    if (gateway && gateway.trunk_id === d.trunk_id)
        ops.push(setJson(trunk_view_1.trunkKeys.gateway(before.sip_username), gatewayOf(after, gateway.ha1)));
    return ops;
}
async function deleted(d, view) {
    const before = await read(view, trunk_view_1.trunkKeys.trunk(d.trunk_id));
    const ops = [
        { op: 'del', key: trunk_view_1.trunkKeys.trunk(d.trunk_id) },
        { op: 'zrem', key: trunk_view_1.trunkKeys.byAccount(d.account_id), member: d.trunk_id },
    ];
    if (before)
        ops.push({ op: 'zrem', key: trunk_view_1.trunkKeys.byAccountAndStatus(d.account_id, before.status), member: d.trunk_id });
    const gateway = await read(view, trunk_view_1.trunkKeys.gateway(d.sip_username));
    // The username may already belong to a newer trunk; only this trunk's record says "deleted".
    if (gateway && gateway.trunk_id === d.trunk_id)
        ops.push(setJson(trunk_view_1.trunkKeys.gateway(d.sip_username), { ...gateway, status: 'deleted', ha1: null }));
    return ops;
}
function gatewayOf(trunk, ha1) {
    return {
        trunk_id: trunk.id, account_id: trunk.account_id, sip_username: trunk.sip_username, status: trunk.status, ai_provider: trunk.ai_provider,
        provider_settings: trunk.provider_settings, system_prompt: trunk.system_prompt, allowed_addresses: trunk.allowed_addresses,
        elevenlabs_agent_id: trunk.elevenlabs_agent_id, custom_endpoint: trunk.custom_endpoint, ha1,
    };
}
const setJson = (key, value) => ({ op: 'set', key, value: JSON.stringify(value) });
async function read(view, key) {
    const raw = await view.get(key);
    return raw ? JSON.parse(raw) : null;
}
//# sourceMappingURL=trunks.projection.js.map