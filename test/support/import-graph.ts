import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a source file: the specifier as written and, for a file of the repository, the file it names. */
export interface ImportEdge {
  specifier: string;
  /** Repository-relative path of the imported file; undefined for a package or a Node built-in. */
  target?: string;
}

/** The import graph of the repository's TypeScript sources: file (repository-relative, `/`-separated) → its imports. */
export type ImportGraph = Map<string, ImportEdge[]>;

const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '/index.ts'];

function listSources(root: string, dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) { if (entry.name !== 'node_modules') listSources(root, rel, out); } else if (/\.tsx?$/.test(entry.name)) out.push(rel);
  }
}

function resolveRelative(root: string, from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (/\.tsx?$/.test(base) && fs.existsSync(path.join(root, base))) return base;
  for (const ext of EXTENSIONS) if (fs.existsSync(path.join(root, base + ext))) return base + ext;
  return undefined;
}

/**
 * Reads every import of the `.ts` files under `dirs` (static imports and re-exports, type-only ones included,
 * `import()` and `require()` calls with a literal name) with the TypeScript scanner, as madge would.
 */
export function importGraph(root: string, dirs: string[]): ImportGraph {
  const files: string[] = [];
  for (const dir of dirs) listSources(root, dir, files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(root, file), 'utf8'), true, true);
    const edges = info.importedFiles.map(({ fileName: specifier }) => ({
      specifier,
      target: specifier.startsWith('.') ? resolveRelative(root, file, specifier) ?? `${specifier} (unresolved)` : undefined,
    }));
    graph.set(file, edges);
  }
  return graph;
}

/** Every import circle (strongly connected group of two or more files, or a file importing itself), each sorted. */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const next = (file: string) => (graph.get(file) ?? []).map((e) => e.target).filter((t): t is string => !!t && graph.has(t));

  const visit = (file: string) => {
    index.set(file, counter); low.set(file, counter); counter++;
    stack.push(file); onStack.add(file);
    for (const to of next(file)) {
      if (!index.has(to)) { visit(to); low.set(file, Math.min(low.get(file)!, low.get(to)!)); } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do { member = stack.pop()!; onStack.delete(member); group.push(member); } while (member !== file);
      if (group.length > 1 || next(file).includes(file)) circles.push(group.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** The imports of files under `from` that break `allowed` (a rule over the edge), as `file → specifier` lines. */
export function forbiddenImports(graph: ImportGraph, from: string, allowed: (edge: ImportEdge, file: string) => boolean): string[] {
  const found: string[] = [];
  for (const [file, edges] of graph) {
    if (!file.startsWith(from)) continue;
    for (const edge of edges) if (!allowed(edge, file)) found.push(`${file} → ${edge.target ?? edge.specifier}`);
  }
  return found;
}

/**
 * The rooms of a part of the house that import each other in a loop, as farm-studio draws them: `roomOf` names the
 * room of a file (a folder or a file; undefined: not in this part). A loop of rooms is what makes an arrow run back
 * up a floor. Each group lists the file imports that tie its rooms (`file → file`), sorted; none when the rooms stack.
 */
export function roomCircles(graph: ImportGraph, roomOf: (file: string) => string | undefined, ignored: readonly string[] = []): string[][] {
  const ties = new Map<string, Map<string, string[]>>();
  for (const [file, edges] of graph) {
    const from = roomOf(file);
    if (!from) continue;
    for (const edge of edges) {
      const to = edge.target && graph.has(edge.target) ? roomOf(edge.target) : undefined;
      const line = `${file} → ${edge.target}`;
      if (!to || to === from || ignored.includes(line)) continue;
      if (!ties.has(from)) ties.set(from, new Map());
      const out = ties.get(from)!;
      out.set(to, [...(out.get(to) ?? []), line]);
    }
  }
  const rooms = new Map<string, { target: string }[]>();
  for (const [from, out] of ties) rooms.set(from, [...out.keys()].map((to) => ({ specifier: to, target: to })));
  for (const out of ties.values()) for (const to of out.keys()) if (!rooms.has(to)) rooms.set(to, []);
  return importCircles(rooms as ImportGraph).map((group) =>
    group.flatMap((from) => group.flatMap((to) => ties.get(from)?.get(to) ?? [])).sort());
}

/** The room of a file inside `folder`: its first folder or file below `folder`. */
export const roomInside = (folder: string) => (file: string): string | undefined =>
  file.startsWith(`${folder}/`) ? `${folder}/${file.slice(folder.length + 1).split('/')[0]}` : undefined;
