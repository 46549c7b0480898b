export const ORDER_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * PENDING → PROCESSING → SUCCESS | FAILED; a retryable operator error sends PROCESSING back to
 * PENDING; an expired claim lets another worker take a PROCESSING order again.
 */
const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  PENDING: ['PROCESSING'],
  PROCESSING: ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'],
  SUCCESS: [],
  FAILED: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

export const isFinal = (status: OrderStatus): boolean => NEXT[status].length === 0;
