/** Every resource and resource template of the SQLite server. */
export const resources = [];
