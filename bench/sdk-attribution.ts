// What the SDK's own code allocates and runs per request, read from V8's sampling heap profile
// and CPU profile of an app process (`npm run bench:sdk-profile`). Each allocation or CPU sample
// belongs to its nearest frame that is code of its own — not Node's internals, not a builtin, not
// the SDK's pass-through wraps of ServerResponse — and counts as the SDK's when that frame is in
// the SDK's build. So Express's router running inside the SDK's `next()` is Express's, while a
// listener the SDK adds (node:events) or a Buffer it makes (node:buffer) is the SDK's.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
}

/** Per-request figures of one profile: totals, the SDK's share, and the SDK's by function. */
export interface Attribution {
  /** Bytes allocated, or CPU samples, per request over the whole process. */
  total: number;
  /** The part owned by SDK frames. */
  sdk: number;
  /** Garbage collector samples (CPU profiles only). */
  gc: number;
  /** The SDK's share by owning function, largest first. */
  byFunction: [string, number][];
}

/** The ServerResponse wraps only pass calls through: what runs below them is Node's response work. */
const PASS_THROUGH = /^proto\.(end|write|writeHead)$/;

function isInternal(frame: CallFrame): boolean {
  return frame.url === "" || frame.url.startsWith("node:") || PASS_THROUGH.test(frame.functionName);
}

function label(frame: CallFrame): string {
  const file = frame.url.split("/").slice(-2).join("/");
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

function ranked(counts: Map<string, number>, requests: number): [string, number][] {
  return [...counts].map(([name, v]): [string, number] => [name, v / requests]).sort((a, b) => b[1] - a[1]);
}

/** Attributes a sampling heap profile's bytes (objects collected since included). */
export function attributeHeap(
  head: HeapNode,
  isSdk: (url: string) => boolean,
  requests: number,
): Attribution {
  let total = 0;
  let sdk = 0;
  const counts = new Map<string, number>();
  const walk = (node: HeapNode, owner: string | undefined): void => {
    const frame = node.callFrame;
    const own = isInternal(frame) ? owner : isSdk(frame.url) ? label(frame) : undefined;
    total += node.selfSize;
    if (own !== undefined && node.selfSize > 0) {
      sdk += node.selfSize;
      counts.set(own, (counts.get(own) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, own);
  };
  walk(head, undefined);
  return { total: total / requests, sdk: sdk / requests, gc: 0, byFunction: ranked(counts, requests) };
}

/** Attributes a CPU profile's samples (idle and "(program)" left out). */
export function attributeCpu(
  profile: CpuProfile,
  isSdk: (url: string) => boolean,
  requests: number,
): Attribution {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  let total = 0;
  let sdk = 0;
  let gc = 0;
  const counts = new Map<string, number>();
  for (const [id, count] of hits) {
    let node = byId.get(id);
    const name = node?.callFrame.functionName;
    if (name === "(idle)" || name === "(program)") continue;
    total += count;
    if (name === "(garbage collector)") {
      gc += count;
      continue;
    }
    while (node !== undefined && isInternal(node.callFrame) && node.callFrame.functionName !== "(root)") {
      const up = parent.get(node.id);
      node = up === undefined ? undefined : byId.get(up);
    }
    if (node === undefined || !isSdk(node.callFrame.url)) continue;
    sdk += count;
    const own = label(node.callFrame);
    counts.set(own, (counts.get(own) ?? 0) + count);
  }
  return {
    total: total / requests,
    sdk: sdk / requests,
    gc: gc / requests,
    byFunction: ranked(counts, requests),
  };
}
