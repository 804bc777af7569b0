/** The errno code of a failed system call (`ENOENT`, `EXDEV`, …), or undefined for any other error. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
