/** Redis keys of one lease; shared by the lease and the fenced writers that check it. */
export function leaseKeys(namespace: string, name: string): { lease: string; fence: string } {
  return { lease: `${namespace}lease:${name}`, fence: `${namespace}lease:${name}:fence` };
}

/** Where a projection announces each new checkpoint to every instance (read-your-writes). */
export function checkpointChannel(namespace: string, name: string): string {
  return `${namespace}checkpoint-events:${name}`;
}
