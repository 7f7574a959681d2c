import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

function listSources(root: string, dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) listSources(root, rel, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The exported functions of a file, with their names: function declarations, exported consts holding a function, and the constructors and public methods of exported classes. */
function exportedFunctions(sf: ts.SourceFile): Array<{ name: string; fn: ts.SignatureDeclaration }> {
  const out: Array<{ name: string; fn: ts.SignatureDeclaration }> = [];
  for (const stmt of sf.statements) {
    if (!isExported(stmt)) continue;
    if (ts.isFunctionDeclaration(stmt)) out.push({ name: stmt.name?.text ?? 'default', fn: stmt });
    else if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) {
        if (d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))) out.push({ name: d.name.getText(sf), fn: d.initializer });
      }
    } else if (ts.isClassDeclaration(stmt)) {
      for (const m of stmt.members) {
        const isPrivate = (ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword)) || (m.name && ts.isPrivateIdentifier(m.name));
        if (isPrivate) continue;
        if (ts.isConstructorDeclaration(m)) out.push({ name: `${stmt.name?.text}.constructor`, fn: m });
        else if (ts.isMethodDeclaration(m)) out.push({ name: `${stmt.name?.text}.${m.name.getText(sf)}`, fn: m });
      }
    }
  }
  return out;
}

/**
 * The exported functions under `dir` (e.g. shared/app) with a parameter whose type holds every member of the `Deps`
 * interface of `depsFile`, as the type checker sees it — `Deps` itself, an alias of it, `Readonly<Deps>`, an
 * intersection with it, a type parameter constrained by it — as `file:line name(param)`. A use case that declares
 * what it uses (`Pick<Deps, …>`, a named Pick, an intersection of them) is not listed.
 */
export function wholeDepsParameters(root: string, dir: string, depsFile: string): string[] {
  const files: string[] = [];
  listSources(root, dir, files);
  const program = ts.createProgram(files.map((f) => path.join(root, f)), {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true, skipLibCheck: true, noEmit: true, types: [], resolveJsonModule: true, esModuleInterop: true,
  });
  const checker = program.getTypeChecker();
  const depsSource = program.getSourceFile(path.join(root, depsFile));
  const depsSymbol = depsSource && checker.getSymbolAtLocation(depsSource) && checker.getExportsOfModule(checker.getSymbolAtLocation(depsSource)!).find((s) => s.name === 'Deps');
  if (!depsSymbol) throw new Error(`${depsFile} exports no Deps`);
  const members = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(depsSymbol)).map((p) => p.name);
  if (members.length < 2) throw new Error(`Deps of ${depsFile} has ${members.length} members: the check would prove nothing`);

  const found: string[] = [];
  for (const file of files) {
    if (file === depsFile) continue;
    const sf = program.getSourceFile(path.join(root, file))!;
    for (const { name, fn } of exportedFunctions(sf)) {
      for (const p of fn.parameters) {
        const type = checker.getApparentType(checker.getTypeAtLocation(p));
        const has = new Set(checker.getPropertiesOfType(type).map((s) => s.name));
        if (members.every((m) => has.has(m))) {
          found.push(`${file}:${sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line + 1} ${name}(${p.name.getText(sf)})`);
        }
      }
    }
  }
  return found;
}
