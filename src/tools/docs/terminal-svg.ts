/**
 * A terminal screen as SVG (pure): each cell of an xterm buffer (its character, colours, bold,
 * dim, italic, underline, inverse) drawn on a dark background in a monospace font. Every glyph is
 * placed at its own cell's x, so box drawing lines up and a wide (CJK) character takes its two
 * cells whatever the font's own advance is. Used by the README's screenshots (screenshots.ts).
 */

/** What the renderer needs of one cell of @xterm/headless's buffer (IBufferCell). */
export interface Cell {
  getChars(): string;
  getWidth(): number;
  isFgDefault(): boolean;
  isFgPalette(): boolean;
  isFgRGB(): boolean;
  getFgColor(): number;
  isBgDefault(): boolean;
  isBgPalette(): boolean;
  isBgRGB(): boolean;
  getBgColor(): number;
  isBold(): number;
  isDim(): number;
  isItalic(): number;
  isUnderline(): number;
  isInverse(): number;
  isInvisible(): number;
}

/** A screen: `rows` lines of `cols` cells. */
export interface Screen {
  cols: number;
  rows: number;
  cell(x: number, y: number): Cell | undefined;
}

const CELL_WIDTH = 8.4;
const CELL_HEIGHT = 18;
const FONT_SIZE = 14;
const PADDING = 12;
const BACKGROUND = '#1e1e2e';
const FOREGROUND = '#cdd6f4';
/** The 16 ANSI colours (normal, then bright) of a dark theme. */
const ANSI = [
  '#45475a',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#bac2de',
  '#585b70',
  '#f38ba8',
  '#a6e3a1',
  '#f9e2af',
  '#89b4fa',
  '#f5c2e7',
  '#94e2d5',
  '#a6adc8',
];
const FONTS = "ui-monospace, 'SFMono-Regular', 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

const hex = (n: number): string => `#${n.toString(16).padStart(6, '0')}`;

/** xterm's 256-colour palette: the 16 above, the 6×6×6 cube, then 24 greys. */
function palette(index: number): string {
  if (index < 16) return ANSI[index]!;
  if (index < 232) {
    const i = index - 16;
    const level = (v: number): number => (v === 0 ? 0 : 55 + v * 40);
    return hex((level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6));
  }
  const grey = 8 + (index - 232) * 10;
  return hex((grey << 16) | (grey << 8) | grey);
}

function colour(cell: Cell, which: 'fg' | 'bg'): string | undefined {
  if (which === 'fg') {
    if (cell.isFgRGB()) return hex(cell.getFgColor());
    if (cell.isFgPalette()) return palette(cell.getFgColor());
    return undefined;
  }
  if (cell.isBgRGB()) return hex(cell.getBgColor());
  if (cell.isBgPalette()) return palette(cell.getBgColor());
  return undefined;
}

interface Style {
  fg: string;
  bg: string | undefined;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

function styleOf(cell: Cell): Style {
  let fg = colour(cell, 'fg') ?? FOREGROUND;
  let bg = colour(cell, 'bg');
  if (cell.isInverse()) [fg, bg] = [bg ?? BACKGROUND, fg];
  return {
    fg,
    bg,
    bold: cell.isBold() !== 0,
    dim: cell.isDim() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
  };
}

const sameText = (a: Style, b: Style): boolean =>
  a.fg === b.fg && a.bold === b.bold && a.dim === b.dim && a.italic === b.italic && a.underline === b.underline;

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const num = (n: number): string => String(Math.round(n * 100) / 100);

/** The screen as an SVG document; `title` is its accessible name. */
export function screenToSvg(screen: Screen, title: string): string {
  const width = screen.cols * CELL_WIDTH + 2 * PADDING;
  const height = screen.rows * CELL_HEIGHT + 2 * PADDING;
  const backgrounds: string[] = [];
  const texts: string[] = [];
  for (let y = 0; y < screen.rows; y++) {
    const top = PADDING + y * CELL_HEIGHT;
    const baseline = top + CELL_HEIGHT * 0.75;
    // Runs of cells with the same text style: one <text> each, every glyph at its own x.
    let run: { style: Style; xs: number[]; chars: string[] } | undefined;
    const flush = (): void => {
      if (run === undefined || run.chars.every((c) => c === ' ')) {
        run = undefined;
        return;
      }
      const { style } = run;
      const attributes = [
        `x="${run.xs.map(num).join(' ')}"`,
        `y="${num(baseline)}"`,
        `fill="${style.fg}"`,
        ...(style.bold ? ['font-weight="bold"'] : []),
        ...(style.dim ? ['opacity="0.6"'] : []),
        ...(style.italic ? ['font-style="italic"'] : []),
        ...(style.underline ? ['text-decoration="underline"'] : []),
      ];
      texts.push(`<text ${attributes.join(' ')}>${escapeXml(run.chars.join(''))}</text>`);
      run = undefined;
    };
    for (let x = 0; x < screen.cols; x++) {
      const cell = screen.cell(x, y);
      if (cell === undefined) continue;
      const cellWidth = cell.getWidth();
      // The second cell of a wide character: drawn by the first.
      if (cellWidth === 0) continue;
      const style = styleOf(cell);
      const left = PADDING + x * CELL_WIDTH;
      if (style.bg !== undefined)
        backgrounds.push(
          `<rect x="${num(left)}" y="${num(top)}" width="${num(CELL_WIDTH * cellWidth)}" height="${CELL_HEIGHT}" fill="${style.bg}"/>`,
        );
      const chars = cell.isInvisible() ? ' ' : cell.getChars() || ' ';
      if (run !== undefined && !sameText(run.style, style)) flush();
      run ??= { style, xs: [], chars: [] };
      // Each character of the cell (a base and its combining marks) at the cell's x.
      for (const ch of [...chars]) {
        run.xs.push(left);
        run.chars.push(ch);
      }
    }
    flush();
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" rx="8" fill="${BACKGROUND}"/>`,
    `<g font-family="${escapeXml(FONTS)}" font-size="${FONT_SIZE}" xml:space="preserve">`,
    ...backgrounds,
    ...texts,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
