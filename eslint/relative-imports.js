import path from 'node:path';

/** The repo-relative path (forward slashes) of the file ESLint is linting. */
export const lintedFile = (context) => path.relative(context.cwd, context.filename).split(path.sep).join('/');

const typeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/**
 * The visitors of an import-boundary rule: `onImport` hears of every relative import, re-export and dynamic import
 * of the linted file with its target resolved against the file (so `../x` is judged by where it leads however it is
 * spelled) as a repo-relative path, and whether only types are imported.
 */
export function relativeImports(context, onImport) {
  const check = (source, onlyTypes) => {
    if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
    const target = path.relative(context.cwd, path.resolve(path.dirname(context.filename), source.value)).split(path.sep).join('/');
    onImport({ source, target, typeOnly: onlyTypes });
  };
  return {
    ImportDeclaration: (node) => check(node.source, typeOnly(node)),
    ExportNamedDeclaration: (node) => check(node.source, typeOnly(node)),
    ExportAllDeclaration: (node) => check(node.source, node.exportKind === 'type'),
    ImportExpression: (node) => check(node.source, false),
  };
}
