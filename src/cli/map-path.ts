/**
 * `pi-sessions map-path [FROM TO] [--host NAME]`: adds a path mapping to pi-sessions.json (or
 * replaces the one with that FROM), or lists the mappings. The file's reading and atomic writing
 * are the store's (path-settings.ts); paths come from the user and the file: shown sanitised.
 */
import { type Locations, readSessionsSettings, savePathMapping, settingsFileOf } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';

function mappingLine(mapping: { from: string; to: string; host?: string }): string {
  const host = mapping.host === undefined ? '' : ` (written on ${mapping.host})`;
  return sanitizeInline(`${mapping.from} → ${mapping.to}${host}`);
}

export function mapPathCommand(
  locations: Locations,
  options: { from?: string; to?: string; host?: string },
  io: Output,
): CommandResult {
  const file = settingsFileOf(locations.agentDir);
  if (options.from === undefined) {
    const settings = readSessionsSettings(locations.agentDir);
    for (const problem of settings.problems) io.err(`pi-sessions: ${sanitizeInline(problem)}`);
    if (settings.pathMap.length === 0) io.out(`No path mappings in ${sanitizeInline(file)}.`);
    for (const mapping of settings.pathMap) io.out(mappingLine(mapping));
    return { code: settings.problems.length > 0 ? 1 : 0 };
  }
  const mapping = {
    from: options.from,
    to: options.to!,
    ...(options.host !== undefined ? { host: options.host } : {}),
  };
  const saved = savePathMapping(locations.agentDir, mapping);
  io.out(`Mapped ${mappingLine(saved)} in ${sanitizeInline(file)}.`);
  return { code: 0 };
}
