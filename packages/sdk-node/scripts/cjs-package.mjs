// Marks dist/cjs as CommonJS: the package itself is "type": "module", so without this Node
// would read the compiled require() files as ES modules.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const target = fileURLToPath(import.meta.resolve("../dist/cjs/package.json"));
writeFileSync(target, `${JSON.stringify({ type: "commonjs" })}\n`);
