/** The check view's reducer and lines over a real audit of hostile files (pure, no screen). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CheckAction,
  type CheckState,
  checkReducer,
  initialCheckState,
  resumeCheckState,
} from '../../src/check/reducer.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { type CheckReport, checkFile } from '../../src/store/index.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { smallCases } from '../hostile/corpus.js';

const key = (name: KeyName): CheckAction => ({ type: 'key', name });
const run = (state: CheckState, ...actions: CheckAction[]): CheckState => actions.reduce(checkReducer, state);

function report(): CheckReport {
  const dir = tempDir();
  const cases = smallCases();
  const paths = ['glued-lines', 'not-json-at-all'].map((name) => {
    const path = join(dir, `${name}.jsonl`);
    writeFileSync(path, cases[name]!);
    return path;
  });
  const good = new SessionBuilder({ cwd: dir });
  good.user('fine');
  good.assistant('all fine');
  paths.push(good.writeTo(join(dir, 'good.jsonl')));
  return { searched: dir, files: paths.map((p) => checkFile(p)) };
}

describe('check view', () => {
  it('groups problems by file, errors first, each with where, what pi does and what to do; then health', () => {
    const s = run(
      initialCheckState(40, undefined, 400),
      { type: 'progress', done: 1, total: 3 },
      { type: 'report', report: report() },
    );
    expect(s.progress).toBeUndefined();
    const text = s.view.lines.map((l) => l.text);
    expect(text[0]).toMatch(/^\d+ problems? in 2 of 3 files \(.*\) in /);
    expect(s.view.files.map((f) => f.path.split('/').at(-1))).toEqual([
      'glued-lines.jsonl',
      'not-json-at-all.jsonl',
      'good.jsonl',
    ]);
    const glued = s.view.files[0]!;
    const block = text.slice(glued.first, glued.last + 1);
    expect(block[0]).toMatch(/ · 2 problems$/);
    expect(block[1]).toMatch(/^ {2}\/.*glued-lines\.jsonl$/);
    expect(block[2]).toMatch(/^ {2}[\d.]+ [KB]+, \d+ entries, 0 compactions, \d+% tool output$/);
    expect(block).toContain(
      '  line 3: error: 2 entries glued on one line (written by pi before 0.84.4); recovered [glued-line]',
    );
    expect(block).toContain(
      '    what to do: fork the session with pi-sessions (it recovers both entries) and use the fork',
    );
    expect(block.some((l) => l.startsWith('    pi 1.6.0 '))).toBe(true);
    expect(block.some((l) => l.startsWith('    what to do: '))).toBe(true);
    expect(s.view.files.map((f) => f.openable)).toEqual([true, false, true]);
    // A file pi-sessions cannot read as a session has no title: its file name stands in.
    expect(text[s.view.files[1]!.first]).toBe('not-json-at-all.jsonl · 1 problem');
    expect(text.join('\n')).not.toContain('large enough to make pi slow');
  });

  it('names the files large enough to make pi slow, in the summary and on the file', () => {
    const files = report().files;
    const big = { ...files[2]!, health: { ...files[2]!.health!, size: 40 * 1024 * 1024 } };
    const s = run(initialCheckState(40, undefined, 200), {
      type: 'report',
      report: { searched: '/s', files: [files[0]!, big] },
    });
    const text = s.view.lines.map((l) => l.text);
    expect(text[1]).toBe(
      '1 file large enough to make pi slow (over 32 MB: pi loads whole files); Alt+S in the list slims one',
    );
    expect(text.some((l) => /^ {2}40 MB, .* · large enough to make pi slow \(it loads whole files\)$/.test(l))).toBe(
      true,
    );
  });

  it('moves between files, scrolls a page, opens a readable file’s tree, says why another cannot be, Esc goes back', () => {
    let s = run(initialCheckState(4), { type: 'report', report: report() });
    expect(s.cursor).toBe(0);
    s = run(s, key('down'));
    expect(s.cursor).toBe(1);
    // The selected block is on screen.
    expect(s.offset).toBeLessThanOrEqual(s.view.files[1]!.first);
    expect(s.offset + s.height).toBeGreaterThan(s.view.files[1]!.first);
    const refused = run(s, key('return'));
    expect(refused.status).toBe('pi cannot read this file as a session: there is no tree to open');
    expect(refused.effects).toEqual([]);
    s = run(s, key('up'), key('return'));
    expect(s.effects).toMatchObject([{ kind: 'open', path: s.view.files[0]!.path }]);
    expect(s.leaving).toBe(true);
    expect(run(s, key('down'))).toBe(s);
    const back = resumeCheckState(s);
    expect(back.cursor).toBe(0);
    expect(run(back, key('escape')).effects).toMatchObject([{ kind: 'back' }]);
    const paged = run(back, key('pagedown'));
    expect(paged.offset).toBe(back.offset + 3);
    expect(paged.view.files[paged.cursor]!.first).toBeGreaterThanOrEqual(paged.offset);
    expect(run(paged, key('home')).offset).toBe(0);
  });

  it('Enter on a file gone since the audit: says so, the file leaves the view, keys are taken again', () => {
    const audited = report();
    let s = run(initialCheckState(40), { type: 'report', report: audited }, key('return'));
    const path = s.view.files[0]!.path;
    expect(s.leaving).toBe(true);
    s = run(s, { type: 'sessionGone', path, message: `${path} was deleted or moved since the list was drawn` });
    expect(s.leaving).toBe(false);
    expect(s.status).toBe(`${path} was deleted or moved since the list was drawn`);
    expect(s.view.files).toHaveLength(2);
    expect(s.view.files.some((f) => f.path === path)).toBe(false);
    expect(s.view.lines.map((l) => l.text).join('\n')).not.toContain('glued-lines.jsonl');
    expect(s.cursor).toBe(0);
    expect(run(s, key('return')).effects.at(-1)).toMatchObject({ kind: 'open' });
  });

  it('at 80 columns: errors first (then warnings, then the rest, each by size), titled, the path cut in the middle, advice wrapped whole', () => {
    const dir = tempDir();
    const longDir = join(dir, '--home-ana-Projects-a-rather-long-project-name-for-a-data-pipeline--');
    mkdirSync(longDir);
    const warned = new SessionBuilder({ cwd: join(dir, 'gone') }); // cwd-missing: a warning
    warned.user('a warning-only session, and the largest file of the three');
    warned.assistant('x'.repeat(4000));
    const warnedPath = warned.writeTo(join(longDir, '2026-01-05T09-00-00-000Z_warned.jsonl'));
    const bomPath = join(longDir, '2026-01-05T09-00-00-000Z_bom.jsonl');
    const bom = new SessionBuilder({ cwd: dir });
    bom.user('the BOM file pi refuses');
    writeFileSync(
      bomPath,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(bom.writeTo(join(dir, 'b.jsonl')))]),
    );
    const fine = new SessionBuilder({ cwd: dir });
    fine.name('A named session');
    fine.user('fine');
    const finePath = fine.writeTo(join(longDir, '2026-01-05T09-00-00-000Z_fine.jsonl'));
    const report: CheckReport = { searched: longDir, files: [finePath, warnedPath, bomPath].map((p) => checkFile(p)) };
    const s = run(initialCheckState(40, undefined, 80), { type: 'report', report });
    expect(s.view.files.map((f) => f.path)).toEqual([bomPath, warnedPath, finePath]);
    const text = s.view.lines.map((l) => l.text);
    for (const line of text) expect(displayWidth(line)).toBeLessThanOrEqual(78);
    const block = (i: number) => text.slice(s.view.files[i]!.first, s.view.files[i]!.last + 1);
    expect(block(0)[0]).toBe('the BOM file pi refuses · 1 problem');
    expect(block(1)[0]).toBe('a warning-only session, and the largest file of the three · 1 problem');
    expect(block(2)[0]).toBe('A named session');
    // The path keeps its file name whole, cut in the middle.
    expect(block(1)[1]).toMatch(/^ {2}\/.*…\/2026-01-05T09-00-00-000Z_warned\.jsonl$/);
    // The advice is all there, continued under its label.
    const fix = block(1).findIndex((l) => l.startsWith('    what to do: '));
    expect(block(1)[fix + 1]).toMatch(/^ {16}\S/);
    expect(
      block(1)
        .slice(fix)
        .map((l) => l.trim())
        .join(' '),
    ).toBe('what to do: restore the folder, or delete the session if the project is gone');
    // Wider, the same report is laid out again and the selection stays.
    const wide = run(s, key('down'), { type: 'resize', height: 40, width: 400 });
    expect(wide.cursor).toBe(1);
    expect(wide.view.lines.map((l) => l.text)).toContain(`  ${warnedPath}`);
  });

  it('the advice for a file too big for pi points at slim', () => {
    const big = new SessionBuilder();
    big.user('big');
    big.assistant('x'.repeat(33 * 1024 * 1024));
    const file = checkFile(big.writeTo(join(tempDir(), 'big.jsonl')));
    expect(file.title).toBe('big');
    const slow = file.problems.find((p) => p.kind === 'slow-for-pi');
    expect(slow?.fix).toMatch(/^slim it \(pi-sessions slim, or Alt\+S in the list\)/);
  });
});
