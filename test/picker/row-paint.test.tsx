/**
 * A row painted as one string draws what ink drew of the row as nested spans: for any view, cursor
 * and mark state, at every colour level, ink's output of the one text node equals its output of
 * the spans the row used to be (the reference below), escape codes included.
 */
import chalk from 'chalk';
import fc from 'fast-check';
import { renderToString, Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowView } from '../../src/picker/layout.js';
import { paintRow } from '../../src/picker/row-paint.js';

/** The row as nested spans: what ink made of it before rows were painted. */
function SpansRow({ view, selected, marked }: { view: RowView; selected: boolean; marked: boolean }) {
  return (
    <Text wrap="truncate-end" bold={selected}>
      <Text color="cyan">{view.lead.slice(0, 1)}</Text>
      <Text color="magenta">{view.lead.slice(1)}</Text>
      <Text dimColor>{view.prefix}</Text>
      <Text color="green">{view.currentMark}</Text>
      <Text color="red">{view.conflictMark}</Text>
      <Text color="yellow">{view.nameMark}</Text>
      <Text color={marked ? 'magenta' : view.named ? 'yellow' : undefined}>{view.title}</Text>
      {view.snippet ? (
        <Text dimColor={!selected}>
          {' · '}
          <Text color="blue">{view.snippet.tag}</Text>
          {view.snippet.before}
          <Text inverse>{view.snippet.match}</Text>
          {view.snippet.after}
        </Text>
      ) : null}
      {view.gap}
      {view.live ? <Text color="green">{view.right}</Text> : <Text dimColor>{view.right}</Text>}
    </Text>
  );
}

function PaintedRow({ view, selected, marked }: { view: RowView; selected: boolean; marked: boolean }) {
  return (
    <Text wrap="truncate-end" bold={selected}>
      {paintRow(view, selected, marked)}
    </Text>
  );
}

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

const part = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('★ ', '⇄2 ', '[current] ', '请帮我', 'é'),
);
const view: fc.Arbitrary<RowView> = fc.record(
  {
    lead: fc.constantFrom('   ', '›  ', ' ● ', '›● '),
    prefix: fc.constantFrom('', '├─ ', '│  └─ '),
    currentMark: fc.constantFrom('', '[current] '),
    nameMark: fc.constantFrom('', '★ '),
    conflictMark: fc.constantFrom('', '⇄2 '),
    title: part,
    snippet: fc.option(fc.record({ tag: part, before: part, match: part, after: part }), { nil: undefined }),
    gap: fc.constantFrom('', ' ', '     '),
    right: fc.constantFrom('', '1mo', '12 msgs  1mo', 'live 3m'),
    live: fc.boolean(),
    named: fc.boolean(),
  },
  {
    requiredKeys: [
      'lead',
      'prefix',
      'currentMark',
      'nameMark',
      'conflictMark',
      'title',
      'gap',
      'right',
      'live',
      'named',
    ],
  },
);

describe('a painted row', () => {
  it('is what ink drew of the nested spans, at every colour level and width', () => {
    fc.assert(
      fc.property(
        view,
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
        fc.integer({ min: 8, max: 100 }),
        (v, selected, marked, colourLevel, columns) => {
          chalk.level = colourLevel;
          const spans = renderToString(<SpansRow view={v} selected={selected} marked={marked} />, { columns });
          const painted = renderToString(<PaintedRow view={v} selected={selected} marked={marked} />, { columns });
          expect(painted).toBe(spans);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('colours each part as the row always has (level 1)', () => {
    chalk.level = 1;
    const line = paintRow(
      {
        lead: '›● ',
        prefix: '├─ ',
        currentMark: '',
        nameMark: '★ ',
        conflictMark: '',
        title: 'Fix',
        snippet: { tag: '', before: 'a ', match: 'fix', after: ' b' },
        gap: ' ',
        right: '1mo',
        live: false,
        named: true,
      },
      false,
      false,
    );
    expect(line).toBe(
      '\u001b[36m›\u001b[39m\u001b[35m● \u001b[39m\u001b[2m├─ \u001b[22m\u001b[33m★ \u001b[39m\u001b[33mFix\u001b[39m' +
        '\u001b[2m · a \u001b[7mfix\u001b[27m b\u001b[22m \u001b[2m1mo\u001b[22m',
    );
  });
});
