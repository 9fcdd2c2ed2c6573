/**
 * The lines of a usage report that say which values the store left out as impossible
 * (src/store/implausible.ts), so figures without them are never silently smaller: a heading with
 * the count, then the first few entries as `path:line  field value: why` (path cut from the
 * middle, file name kept), then how many more. Pure; names pass through `sanitizeInline`.
 */
import { plural } from '../format.js';
import type { ExcludedValue } from '../store/index.js';
import { elidePathMiddle } from '../text/elide-path.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { type ChartLine, fitLine } from './chart.js';

/** Entries (file lines) listed before "… and N more". */
const ENTRIES_SHOWN = 5;

/** A number beyond a double (1e400 in the file) arrives as this text; its why says so, and a chart never prints Infinity or NaN. */
const NON_FINITE = new Set(['Infinity', '-Infinity', 'NaN']);

function valueText(value: ExcludedValue['value']): string {
  if (typeof value === 'number') return ` ${value}`;
  return NON_FINITE.has(value) ? '' : ` ${sanitizeInline(value)}`;
}

/** The values grouped by the entry (file and line) holding them, in report order. */
function byEntry(excluded: readonly ExcludedValue[]): ExcludedValue[][] {
  const groups: ExcludedValue[][] = [];
  for (const value of excluded) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.path === value.path && last[0]!.line === value.line) last.push(value);
    else groups.push([value]);
  }
  return groups;
}

/** The section, blank line after it included; none when nothing was left out. */
export function excludedLines(excluded: readonly ExcludedValue[], columns: number): ChartLine[] {
  if (excluded.length === 0) return [];
  const lines: ChartLine[] = [
    fitLine(
      [
        {
          text: `${plural(excluded.length, 'value')} left out: ${excluded.length === 1 ? 'it cannot' : 'they cannot'} be real (\`pi-sessions check\` lists each)`,
          style: 'heading',
        },
      ],
      columns,
    ),
  ];
  const pathRoom = Math.max(16, Math.floor(columns / 2));
  const groups = byEntry(excluded);
  for (const group of groups.slice(0, ENTRIES_SHOWN)) {
    const first = group[0]!;
    const where = `${elidePathMiddle(sanitizeInline(first.path), pathRoom)}:${first.line}`;
    const more = group.length > 1 ? ` and ${group.length - 1} more` : '';
    lines.push(
      fitLine(
        [
          {
            text: `  ${where}  ${sanitizeInline(first.field)}${valueText(first.value)}${more}: ${first.why}`,
            style: 'dim',
          },
        ],
        columns,
      ),
    );
  }
  const rest = groups.slice(ENTRIES_SHOWN);
  if (rest.length > 0) {
    const values = rest.reduce((n, g) => n + g.length, 0);
    lines.push(
      fitLine([{ text: `  … and ${values} more on ${plural(rest.length, 'other line')}`, style: 'dim' }], columns),
    );
  }
  return [...lines, []];
}
