/** Where an account hears of its orders' final statuses, chosen per order by name. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly url: string;
  /** whsec_… as issued: the signing key of both signature schemes. */
  readonly secret: string;
  readonly disabledAt: number | null;
  readonly disabledReason: string | null;
  readonly createdAt: number;
  /** The secret before the last rotation, which keeps signing beside the new one until `previousSecretUntil`. */
  readonly previousSecret: string | null;
  readonly previousSecretUntil: number | null;
}

/** How long a rotated-out secret keeps signing, so a receiver can switch without losing a delivery. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** The secrets a delivery is signed with now: the current one first, then the previous one while it lasts. */
export function signingSecrets(endpoint: WebhookEndpoint, now: number): string[] {
  const previous = endpoint.previousSecret !== null && (endpoint.previousSecretUntil ?? 0) > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/** The name a removed endpoint is kept under: no customer can give it (`~` is not allowed in a name). */
export const removedName = (endpoint: WebhookEndpoint): string => `${endpoint.name}~${endpoint.id}`;

/** 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit. */
export const WEBHOOK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Orders that name no endpoint report to the one with this name, if the account has it. */
export const DEFAULT_WEBHOOK_NAME = 'default';
