import { defineTool, registerTool, type Scope } from '@mcpkit/core/server';
import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import * as z from 'zod';

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

/** SEP-2243: a string argument mirrored in an `Mcp-Param-Region` header, which the SDK checks. */
const headerParam = defineTool({
  name: 'test_header_param',
  title: 'Header parameter',
  description: 'Echoes a region that 2026 HTTP clients also send as the Mcp-Param-Region header.',
  input: z.object({
    region: z.string().describe('A region name').meta({ 'x-mcp-header': 'Region' }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ region }) => ({ text: `Region: ${region}` }),
});

export function registerSchemaTools(scope: Scope): void {
  registerTool(scope, headerParam);
  // Core's tools take zod schemas, and zod cannot write $anchor or if/then/else; this one tool is
  // registered on the SDK directly so its schema reaches tools/list verbatim.
  scope.mcp.registerTool(
    'json_schema_2020_12_tool',
    {
      title: 'JSON Schema 2020-12',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: fromJsonSchema(SCHEMA_2020_12),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => ({ content: [{ type: 'text', text: `Accepted: ${JSON.stringify(args)}` }] }),
  );
}
