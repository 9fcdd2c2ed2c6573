/**
 * Branch-aware full-text search on the 10,000-session store, `--only hits`:
 *
 *   in process  a search keystroke over the warm catalogue's sessions (text prepared), alone and
 *               with the branch tagging the screen adds (the drawn rows' hits counted by place,
 *               and `in:abandoned`): tagging must add ≤ 20 %.
 *   real pty    the bundle on a warm catalogue: the first full-text result (a row tagged with
 *               its hits' places) after the word is typed, right after the first rows and once
 *               the picker has settled (target ≤ 100 ms); the following keystrokes (≤ 40 ms).
 *   memory      peak RSS (VmHWM) of the whole program after listing all 10,000 sessions and one
 *               full-text search, cold and warm, next to pi 1.6.0's own picker (`pi --resume`,
 *               Tab to All, the same search) on a hard-linked copy of the same store. pi's TUI
 *               needs Node 22, which pi-tui.ts installs into the bench's cache on first use.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { catalogueDir, listSessionsCached } from '../../catalog/index.js';
import { createSearchIndex, parseQuery, prepareTexts, searchSessions } from '../../picker/query.js';
import { initialPickerState, pickerReducer } from '../../picker/reducer.js';
import { tagHits } from '../../picker/text-hit-places.js';
import { resolveLocations, type SessionInfo } from '../../store/index.js';
import { PI_CLI, piNode } from './pi-tui.js';
import { APP_BUNDLE, appEnv, cursorLine, PtyApp, type Screen } from './pty-app.js';

export interface HitBenchContext {
  store10k: string;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

/** A word of the generated replies only (no session name has it), so every match is a full-text hit. */
const QUERY = 'reproduce';
/** Keys typed after the word (then as many backspaces): the "following keystrokes". */
const MORE = ' it';
/** Rows the screen tags per keystroke (a tall terminal's list). */
const DRAWN_ROWS = 40;
const TAGGED_ROW = / · \d+ (active|abandoned|compacted)/;

/** Peak and current RSS of a running process, from /proc. */
function memoryOf(pid: number): { peakBytes: number; rssBytes: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { peakBytes: kb('VmHWM'), rssBytes: kb('VmRSS') };
}

const queryLine = (s: Screen, text: string): boolean =>
  s.lines.some((line) => line.trimEnd() === `> ${text}`.trimEnd());
const hasTaggedRow = (s: Screen): boolean => s.lines.some((line) => TAGGED_ROW.test(line));

/** In process: keystrokes of QUERY over a fresh index each round, plain vs with the tagging. */
function inProcess(sessions: readonly SessionInfo[], ctx: HitBenchContext): Record<string, unknown> {
  const { rounds, median } = ctx;
  while (prepareTexts(sessions, 1000) > 0);
  const plain: number[] = [];
  const tagged: number[] = [];
  const abandoned: number[] = [];
  let matches = 0;
  let abandonedMatches = 0;
  const keystrokes = (tag: boolean, suffix = ''): number => {
    const index = createSearchIndex(sessions);
    // CPU time, not wall time: on a shared machine other processes' load would decide the ratio.
    const cpu0 = process.cpuUsage();
    for (let i = 1; i <= QUERY.length; i++) {
      const query = parseQuery(QUERY.slice(0, i) + suffix, 0);
      const found = searchSessions(index, query).matches;
      if (suffix === '') matches = found.length;
      else abandonedMatches = found.length;
      if (tag) for (const match of found.slice(0, DRAWN_ROWS)) tagHits(match.info, query);
    }
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / 1000 / QUERY.length;
  };
  // One round unmeasured: the first pass compiles the code and fills the lazily made text.
  keystrokes(true);
  keystrokes(true, ' in:abandoned');
  for (let round = 0; round < rounds; round++) {
    plain.push(keystrokes(false));
    tagged.push(keystrokes(true));
    abandoned.push(keystrokes(true, ' in:abandoned'));
  }
  // The whole keystroke of the picker (search, threaded sort, rows), as wall and CPU time: the
  // CPU time says what the code costs when the shared machine is busy with other work.
  const reducerWall: number[] = [];
  const reducerCpu: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    let state = initialPickerState({
      printMode: false,
      scope: 'all',
      columns: 120,
      rows: 40,
      preparedOnly: true,
      nowMs: 0,
    });
    state = pickerReducer(state, {
      type: 'loadDone',
      scope: 'all',
      searched: '/',
      skipped: 0,
      sessions: [...sessions],
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    state = pickerReducer(state, { type: 'key', nowMs: 0, name: undefined, text: QUERY, paste: false });
    const cpu = process.cpuUsage(cpu0);
    if (round === 0) continue;
    reducerWall.push(performance.now() - t0);
    reducerCpu.push((cpu.user + cpu.system) / 1000);
  }
  const branched = sessions.filter((s) => s.textPlaces.length > 0).length;
  return {
    sessions: sessions.length,
    sessionsWithInactiveText: branched,
    matches,
    abandonedMatches,
    /** CPU time per keystroke. */
    keystrokeMs: { plain: median(plain), tagged: median(tagged), inAbandoned: median(abandoned) },
    pickerFirstKeystroke: {
      wallMs: median(reducerWall),
      cpuMs: median(reducerCpu),
      what: `the picker reducer: "${QUERY}" typed on the settled list (search, threaded sort, rows)`,
    },
    taggingOverhead: median(tagged) / median(plain) - 1,
    inAbandonedOverhead: median(abandoned) / median(plain) - 1,
    target: 'tagging adds ≤ 20 %',
  };
}

/** Types QUERY in one burst once `ready`, then MORE and back a key at a time: key → frame figures. */
async function ptySearch(
  env: NodeJS.ProcessEnv,
  settle: boolean,
): Promise<{ firstResultMs: number; following: number[]; memory: ReturnType<typeof memoryOf> }> {
  const app = await PtyApp.spawn([APP_BUNDLE, '--all'], env);
  try {
    await app.waitFor((s) => cursorLine(s) !== -1, undefined, 'first rows');
    if (settle) await app.quiet(1500);
    const firstResultMs = await app.press(
      QUERY,
      (s) => queryLine(s, QUERY) && hasTaggedRow(s),
      `a tagged row for "${QUERY}"`,
    );
    const following: number[] = [];
    for (let i = 1; i <= MORE.length; i++) {
      await app.quiet(150);
      const text = QUERY + MORE.slice(0, i);
      following.push(await app.press(MORE[i - 1]!, (s) => queryLine(s, text), `search "${text}"`));
    }
    for (let i = MORE.length - 1; i >= 0; i--) {
      await app.quiet(150);
      const text = QUERY + MORE.slice(0, i);
      following.push(await app.press('\u007f', (s) => queryLine(s, text) && hasTaggedRow(s), `search "${text}"`));
    }
    await app.quiet(1000);
    return { firstResultMs, following, memory: memoryOf(app.pid) };
  } finally {
    app.kill();
  }
}

/** pi 1.6.0's picker on the same store: All scope loaded, the same search, then its peak RSS. */
async function piPicker(store: string, node: string): Promise<ReturnType<typeof memoryOf>> {
  const work = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-pi-'));
  try {
    mkdirSync(join(work, 'agent'));
    mkdirSync(join(work, 'home'));
    // Hard links: pi sees the same files, and nothing it might write reaches the cached store.
    execFileSync('cp', ['-al', store, join(work, 'agent', 'sessions')]);
    const app = await PtyApp.spawn(
      [PI_CLI, '--resume'],
      appEnv(join(work, 'agent'), join(work, 'cache'), join(work, 'home')),
      node,
    );
    try {
      await app.waitFor((s) => s.text.includes('Resume Session'), undefined, "pi's picker");
      await app.press('\t', (s) => s.text.includes('Resume Session (All)'), "pi's All scope");
      // pi loads the 10,000 files in the background (`Loading n/N` in its header): minutes on a busy machine.
      await app.waitFor(
        (s) => !/Loading \d+\/\d+/.test(s.text) && /^› /m.test(s.text),
        undefined,
        "pi's All scope, loaded",
        true,
        300_000,
      );
      await app.press(QUERY, (s) => queryLine(s, QUERY), `pi searching "${QUERY}"`);
      await app.quiet(1000);
      return memoryOf(app.pid);
    } finally {
      app.kill();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const signed = (ratio: number): string => `${ratio >= 0 ? '+' : '−'}${Math.abs(ratio * 100).toFixed(0)} %`;

export async function hitBenches(ctx: HitBenchContext): Promise<Record<string, unknown>> {
  const { store10k, log, median, fmt } = ctx;
  const agentDir = dirname(store10k);
  const warm = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cache-'));
  try {
    const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
    const built = await listSessionsCached(locations, {
      scope: 'all',
      cacheDir: catalogueDir({ XDG_CACHE_HOME: warm }),
    });
    await built.saved;
    const loaded = await listSessionsCached(locations, {
      scope: 'all',
      cacheDir: catalogueDir({ XDG_CACHE_HOME: warm }),
    });
    const search = inProcess(loaded.sessions, ctx);
    const ks = search['keystrokeMs'] as { plain: number; tagged: number; inAbandoned: number };
    log(
      `\nbranch-aware search, 10,000 sessions (${search['sessionsWithInactiveText']} with abandoned or compacted text):`,
    );
    const first = search['pickerFirstKeystroke'] as { wallMs: number; cpuMs: number };
    log(`  picker reducer, "${QUERY}" typed on the settled list: ${fmt(first.wallMs)} (${fmt(first.cpuMs)} of CPU)`);
    log(
      `  search keystroke, CPU time (in process, "${QUERY}" typed, ${search['matches']} matches): ${fmt(ks.plain)} plain, ${fmt(ks.tagged)} with ${DRAWN_ROWS} rows tagged (${signed(search['taggingOverhead'] as number)}, target ≤ +20 %), ${fmt(ks.inAbandoned)} with in:abandoned (${search['abandonedMatches']} matches)`,
    );

    const settled = await ptySearch(appEnv(agentDir, warm), true);
    const early = await ptySearch(appEnv(agentDir, warm), false);
    const coldHome = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cold-'));
    let cold: Awaited<ReturnType<typeof ptySearch>>;
    try {
      cold = await ptySearch(appEnv(agentDir, coldHome), true);
    } finally {
      rmSync(coldHome, { recursive: true, force: true });
    }
    const node = piNode(log);
    const pi = 'skip' in node ? undefined : await piPicker(store10k, node.node);
    const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;
    log(
      `  first tagged full-text result (pty, warm catalogue): ${fmt(settled.firstResultMs)} once settled, ${fmt(early.firstResultMs)} typed right after the first rows (target ≤ 100 ms)`,
    );
    log(
      `  following keystrokes (pty, "${MORE}" and back): median ${fmt(median(settled.following))}, max ${fmt(Math.max(...settled.following))} (target ≤ 40 ms)`,
    );
    log(
      `  peak RSS after listing and searching: ours warm ${mb(settled.memory.peakBytes)}, cold ${mb(cold.memory.peakBytes)}; pi 1.6.0's picker ${pi ? mb(pi.peakBytes) : `not measured (${'skip' in node ? node.skip : ''})`}`,
    );
    return {
      hits: {
        inProcess: search,
        pty: {
          firstResultSettledMs: settled.firstResultMs,
          firstResultAfterFirstRowsMs: early.firstResultMs,
          followingKeystrokes: {
            medianMs: median(settled.following),
            maxMs: Math.max(...settled.following),
            samples: settled.following,
          },
          targets: 'first result ≤ 100 ms; following ≤ 40 ms',
        },
        memory: {
          oursWarm: settled.memory,
          oursCold: cold.memory,
          piPicker: pi ?? null,
          target: "≤ pi 1.6.0's picker",
        },
      },
    };
  } finally {
    rmSync(warm, { recursive: true, force: true });
  }
}
