import type { OpenAPIObject } from '@nestjs/swagger';

/** What each group of operations is for, in the order a reader meets them. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  trunks: 'SIP trunks: the carrier side (SIP user, password, allowed addresses) wired to an AI agent',
  calls: 'Call records: list, filter and read calls with their signalling facts and quality',
  analytics: 'Aggregated call figures over a time range',
  webhooks: 'Endpoints that receive signed events (see x-webhooks for the payloads), and their deliveries',
  alerts: 'Rules on call metrics that send alert.triggered and alert.resolved events',
  audit: "The account's hash-chained audit log: list, verify, export",
  ingestion: 'For the SIP gateway: call records in',
  rejections: 'INVITEs the SIP gateway refused, reported by it and listed per trunk',
  gateway: 'For the SIP gateway: trunk lookups by SIP user name and their changes',
  admin: 'Accounts and API keys (admin keys only)',
};

/**
 * Fills the top-level `tags` list from the tags operations use, each with its description when
 * one is known here; a tag with none is still listed (named by its operations), so a new group
 * never leaves an operation with an undefined tag.
 */
export function describeTags(document: OpenAPIObject): void {
  const used = new Set<string>();
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item as Record<string, { tags?: string[] }>))
      for (const tag of operation?.tags ?? []) used.add(tag);
  const known = Object.keys(TAG_DESCRIPTIONS).filter((tag) => used.has(tag));
  const others = [...used].filter((tag) => !(tag in TAG_DESCRIPTIONS)).sort();
  document.tags = [
    ...known.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    ...others.map((name) => ({ name, description: `Operations of ${name}` })),
  ];
}
