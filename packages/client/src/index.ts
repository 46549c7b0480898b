// @topup/client: the top-up API from TypeScript, in Node 20+ and browsers. It needs the platform's
// fetch and standardwebhooks, nothing else (the bulk command line's packages are its own).
export { TopupClient, type Placed, type TopupClientOptions } from './client.js';
export { TopupApiError, type FieldProblem } from './errors.js';
export { verifyWebhook, type WebhookEvent } from './webhooks.js';
export type * from './types.js';
export type { paths, components } from './generated/api.js';
