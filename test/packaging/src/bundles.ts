/** Bundled bins (written by @mcpkit/bundle) announce themselves on their second line. */
export function isBundle(code: string): boolean {
  return /^(?:#![^\n]*\n)?\/\/ Bundled with third-party code; see [^\n]+\.LICENSE\.txt\./.test(code);
}
