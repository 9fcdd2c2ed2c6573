/** Errors the store reports to people: one clear line, a stable code, never a stack trace. */
export type StoreErrorCode =
  | 'not-found'
  | 'not-a-session'
  | 'ambiguous'
  | 'no-entry'
  | 'read-only'
  | 'write-failed'
  | 'trash-unavailable'
  | 'bad-input'
  | 'unreadable-dir'
  | 'not-regular'
  | 'too-large';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The first line of an error's message, or the thrown value as text: what a status line or a
 * one-line message shows of an error (library errors, e.g. the trash's helper, carry more lines).
 */
export function firstLineOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** A one-line description of an fs error for messages ("permission denied", "read-only file system"). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EFBIG':
      return 'file too large for the file-size limit';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EIO':
      return 'input/output error';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EISDIR':
      return 'is a directory';
    case 'EEXIST':
      return 'already exists';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}
