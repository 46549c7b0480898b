// How figures and times are shown: money with its currency and two decimals, times in the viewer's zone.

export function money(amount: number | string, currency: string): string {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  return `${value.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

export function dateTime(iso: string | null): string {
  if (iso === null) return '—';
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The order statuses, in the order a customer reads them, with the colour the chart gives each. */
export const STATUSES = ['SUCCESS', 'PROCESSING', 'PENDING', 'FAILED'] as const;
export const STATUS_COLOURS: Record<(typeof STATUSES)[number], string> = {
  SUCCESS: '#2f855a',
  PROCESSING: '#b7791f',
  PENDING: '#718096',
  FAILED: '#c53030',
};

/**
 * A new idempotency key: a random UUID. `crypto.randomUUID` exists only on secure origins (HTTPS or
 * localhost); elsewhere (staging on a plain-HTTP address) one is made from `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
