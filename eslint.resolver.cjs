// Import resolver for the boundary lint (eslint-plugin-boundaries): our sources import each
// other as `./x.js` (NodeNext) while the files are `x.ts`, and the dashboard as `./x` (bundler
// resolution) for `x.ts` or `x.tsx`. Resolving that ourselves keeps the
// lint free of native resolver bindings. Package imports are left unresolved: the boundary
// rules are about our own folders only.
const { existsSync } = require("node:fs");
const path = require("node:path");

exports.interfaceVersion = 2;

exports.resolve = (source, file) => {
  if (!source.startsWith(".")) return { found: false };
  const target = path.resolve(path.dirname(file), source);
  const candidates = [
    target.replace(/\.js$/, ".ts"),
    target,
    `${target}.ts`,
    `${target}.tsx`,
    path.join(target, "index.ts"),
  ];
  const found = candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith(path.sep));
  return found === undefined ? { found: false } : { found: true, path: found };
};
