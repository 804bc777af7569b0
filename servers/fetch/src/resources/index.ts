/** Every resource and resource template of the fetch server. */
export const resources = [];
