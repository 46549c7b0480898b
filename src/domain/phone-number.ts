import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Turning what a person typed into a Romanian mobile number. Validity and number type come from
 * libphonenumber's full metadata; the operator is decided elsewhere (ported table, then allocation).
 */

export const NUMBER_PROBLEM_CODES = ['invalid_number', 'not_mobile', 'unsupported_country', 'unsupported_operator', 'not_prepaid'] as const;
export type NumberProblemCode = (typeof NUMBER_PROBLEM_CODES)[number];

export interface NumberProblem {
  readonly ok: false;
  readonly code: NumberProblemCode;
  readonly message: string;
}

export interface RomanianMobile {
  readonly ok: true;
  /** International digits form without plus: "40744123456". */
  readonly msisdn: string;
  /** National form with trunk prefix: "0744123456". */
  readonly national: string;
  /** National significant number: "744123456". */
  readonly significant: string;
}

const SEPARATORS = /[\s.\-()]/g;
const MAX_INPUT_DIGITS = 20;

export function numberProblem(code: NumberProblemCode, message: string): NumberProblem {
  return { ok: false, code, message };
}

/** The accepted written forms, as E.164 text, or undefined when the text is not a number at all. */
function toE164(raw: string): string | undefined {
  const compact = raw.replace(SEPARATORS, '');
  if (!/^\+?\d+$/.test(compact) || compact.replace('+', '').length > MAX_INPUT_DIGITS) return undefined;
  if (compact.startsWith('+')) return compact;
  if (compact.startsWith('00')) return `+${compact.slice(2)}`;
  if (compact.startsWith('0')) return `+40${compact.slice(1)}`;
  return `+${compact}`;
}

/**
 * Accepts national `07XXXXXXXX`, international digits `407XXXXXXXX`, `+407…` and `00407…`, with spaces,
 * dots, dashes and parentheses ignored.
 *
 * @example parseRomanianMobile('0744 123 456') // { ok: true, msisdn: '40744123456', ... }
 */
export function parseRomanianMobile(raw: string): RomanianMobile | NumberProblem {
  const e164 = toE164(raw);
  const parsed = e164 === undefined ? undefined : parsePhoneNumberFromString(e164);
  if (!parsed) return numberProblem('invalid_number', 'The phone number is not a valid number.');
  if (parsed.countryCallingCode !== '40') {
    return parsed.isValid()
      ? numberProblem('unsupported_country', 'Only Romanian (+40) mobile numbers can be topped up.')
      : numberProblem('invalid_number', 'The phone number is not a valid number.');
  }
  if (!parsed.isValid()) return numberProblem('invalid_number', 'The phone number is not a valid Romanian number.');
  if (parsed.getType() !== 'MOBILE') {
    return numberProblem('not_mobile', 'The phone number is not a mobile number; only mobile numbers can be topped up.');
  }
  const significant = parsed.nationalNumber;
  return { ok: true, msisdn: `40${significant}`, national: `0${significant}`, significant };
}
