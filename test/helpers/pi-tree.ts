/**
 * pi 1.6.0's real /tree component (TreeSelectorComponent), rendered without a terminal, as the
 * oracle for how the tree is drawn: the list rows of a session file, ANSI stripped, after feeding
 * it keys. Imported by path like the session manager (see pi.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './corpus.js';
import { stripAnsi } from './ink.js';
import { openWithPi } from './pi.js';

/** pi's filter modes, as its `treeFilterMode` setting names them. */
export type PiFilterMode = 'default' | 'no-tools' | 'user-only' | 'labeled-only' | 'all';

/** pi's list behind the component (private in pi's .d.ts): the rows a filter shows and the cursor. */
export interface PiTreeList {
  filteredNodes: { node: { entry: Record<string, unknown> & { id: string } } }[];
  selectedIndex: number;
}

interface PiTreeSelector {
  render(width: number): string[];
  handleInput(data: string): void;
  getTreeList(): PiTreeList;
}

interface PiTreeModule {
  TreeSelectorComponent: new (
    tree: unknown,
    leafId: string | null,
    terminalHeight: number,
    onSelect: () => void,
    onCancel: () => void,
    onLabelChange?: undefined,
    initialSelectedId?: undefined,
    initialFilterMode?: PiFilterMode,
  ) => PiTreeSelector;
}

const DIST = join(REPO_ROOT, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist');
let loaded: Promise<PiTreeModule> | undefined;

export async function piTreeModule(): Promise<PiTreeModule> {
  loaded ??= (async () => {
    const theme = (await import(pathToFileURL(join(DIST, 'modes', 'interactive', 'theme', 'theme.js')).href)) as {
      initTheme(name: string, watch: boolean): void;
    };
    theme.initTheme('dark', false);
    return (await import(
      pathToFileURL(join(DIST, 'modes', 'interactive', 'components', 'tree-selector.js')).href
    )) as PiTreeModule;
  })();
  return loaded;
}

/**
 * The list rows pi draws for `path` at `width` columns after `keys` (terminal input sequences),
 * trailing spaces trimmed: the lines between the header's blank line and the `(i/N)` counter.
 * `terminalHeight` sets pi's list height (half of it).
 */
export async function piTreeRows(
  path: string,
  width: number,
  keys: readonly string[] = [],
  terminalHeight = 80,
): Promise<string[]> {
  const { TreeSelectorComponent } = await piTreeModule();
  const { manager } = await openWithPi(path);
  const selector = new TreeSelectorComponent(
    manager.getTree(),
    manager.getLeafId(),
    terminalHeight,
    () => {},
    () => {},
  );
  for (const key of keys) selector.handleInput(key);
  const lines = selector.render(width).map((line) => stripAnsi(line).trimEnd());
  const counter = lines.findIndex((line) => /^ {2}\(\d+\/\d+\)/.test(line));
  const start = lines.indexOf(
    '',
    lines.findIndex((line) => line.includes('Type to search')),
  );
  return lines.slice(start + 1, counter);
}
