// Names the JavaScript in a callgrind dump of Node and compares two dumps function by function:
// callgrind knows V8's builtins and Node's C++ by their symbols but JIT code only by address, and
// V8's --perf-basic-prof map says which function each address range held. Self instructions per
// request, largest first; given two dumps (bare and instrumented), what each function adds.
//
//   node --import tsx bench/callgrind-js.ts <dir>/<framework>-sdk [<dir>/<framework>-bare] [--top N] [--grep TEXT]
//
// Each argument is a prefix of the files `BENCH_CALLGRIND_KEEP` leaves (`.callgrind`,
// `.perf-map`, `.json` with the requests served). JavaScript frames read `JS <name> <file:line>`.
import { readFileSync } from "node:fs";

interface Profile {
  /** Self instructions per request, by function name. */
  self: Map<string, number>;
  requests: number;
}

interface Range {
  start: number;
  end: number;
  name: string;
}

function perfMap(path: string): Range[] {
  const ranges: Range[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
    if (match === null) continue;
    const start = Number.parseInt(match[1] as string, 16);
    ranges.push({ start, end: start + Number.parseInt(match[2] as string, 16), name: match[3] as string });
  }
  return ranges;
}

/** The newest map entry holding `address` (V8 reuses code space for later functions). */
function nameOf(ranges: Range[], address: number): string | undefined {
  for (let i = ranges.length - 1; i >= 0; i -= 1) {
    const range = ranges[i] as Range;
    if (address >= range.start && address < range.end) return shorten(range.name);
  }
  return undefined;
}

/** `JS:*observeNodeRequest file:///…/sdk-node/dist/esm/capture/node-http.js:116:35` →
 *  `JS* observeNodeRequest node-http.js:116`; the mark is V8's tier (~ interpreted, ^ baseline,
 *  + Maglev, * TurboFan). */
function shorten(name: string): string {
  const match = /^(\w+):([*~^+-]?)(\S*) (?:file:\/\/)?\S*?([^/\s]+?):(\d+)(?::\d+)?$/.exec(name);
  if (match === null) return name;
  const [, kind, tier, fn, file, line] = match;
  return `${kind}${tier} ${fn === "" ? "(anonymous)" : fn} ${file}:${line}`;
}

function load(prefix: string): Profile {
  const ranges = perfMap(`${prefix}.perf-map`);
  const { requests } = JSON.parse(readFileSync(`${prefix}.json`, "utf8")) as { requests: number };
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let current = "";
  let skipNext = false;
  const named = (ref: string): string => {
    const match = /^\((\d+)\)(?: (.*))?$/.exec(ref);
    if (match === null) return ref;
    if (match[2] !== undefined) names.set(match[1] as string, match[2]);
    return names.get(match[1] as string) ?? ref;
  };
  for (const line of readFileSync(`${prefix}.callgrind`, "utf8").split("\n")) {
    if (line.startsWith("fn=")) {
      // Callgrind's `'2` marks a recursive activation: the same function for this purpose.
      const raw = named(line.slice(3)).replace(/'\d+$/, "");
      current = /^0x[0-9a-f]+$/i.test(raw)
        ? (nameOf(ranges, Number.parseInt(raw, 16)) ?? "(JIT, unnamed)")
        : raw;
      continue;
    }
    if (line.startsWith("cfn=")) {
      named(line.slice(4));
      continue;
    }
    if (line.startsWith("calls=")) {
      skipNext = true; // the next cost line is the call's inclusive cost, not this function's own
      continue;
    }
    if (!/^[+\-*\d]/.test(line)) continue;
    if (skipNext) {
      skipNext = false;
      continue;
    }
    const cost = Number(line.split(" ")[1] ?? 0);
    if (cost > 0) self.set(current, (self.get(current) ?? 0) + cost);
  }
  for (const [name, cost] of self) self.set(name, cost / requests);
  return { self, requests };
}

const args = process.argv.slice(2);
const option = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const top = Number(option("--top") ?? 40);
const grep = option("--grep");
const [subjectPath, basePath] = args;
if (subjectPath === undefined)
  throw new Error("usage: callgrind-js.ts <prefix> [<bare prefix>] [--top N] [--grep TEXT]");
const subject = load(subjectPath);
const base = basePath === undefined ? undefined : load(basePath);
const total = (profile: Profile) => [...profile.self.values()].reduce((a, b) => a + b, 0);
const int = (n: number) => Math.round(n).toLocaleString("en-US");

process.stdout.write(
  `${subjectPath}: ${int(total(subject))} instructions per request over ${subject.requests} requests` +
    (base === undefined ? "" : `; ${basePath}: ${int(total(base))} (${base.requests})`) +
    "\n",
);
const rows = [...new Set([...subject.self.keys(), ...(base?.self.keys() ?? [])])]
  .filter((name) => grep === undefined || name.includes(grep))
  .map((name) => {
    const own = subject.self.get(name) ?? 0;
    const other = base?.self.get(name) ?? 0;
    return { name, own, other, added: own - other };
  })
  .sort(
    (a, b) => Math.abs(base === undefined ? b.own : b.added) - Math.abs(base === undefined ? a.own : a.added),
  )
  .slice(0, top);
for (const row of rows) {
  const cells = base === undefined ? [int(row.own)] : [int(row.own), int(row.other), int(row.added)];
  process.stdout.write(`${cells.map((c) => c.padStart(10)).join(" ")}  ${row.name}\n`);
}
