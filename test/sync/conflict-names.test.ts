/**
 * Conflict copies told from their names as Syncthing, Dropbox, Nextcloud and other tools write
 * them, near misses that are sessions of their own, and the temp files of a sync in progress.
 */
import { describe, expect, it } from 'vitest';
import { confirmGroups, conflictGroups, isSyncTempName, parseConflictName } from '../../src/store/index.js';

const SESSION = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';

describe('parseConflictName', () => {
  it("reads Syncthing's name: the original, the device and the local time", () => {
    expect(parseConflictName(`${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'syncthing',
      device: '7QKMJ3X',
      time: '2026-01-05T14:30:12',
    });
  });

  it("reads Dropbox's names, with and without who and when", () => {
    expect(parseConflictName(`${SESSION} (conflicted copy).jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'dropbox',
    });
    expect(parseConflictName(`${SESSION} (Ana's MacBook Pro's conflicted copy 2026-01-05).jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'dropbox',
      device: "Ana's MacBook Pro",
      time: '2026-01-05',
    });
    // Nextcloud and ownCloud: a date and a time, no device.
    expect(parseConflictName(`${SESSION} (conflicted copy 2026-01-05 143012).jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'dropbox',
      time: '2026-01-05T14:30:12',
    });
  });

  it('reads <name>.conflict-… with a time when its tail holds one', () => {
    expect(parseConflictName(`${SESSION}.conflict-laptop.jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'other',
    });
    expect(parseConflictName(`${SESSION}.conflict-20260105-143012.jsonl`)).toEqual({
      original: `${SESSION}.jsonl`,
      tool: 'other',
      time: '2026-01-05T14:30:12',
    });
  });

  it('leaves near misses alone: they are sessions of their own', () => {
    for (const name of [
      `${SESSION}.jsonl`,
      `${SESSION}.sync-conflict-2026015-143012-7QKMJ3X.jsonl`, // 7-digit date
      `${SESSION}.sync-conflict-20261305-143012-7QKMJ3X.jsonl`, // month 13
      `${SESSION}.sync-conflict-20260105-143012-7qkmj3x.jsonl`, // device ids are upper case
      `${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.json`,
      `${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.jsonl.tmp`,
      `.syncthing.${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.jsonl.tmp`,
      `${SESSION} (conflicted copy`,
      `${SESSION} (copy).jsonl`,
      `${SESSION} (conflicted copy 2026-13-40).jsonl`,
      `${SESSION}-conflict.jsonl`,
      'my conflict-notes.jsonl',
    ])
      expect(parseConflictName(name), name).toBeUndefined();
  });
});

describe('isSyncTempName', () => {
  it('knows the temp files of a sync in progress', () => {
    for (const name of [
      `.syncthing.${SESSION}.jsonl.tmp`,
      `~syncthing~${SESSION}.jsonl.tmp`,
      `~syncthing~${SESSION}.jsonl`,
      `${SESSION}.jsonl.partial`,
      `${SESSION}.jsonl.part`,
      `.${SESSION}.jsonl.4242.a1b2c3.tmp`,
      `.~${SESSION}.jsonl`,
    ])
      expect(isSyncTempName(name), name).toBe(true);
  });

  it('leaves sessions and conflict copies alone', () => {
    for (const name of [
      `${SESSION}.jsonl`,
      `${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.jsonl`,
      `${SESSION} (conflicted copy).jsonl`,
      '.hidden-session.jsonl',
      'notes~syncthing~.jsonl',
    ])
      expect(isSyncTempName(name), name).toBe(false);
  });
});

describe('conflictGroups and confirmGroups', () => {
  const dir = '/home/ana/.pi/agent/sessions/--home-ana-app--';
  const original = `${dir}/${SESSION}.jsonl`;
  const syncthing = `${dir}/${SESSION}.sync-conflict-20260105-143012-7QKMJ3X.jsonl`;
  const dropbox = `${dir}/${SESSION} (conflicted copy).jsonl`;
  const orphan = `${dir}/2026-01-06T10-00-00-000Z_other.sync-conflict-20260106-100000-ABCDEFG.jsonl`;
  const unrelated = `${dir}/2026-01-07T10-00-00-000Z_third.jsonl`;

  it('groups each copy under its original; a copy whose original is gone is left alone', () => {
    expect(conflictGroups([unrelated, syncthing, original, orphan, dropbox])).toEqual([
      {
        original,
        copies: [
          { path: dropbox, tool: 'dropbox' },
          { path: syncthing, tool: 'syncthing', device: '7QKMJ3X', time: '2026-01-05T14:30:12' },
        ],
      },
    ]);
    // The same name in another folder is another session's.
    expect(conflictGroups([`/elsewhere/${SESSION}.jsonl`, syncthing])).toEqual([]);
  });

  it('keeps only the copies that hold the same session id', () => {
    const ids = new Map([
      [original, 'id-1'],
      [syncthing, 'id-1'],
      [dropbox, 'id-2'],
    ]);
    const groups = conflictGroups([original, syncthing, dropbox]);
    expect(confirmGroups(groups, (p) => ids.get(p))).toEqual([
      { original, copies: [{ path: syncthing, tool: 'syncthing', device: '7QKMJ3X', time: '2026-01-05T14:30:12' }] },
    ]);
    ids.set(syncthing, 'id-3');
    expect(confirmGroups(groups, (p) => ids.get(p))).toEqual([]);
    // An original that is not a session: nothing to merge with.
    expect(confirmGroups(groups, (p) => (p === original ? undefined : 'id-1'))).toEqual([]);
  });
});
