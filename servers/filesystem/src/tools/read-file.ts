import { defineTool } from '../context.js';
import { ReadTextInput, runReadText } from './read-text-file.js';

/** The official server's old name for read_text_file, kept so existing prompts keep working. */
export const readFile = defineTool({
  name: 'read_file',
  title: 'Read file (deprecated)',
  description:
    'Deprecated: use read_text_file, which takes the same arguments. Reads a file as UTF-8 text, with ' +
    'head, tail or offset and limit to choose lines.',
  input: ReadTextInput,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run: (args, call) => runReadText(args, call),
});
