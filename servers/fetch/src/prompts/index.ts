/** Every prompt of the fetch server. */
export const prompts = [];
