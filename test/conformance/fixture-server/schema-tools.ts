import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { defineTool } from './context.js';

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** SEP-1613 / SEP-2106: 2020-12 keywords a server must pass through untouched. */
const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, never awaited.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as JsonSchemaType;

/** What {@link SCHEMA_2020_12} accepts, as the tool reads it. */
type Contact = {
  name?: string;
  address?: { street?: string; city?: string };
  contactMethod?: 'phone' | 'email';
  phone?: string;
  email?: string;
};

/**
 * The schema fixtures. zod cannot write `$anchor` or `if`/`then`/`else`, so the 2020-12 tool's
 * input is the JSON Schema itself, through the SDK's `fromJsonSchema`: core serves it verbatim in
 * `tools/list` and checks the arguments against it.
 */
export const schemaTools = [
  defineTool({
    name: 'json_schema_2020_12_tool',
    title: 'JSON Schema 2020-12',
    description: 'Tool with JSON Schema 2020-12 features',
    input: fromJsonSchema<Contact>(SCHEMA_2020_12),
    annotations: READ_ONLY,
    run: (args) => ({ text: `Accepted: ${JSON.stringify(args)}` }),
  }),
  // SEP-2243: a string argument mirrored in an `Mcp-Param-Region` header, which the SDK checks.
  defineTool({
    name: 'test_header_param',
    title: 'Header parameter',
    description: 'Echoes a region that 2026 HTTP clients also send as the Mcp-Param-Region header.',
    input: z.object({
      region: z.string().describe('A region name').meta({ 'x-mcp-header': 'Region' }),
    }),
    annotations: READ_ONLY,
    run: ({ region }) => ({ text: `Region: ${region}` }),
  }),
];
