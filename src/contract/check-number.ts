import { Type, type Static } from '@sinclair/typebox';
import type { EligibleNumber } from '../domain/number-eligibility.js';
import type { NumberProblem } from '../domain/phone-number.js';
import { NUMBER_PROBLEM_CODES } from '../domain/phone-number.js';
import { OperatorSchema } from './common.js';

export const CheckNumberRequestSchema = Type.Object(
  { phone_number: Type.String({ maxLength: 64, description: 'National (07…) or international (407…, +407…, 00407…) form' }) },
  { additionalProperties: false },
);
export type CheckNumberRequest = Static<typeof CheckNumberRequestSchema>;

const ValidNumberSchema = Type.Object({
  isValid: Type.Literal(true),
  operator: OperatorSchema,
  sanitizedNumber: Type.String({ description: 'International digits form, to use in recharge requests' }),
  national: Type.String(),
  ported: Type.Boolean(),
});

const InvalidNumberSchema = Type.Object({
  isValid: Type.Literal(false),
  message: Type.String(),
  code: Type.Union(NUMBER_PROBLEM_CODES.map((c) => Type.Literal(c))),
});

export const CheckNumberResultSchema = Type.Union([ValidNumberSchema, InvalidNumberSchema]);
export type CheckNumberResult = Static<typeof CheckNumberResultSchema>;

export function presentNumberCheck(verdict: EligibleNumber | NumberProblem): CheckNumberResult {
  if (!verdict.ok) return { isValid: false, message: verdict.message, code: verdict.code };
  return { isValid: true, operator: verdict.operator, sanitizedNumber: verdict.msisdn, national: verdict.national, ported: verdict.ported };
}
