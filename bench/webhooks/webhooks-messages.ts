/** IPC between webhooks.bench.ts and its app child, beside the app's `ready`. */
export interface WebhooksOps {
  'webhooks-pause': [undefined, void];
  'webhooks-resume': [undefined, void];
}
