/**
 * The SDK echo server: the smallest stdio server the SDK makes, whose one tool answers with a text
 * block of the size it is asked for. A floor that adds one call to it pays what any SDK server pays
 * for a round trip of that answer (framing, parsing, validation, dispatch) and nothing more.
 * Started by echo-floor.ts as `node dist/echo-server.js <tool name>`: the name lives there only.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/**
 * One string per size, built on first use: a floor session asks for the same few sizes over and
 * over, and building the text on every call would be work no real server's SDK layer does.
 */
const texts = new Map<number, string>();
const textOf = (bytes: number): string => {
  let text = texts.get(bytes);
  if (text === undefined) {
    // ASCII, so the length in characters is the length in bytes.
    text = 'x'.repeat(bytes);
    texts.set(bytes, text);
  }
  return text;
};

const input = fromJsonSchema<{ bytes: number }>({
  type: 'object',
  properties: { bytes: { type: 'integer', minimum: 0 } },
  required: ['bytes'],
  additionalProperties: false,
});

function echoServer(tool: string): McpServer {
  const mcp = new McpServer({ name: 'mcpkit-bench-echo', version: '0.0.0' });
  mcp.registerTool(
    tool,
    { description: 'Answers with a text block of `bytes` bytes.', inputSchema: input },
    ({ bytes }) => ({ content: [{ type: 'text', text: textOf(bytes) }] }),
  );
  return mcp;
}

const tool = process.argv[2];
if (!tool) {
  process.stderr.write('echo server: pass the tool name as the first argument.\n');
  process.exit(2);
}
serveStdio(() => echoServer(tool), {
  onerror: (error) => process.stderr.write(`echo server: ${error.message}\n`),
});
