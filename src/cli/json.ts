/**
 * The one way every `--json` output is printed: an object whose first field is `version`, then
 * the command's own fields, through the terminal-safe encoder (C1 controls, bidi and invisible
 * characters written as `\uXXXX` escapes, the same value for a JSON parser and nothing a terminal
 * acts on when a script shows it). The README documents each command's fields.
 */
import { terminalSafeJson } from '../text/terminal-text.js';

/**
 * The version of the `--json` shapes: a field added keeps it, a field removed, renamed or changed
 * in meaning raises it, so a script can check `.version` before it reads on.
 */
export const JSON_VERSION = 1;

/** `fields` as printed JSON text: `{ "version": 1, …fields }`, indented by two spaces. */
export function jsonOutput(fields: Record<string, unknown>): string {
  return terminalSafeJson(JSON.stringify({ version: JSON_VERSION, ...fields }, null, 2));
}
