import { Ajv, type ErrorObject } from 'ajv';
import formatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from '../domain/errors.js';

/**
 * Two validators: bodies are checked exactly as sent (a string "5" is not the number 5, an unknown
 * field is an error, not silently dropped), while query strings, which are text by nature, are coerced.
 */
function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, removeAdditional: false, useDefaults: true, allErrors: true, strict: false });
  // ajv-formats is CommonJS: under NodeNext its function is the default export's `default`.
  (formatsPlugin as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  return ajv;
}

export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const exact = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema as object);
}

/** "/recharges/0/amount" → "recharges[0].amount" */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const join = (path: string, name: string) => (path ? `${path}.${name}` : name);

/** A problem inside `recharges[N]` names its entry by arrayPosition, as the interface document numbers entries. */
function withPosition(problem: FieldProblem): FieldProblem {
  const match = /^recharges\[(\d+)\]/.exec(problem.field);
  return match ? { arrayPosition: Number(match[1]), ...problem } : problem;
}

/**
 * A choice of constants (`status=bogus`) fails once per constant and once more for the choice; those
 * become one problem that names the allowed values.
 */
function collapseChoices(errors: readonly ErrorObject[], root: string): Array<ErrorObject | FieldProblem> {
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) if (e.keyword === 'const') allowed.set(e.instancePath, [...(allowed.get(e.instancePath) ?? []), e.params.allowedValue]);
  const out: Array<ErrorObject | FieldProblem> = [];
  for (const e of errors) {
    const values = allowed.get(e.instancePath);
    if (!values) out.push(e);
    else if (e.keyword === 'anyOf') {
      const field = fieldPath(e.instancePath) || root;
      out.push({ field, code: 'invalid_value', message: `${field} must be one of ${values.map(String).join(', ')}` });
    }
  }
  return out;
}

export function fieldProblems(errors: readonly ErrorObject[], root: string): FieldProblem[] {
  return collapseChoices(errors, root).map((e) => withPosition('keyword' in e ? problemOf(e, root) : e));
}

function problemOf(e: ErrorObject, root: string): FieldProblem {
  {
    const path = fieldPath(e.instancePath);
    switch (e.keyword) {
      case 'required': {
        const field = join(path, String(e.params.missingProperty));
        return { field, code: 'required', message: `${field} is required` };
      }
      case 'additionalProperties': {
        const field = join(path, String(e.params.additionalProperty));
        return { field, code: 'unknown_field', message: `${field} is not a known field` };
      }
      case 'type': {
        const field = path || root;
        return { field, code: 'invalid_type', message: `${field} must be of type ${String(e.params.type)}` };
      }
      default: {
        const field = path || root;
        return { field, code: `invalid_${e.keyword}`.toLowerCase(), message: `${field} ${e.message ?? 'is not valid'}` };
      }
    }
  }
}
