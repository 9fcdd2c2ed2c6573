/** A stats report the stats screen's tests share. */
import { type LoadedSession, type StatsReport, statsOf } from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { SessionBuilder } from '../helpers/factory.js';

/** Twelve sessions on twelve days, in four projects, each with an abandoned branch. */
export function report(): StatsReport {
  const sessions: LoadedSession[] = [];
  for (let i = 0; i < 12; i++) {
    const b = new SessionBuilder({
      id: `0000000${i.toString(16)}-0000-7000-8000-000000000000`,
      cwd: `/home/dev/project-${i % 4}`,
      startMs: new Date(2026, 0, 1 + i, 9).getTime(),
    });
    const root = b.user(`task ${i}`);
    b.assistant('try', { tokens: 100 * (i + 1), cost: 0.1 * (i + 1) });
    b.leaf = root;
    b.assistant('again', { tokens: 50, cost: 0.05 });
    const read = readSessionFromBuffer(`/s/${i}.jsonl`, Buffer.from(b.text()));
    if (!read.ok) throw new Error(read.message);
    sessions.push(read);
  }
  return statsOf(sessions, {}, '/s');
}
