/**
 * Tool schemas converted to JSON Schema once, not on every `tools/list`.
 *
 * The SDK converts each tool's zod input schema to JSON Schema on every `tools/list` (and a 2026
 * HTTP request builds a fresh instance, so its output schemas too). For a server with twenty tools
 * that conversion was most of the call: 1.7 ms of zod's `toJSONSchema` per list, measured
 * in-process. The schemas never change once defined, so the result is kept on the schema itself,
 * frozen so that no consumer can change what the next caller gets.
 */
import type * as z from 'zod';

type JsonSchemaMethod = (options: {
  target: string;
  libraryOptions?: Record<string, unknown>;
}) => Record<string, unknown>;

interface StandardWithJson {
  jsonSchema?: { input: JsonSchemaMethod; output: JsonSchemaMethod };
  [key: string]: unknown;
}

const cached = new WeakSet<object>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function memo(method: JsonSchemaMethod): JsonSchemaMethod {
  const results = new Map<string, Record<string, unknown>>();
  return (options) => {
    // Library options may carry functions; such calls are not cached.
    if (options.libraryOptions !== undefined) return method(options);
    let result = results.get(options.target);
    if (result === undefined) {
      result = deepFreeze(method(options));
      results.set(options.target, result);
    }
    return result;
  };
}

/**
 * Makes `schema` remember its JSON Schema conversions (per direction and target). Returns the
 * same schema; calling it again is a no-op.
 *
 * @example
 * ```ts
 * const input = withCachedJsonSchema(z.object({ path: z.string() }).strict());
 * ```
 */
export function withCachedJsonSchema<S extends z.ZodType>(schema: S): S {
  if (cached.has(schema)) return schema;
  const holder = schema as unknown as { '~standard': StandardWithJson };
  const standard = holder['~standard'];
  const json = standard.jsonSchema;
  if (json) {
    // zod defines a setter for `~standard` that stores an own property: the supported way to
    // replace it on one schema.
    holder['~standard'] = { ...standard, jsonSchema: { input: memo(json.input), output: memo(json.output) } };
  }
  cached.add(schema);
  return schema;
}
