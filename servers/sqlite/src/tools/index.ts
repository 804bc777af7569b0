/** Every tool of the SQLite server, in the order `tools/list` shows them. */
export const tools = [];
