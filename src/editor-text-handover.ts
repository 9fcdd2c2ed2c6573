/**
 * How pi-sessions, run by its pi extension, hands pi the message its editor gets back: after a
 * resume from here on a user message (or "Open the new session in pi" after a fork before one),
 * pi resumes just before that message, and pi's own /tree puts its text in the editor. stdout
 * carries only the chosen path (`--print`), so the extension names a file in the environment:
 * the app writes the text there, the extension reads it, removes it and calls `setEditorText`.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export const EDITOR_TEXT_FILE_ENV = 'PI_SESSIONS_EDITOR_TEXT_FILE';

/** The app's side: writes `text` to the file the extension named (a new file, only ours to read). */
export function handOverEditorText(text: string, env: NodeJS.ProcessEnv = process.env): void {
  const path = env[EDITOR_TEXT_FILE_ENV];
  if (path === undefined || !isAbsolute(path)) return;
  try {
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
  } catch {
    // pi goes on without it: the tree showed the message, to copy and send again.
  }
}

/** The extension's side: the text handed over, if any; the file is removed either way. */
export function takeEditorText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // Never written: nothing to remove.
    }
  }
}
