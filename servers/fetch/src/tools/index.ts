/** Every tool of the fetch server, in the order `tools/list` shows them. */
export const tools = [];
