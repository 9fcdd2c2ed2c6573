import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPiConfig } from '../../src/store/pi-settings.js';

let root: string;
let agent: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pi-sessions-settings-'));
  agent = join(root, 'agent');
  project = join(root, 'proj');
  mkdirSync(agent, { recursive: true });
  mkdirSync(join(project, '.pi'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("pi's settings and keybindings", () => {
  it('defaults when nothing is configured', () => {
    expect(readPiConfig(agent, project)).toEqual({
      treeFilterMode: 'default',
      mouse: true,
      keybindings: {},
      problems: [],
    });
  });

  it('treeFilterMode: global, overridden by the project, as pi merges them', () => {
    writeFileSync(join(agent, 'settings.json'), JSON.stringify({ treeFilterMode: 'no-tools' }));
    expect(readPiConfig(agent, project).treeFilterMode).toBe('no-tools');
    writeFileSync(join(project, '.pi', 'settings.json'), JSON.stringify({ treeFilterMode: 'user-only' }));
    expect(readPiConfig(agent, project).treeFilterMode).toBe('user-only');
  });

  it('keybindings: the parsed object (src/keymap/pi-keybindings.ts reads it as pi does); a byte-order mark is fine, as in pi', () => {
    const value = { $schema: 'x', 'app.tree.editLabel': 'ctrl+e', 'tui.select.up': ['k', 'up'], bad: 3 };
    writeFileSync(join(agent, 'keybindings.json'), `\uFEFF${JSON.stringify(value)}`);
    expect(readPiConfig(agent, project)).toEqual({
      treeFilterMode: 'default',
      mouse: true,
      keybindings: value,
      problems: [],
    });
    writeFileSync(join(agent, 'keybindings.json'), '["ctrl+e"]');
    expect(readPiConfig(agent, project)).toEqual({
      treeFilterMode: 'default',
      mouse: true,
      keybindings: {},
      problems: [`${join(agent, 'keybindings.json')}: not a JSON object, ignored`],
    });
  });

  it("the mouse: on, unless pi-sessions' own key says false, global then the project on top", () => {
    const settings = join(agent, 'settings.json');
    const projectSettings = join(project, '.pi', 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'pi-sessions': { mouse: false }, treeFilterMode: 'all' }));
    expect(readPiConfig(agent, project)).toMatchObject({ mouse: false, treeFilterMode: 'all', problems: [] });
    writeFileSync(projectSettings, JSON.stringify({ 'pi-sessions': { mouse: true } }));
    expect(readPiConfig(agent, project).mouse).toBe(true);
    writeFileSync(projectSettings, JSON.stringify({ 'pi-sessions': {} }));
    expect(readPiConfig(agent, project).mouse).toBe(false);
  });

  it('a pi-sessions key or mouse value of the wrong kind is ignored with one line', () => {
    const settings = join(agent, 'settings.json');
    writeFileSync(settings, JSON.stringify({ 'pi-sessions': { mouse: 'off' } }));
    expect(readPiConfig(agent, project)).toMatchObject({
      mouse: true,
      problems: [`${settings}: "pi-sessions".mouse "off" is not true or false, ignored`],
    });
    writeFileSync(settings, JSON.stringify({ 'pi-sessions': false }));
    expect(readPiConfig(agent, project)).toMatchObject({
      mouse: true,
      problems: [`${settings}: "pi-sessions" is not an object, ignored`],
    });
  });

  it('bad files are defaults plus one line each, never a throw or a hang (FIFO)', () => {
    writeFileSync(join(agent, 'settings.json'), '{ not json');
    writeFileSync(join(project, '.pi', 'settings.json'), JSON.stringify({ treeFilterMode: 'everything' }));
    execFileSync('mkfifo', [join(agent, 'keybindings.json')]);
    const config = readPiConfig(agent, project);
    expect(config.treeFilterMode).toBe('default');
    expect(config.problems).toEqual([
      `${join(agent, 'settings.json')}: not valid JSON, ignored`,
      `${join(project, '.pi', 'settings.json')}: treeFilterMode "everything" is not one of default, no-tools, user-only, labeled-only, all, ignored`,
      `${join(agent, 'keybindings.json')}: not a regular file (a FIFO), ignored`,
    ]);
  });

  it('a folder or an oversized file in place of keybindings.json: one line, no keys', () => {
    const file = join(agent, 'keybindings.json');
    mkdirSync(file);
    expect(readPiConfig(agent, project)).toEqual({
      treeFilterMode: 'default',
      mouse: true,
      keybindings: {},
      problems: [`${file}: not a regular file (a directory), ignored`],
    });
    rmSync(file, { recursive: true });
    writeFileSync(file, `{"x": "${'y'.repeat(1024 * 1024)}"}`);
    expect(readPiConfig(agent, project)).toEqual({
      treeFilterMode: 'default',
      mouse: true,
      keybindings: {},
      problems: [`${file}: larger than 1 MB, ignored`],
    });
  });
});
