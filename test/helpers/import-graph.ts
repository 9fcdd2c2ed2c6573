/**
 * The project's own import graph and the cycles in it. Edges come from TypeScript's
 * `preProcessFile`, which lists `import`, `import type`, `export … from` and `import()` alike, so
 * a cycle held together by types alone is still a cycle: it still means neither module can be
 * read, moved or tested without the other.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Module → the project modules it imports, every path relative to the root, `/`-separated. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function sourceFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The file a relative specifier names, as NodeNext resolves it from source: `./x.js` is `./x.ts`
 * or `./x.tsx`. Bare specifiers (packages, `node:` modules) are outside the graph: undefined.
 */
export function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(fromFile), specifier);
  const stem = target.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, target, join(target, 'index.ts')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The import graph of every `.ts`/`.tsx` file under `dirs` (relative to `root`). */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  const name = (file: string): string => relative(root, file).split('\\').join('/');
  for (const file of dirs.flatMap((dir) => sourceFilesUnder(join(root, dir)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target !== undefined) targets.add(name(target));
    }
    graph.set(name(file), [...targets].sort());
  }
  return graph;
}

/**
 * Strongly connected components (Tarjan) that hold a cycle: two or more modules, or one that
 * imports itself.
 */
export function cyclicComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (;;) {
      const member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Every elementary cycle, each as `a → b → … → a` starting at its alphabetically first module, so
 * the same cycle always reads the same. Enumeration stops after `limit` cycles: a tangle that big
 * is reported by its size, not spelt out.
 */
export function importCycles(graph: ImportGraph, limit = 200): string[] {
  const cycles = new Set<string>();
  for (const component of cyclicComponents(graph)) {
    const members = new Set(component);
    // Each cycle is found from its smallest module only, walking modules greater than it.
    for (const start of component) {
      const path: string[] = [start];
      const onPath = new Set(path);
      const walk = (node: string): void => {
        for (const target of graph.get(node) ?? []) {
          if (cycles.size >= limit) return;
          if (!members.has(target) || target < start) continue;
          if (target === start) {
            cycles.add([...path, start].join(' → '));
          } else if (!onPath.has(target)) {
            path.push(target);
            onPath.add(target);
            walk(target);
            path.pop();
            onPath.delete(target);
          }
        }
      };
      walk(start);
    }
  }
  return [...cycles].sort();
}
