import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Route schemas are the contract's zod schemas (fastify-type-provider-zod): requests are parsed with them, responses
 * encoded with them. A missing (or `null`) body is read as `{}`, so each required field reports its own sentence
 * ('Email is required') instead of one about the body as a whole. Every part of every request (params, query, body)
 * is first checked for NUL characters here, so no route can forget it.
 */
export function installContractValidation(app: FastifyInstance): void {
  z.config({ customError: readableIssue });
  const compile = validatorCompiler as FastifySchemaCompiler<z.ZodType>;
  app.setValidatorCompiler<z.ZodType>((route) => {
    const validate = compile({ ...route, schema: withoutNul.pipe(route.schema) });
    return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
  });
  app.setSerializerCompiler(serializerCompiler);
}

const NUL = '\u0000';
/** Enough to name what is wrong; a body full of NULs need not list them all. */
const NUL_REPORT_LIMIT = 20;

/**
 * PostgreSQL cannot store U+0000 in text ("invalid byte sequence"), and no person types it: it is refused in any
 * string or key of the input, before the contract's schema runs, with the field it was found in.
 */
const withoutNul = z.unknown().superRefine((input, ctx) => {
  for (const path of nulPaths(input)) {
    const field = path.length ? path.join('.') : 'The request';
    ctx.addIssue({ code: 'custom', path, input, message: `${field} must not contain a NUL character` });
  }
});

type PathKey = string | number;
/** A place in the input: its key and the place that holds it (paths are built only for what is reported). */
interface Place {
  key: PathKey;
  parent: Place | null;
}

function pathOf(place: Place | null): PathKey[] {
  const path: PathKey[] = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * Where the input holds a NUL, in document order (a NUL in a key is reported at its object). Iterative, with shared
 * parent links: JSON may nest deeper than the call stack, and copying paths would cost depth squared.
 */
function nulPaths(input: unknown): PathKey[][] {
  const found: PathKey[][] = [];
  const pending: [unknown, Place | null][] = [[input, null]];
  while (pending.length && found.length < NUL_REPORT_LIMIT) {
    const [value, place] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) found.push(pathOf(place));
    } else if (value !== null && typeof value === 'object') {
      const entries: [PathKey, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
      if (entries.some(([key]) => typeof key === 'string' && key.includes(NUL))) {
        found.push(pathOf(place));
        continue;
      }
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], { key: entries[i][0], parent: place }]);
    }
  }
  return found;
}

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

const LIMIT_UNITS: Record<string, [string, string]> = {
  string: ['characters', 'character'],
  array: ['items', 'item'],
  set: ['items', 'item'],
};

/**
 * The safety net under the contract's own sentences: any issue a schema does not word itself still reads as a
 * sentence naming the field, never zod's default ("Invalid input: expected number, received NaN").
 */
export function readableIssue(issue: Issue): string {
  const field = issue.path?.length ? issue.path.map(String).join('.') : 'The request';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${field} is required` : `${field} must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_small':
    case 'too_big': {
      const [plural, singular] = LIMIT_UNITS[issue.origin] ?? ['', ''];
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const unit = plural ? ` ${bound === 1 ? singular : plural}` : '';
      if (issue.code === 'too_small') return plural ? `${field} must have at least ${bound}${unit}` : `${field} must be ${bound} or more`;
      return plural ? `${field} must have at most ${bound}${unit}` : `${field} must be ${bound} or less`;
    }
    case 'invalid_format':
      return `${field} is not a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    default:
      return `${field} is not valid`;
  }
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  if (type === 'object') return 'a JSON object';
  if (type === 'array') return 'a list';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
