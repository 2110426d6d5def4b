import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../errors.ts';

/**
 * Two validators (DECISIONS item 6): bodies are checked strictly, no type coercion and unknown
 * properties refused (schemas say additionalProperties: false), so `"true"` is not a boolean;
 * query strings, params and headers arrive as text and are coerced.
 */
const make = (coerce: boolean) => {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  // `month` is the YYYY-MM form of as_of_month.
  ajv.addFormat('month', /^\d{4}-(0[1-9]|1[0-2])$/);
  return ajv;
};
const strict = make(false);
const coercing = make(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;

/** Turns Ajv's findings into error items naming the field. */
export function validationDetails(errors: ErrorObject[], context: string): ErrorDetail[] {
  return errors.map((e) => {
    let field = `${context}${e.instancePath}`;
    if (e.keyword === 'required') field = `${field}/${(e.params as { missingProperty: string }).missingProperty}`;
    if (e.keyword === 'additionalProperties') {
      field = `${field}/${(e.params as { additionalProperty: string }).additionalProperty}`;
    }
    const message =
      e.keyword === 'additionalProperties'
        ? 'is not an accepted property'
        : e.keyword === 'required'
          ? 'is required'
          : (e.message ?? 'is invalid');
    return { code: 'validation_failed', field, message: `${field} ${message}` };
  });
}
