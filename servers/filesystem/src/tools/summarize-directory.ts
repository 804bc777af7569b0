import { join } from 'node:path';
import type { RootSet } from '@mcpkit/core/roots';
import { loopTool, runToolLoop, SamplingUnavailableError } from '@mcpkit/core/sampling';
import * as z from 'zod';
import { defineTool } from '../context.js';
import { escapeName } from '../fs/display.js';
import { errnoSentence } from '../fs/errno-sentence.js';
import { type PathPolicy, resolvePath } from '../fs/paths.js';
import { isSensitive } from '../fs/sensitive.js';
import { listDirectory } from '../fs/verified-listing.js';
import { rootError } from '../fs/walk.js';
import { readTextBounded } from '../prompts/read-bounded.js';

const LOOP_READ_BYTES = 16 * 1024;
const LOOP_LIST_ENTRIES = 300;

async function listing(real: string, policy: PathPolicy): Promise<string[]> {
  const entries = await listDirectory(real);
  return entries
    .filter((e) => policy.allowSensitive || !isSensitive(join(real, e.name)))
    .map((e) => `${e.isDirectory() ? '[DIR] ' : e.isSymbolicLink() ? '[LINK]' : '[FILE]'} ${e.name}`)
    .sort()
    .slice(0, LOOP_LIST_ENTRIES);
}

/** The listing of a directory the caller or the model named, or a sentence saying why there is none. */
async function listingOf(roots: RootSet, policy: PathPolicy, path: string): Promise<string[]> {
  const dir = await resolvePath(roots, policy, path);
  return listing(dir.real, policy).catch((error) => {
    throw rootError(error, dir.display);
  });
}

// The loop answers the model only "<tool> failed." for an error without a sentence: give it one.
async function saying<T>(roots: RootSet, work: Promise<T>): Promise<T> {
  return work.catch((error) => {
    throw errnoSentence(error, roots) ?? error;
  });
}

/** The read-only tools the model may call during the loop: both stay inside this call's roots. */
function loopTools(roots: RootSet, policy: PathPolicy) {
  return [
    loopTool({
      name: 'list_directory',
      description: 'Lists a directory inside the allowed directories.',
      input: z.object({ path: z.string() }),
      run: async ({ path }) =>
        (await saying(roots, listingOf(roots, policy, path))).join('\n') || 'The directory is empty.',
    }),
    loopTool({
      name: 'read_text_file',
      description: `Returns the start of a text file (at most ${LOOP_READ_BYTES} bytes).`,
      input: z.object({ path: z.string() }),
      run: async ({ path }) =>
        saying(
          roots,
          resolvePath(roots, policy, path).then((f) => readTextBounded(f, LOOP_READ_BYTES)),
        ),
    }),
  ];
}

/**
 * Asks the client's model about a directory, lending it read-only `list_directory` and
 * `read_text_file` tools restricted to this call's roots: sampling with tools, in both eras. A
 * client that cannot sample gets the listing and a sentence saying why.
 */
export const summarizeDirectory = defineTool({
  name: 'summarize_directory',
  title: 'Summarize a directory',
  description:
    "Answers a question about a directory (default: what it contains and how it is organised) using the client's model, which may list and read files inside the allowed directories while it works.",
  input: z.object({
    path: z.string().describe('The directory'),
    question: z.string().max(4000).optional().describe('What to find out'),
    maxIterations: z.number().int().min(1).max(8).optional().describe('Model turns at most (default 5)'),
  }),
  output: z.object({ answer: z.string(), sampled: z.boolean(), model: z.string(), toolCalls: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const policy = call.context;
    const roots = await call.roots();
    const entries = await listingOf(roots, policy, args.path);
    try {
      const out = await runToolLoop(call.flow, {
        systemPrompt:
          'You explore a directory with the tools given and answer precisely. Paths you pass must be inside it.',
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Directory ${escapeName(args.path)}:\n${entries.join('\n')}\n\n${args.question ?? 'What does this directory contain, and how is it organised?'}`,
            },
          },
        ],
        maxTokens: 1500,
        tools: loopTools(roots, policy),
        ...(args.maxIterations ? { maxIterations: args.maxIterations } : {}),
      });
      return {
        text: out.text,
        structured: { answer: out.text, sampled: true, model: out.model, toolCalls: out.toolCalls.length },
      };
    } catch (error) {
      if (!(error instanceof SamplingUnavailableError)) throw error;
      const text = `This client cannot sample, so here is the listing to read yourself:\n${entries.join('\n')}`;
      return { text, structured: { answer: text, sampled: false, model: '', toolCalls: 0 } };
    }
  },
});
