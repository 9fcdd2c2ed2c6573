/**
 * pi's abbreviation matching (pi-tui `fuzzyMatch`, which pi 1.6's `/resume` uses as its last
 * search tier): every query character appears in order, the first occurrence of each taken
 * greedily, and every contiguous occurrence is scored too so the best alignment wins. Lower is
 * better; scores may be negative (bonuses). `sqlite idx` finds "spike: sqlite index" through
 * this, `rfctr` finds "refactor": fuse.js (our typo tier) scores such abbreviations too low.
 *
 * Both arguments are already lower-cased; `undefined` means no match.
 */
const WORD_BOUNDARY = /[\s\-_./:]/;

function scorePositions(text: string, positions: readonly number[]): number {
  let score = 0;
  let last = -1;
  let run = 0;
  for (const i of positions) {
    if (last === i - 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (last >= 0) score += (i - last - 1) * 2;
    }
    if (i === 0 || WORD_BOUNDARY.test(text[i - 1]!)) score -= 10;
    score += i * 0.1;
    last = i;
  }
  return score;
}

function matchInOrder(query: string, text: string): number | undefined {
  if (query.length === 0) return 0;
  if (query.length > text.length) return undefined;
  const positions: number[] = [];
  let last = -1;
  for (const ch of query) {
    const i = text.indexOf(ch, last + 1);
    if (i < 0) return undefined;
    positions.push(i);
    last = i;
  }
  let score = scorePositions(text, positions);
  for (let start = text.indexOf(query); start !== -1; start = text.indexOf(query, start + 1)) {
    score = Math.min(
      score,
      scorePositions(
        text,
        positions.map((_, k) => start + k),
      ),
    );
  }
  if (query === text) score -= 100;
  return score;
}

export function subsequenceScore(query: string, text: string): number | undefined {
  const direct = matchInOrder(query, text);
  if (direct !== undefined) return direct;
  // pi also tries letters+digits the other way round (`abc12` ↔ `12abc`), slightly penalised.
  const swapped = /^([a-z]+)([0-9]+)$/.exec(query) ?? /^([0-9]+)([a-z]+)$/.exec(query);
  if (!swapped) return undefined;
  const other = matchInOrder(`${swapped[2]}${swapped[1]}`, text);
  return other === undefined ? undefined : other + 5;
}
