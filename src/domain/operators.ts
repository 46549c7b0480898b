export const OPERATORS = ['orange', 'vodafone', 'telekom', 'digi'] as const;
export type Operator = (typeof OPERATORS)[number];

export function isOperator(value: string): value is Operator {
  return (OPERATORS as readonly string[]).includes(value);
}

/** Our operator from a provider's operator name ("Orange Romania"; Telekom Romania was Cosmote). */
export function operatorNamed(name: string | undefined): Operator | undefined {
  const lower = (name ?? '').toLowerCase();
  return OPERATORS.find((o) => lower.includes(o)) ?? (lower.includes('cosmote') ? 'telekom' : undefined);
}

/**
 * The original allocation of Romanian mobile ranges, by national significant number (no trunk 0).
 * Longer prefixes are listed before the shorter ones they refine. A number that was ported keeps its
 * prefix but not its operator, which is why the ported-numbers table is asked first.
 */
const ALLOCATION: ReadonlyArray<readonly [prefix: string, operator: Operator]> = [
  ['711', 'telekom'],
  ...['770', '771', '772', '773', '774', '775', '776', '777'].map((p) => [p, 'digi'] as const),
  ['72', 'vodafone'],
  ['73', 'vodafone'],
  ['79', 'vodafone'],
  ['74', 'orange'],
  ['75', 'orange'],
  ['76', 'telekom'],
  ['78', 'telekom'],
];

export function operatorByAllocation(nationalNumber: string): Operator | undefined {
  return ALLOCATION.find(([prefix]) => nationalNumber.startsWith(prefix))?.[1];
}
