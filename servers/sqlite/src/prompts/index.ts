/** Every prompt of the SQLite server. */
export const prompts = [];
