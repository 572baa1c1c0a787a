import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Route schemas are the contract's zod schemas (fastify-type-provider-zod): requests are parsed with them, responses
 * encoded with them. A missing (or `null`) body is read as `{}`, so each required field reports its own sentence
 * ('Email is required') instead of one about the body as a whole.
 */
export function installContractValidation(app: FastifyInstance): void {
  z.config({ customError: readableIssue });
  const compile = validatorCompiler as FastifySchemaCompiler<z.ZodType>;
  app.setValidatorCompiler<z.ZodType>((route) => {
    const validate = compile(route);
    return route.httpPart === 'body' ? (data) => validate(data ?? {}) : validate;
  });
  app.setSerializerCompiler(serializerCompiler);
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
