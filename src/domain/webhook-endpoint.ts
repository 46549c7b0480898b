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
}

/** 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit. */
export const WEBHOOK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Orders that name no endpoint report to the one with this name, if the account has it. */
export const DEFAULT_WEBHOOK_NAME = 'default';
