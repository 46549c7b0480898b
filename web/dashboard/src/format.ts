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

/** A new idempotency key (a random UUID: the browser's own generator). */
export const newIdempotencyKey = (): string => crypto.randomUUID();
