// npm run bench:contract — the live API contract's fidelity and cost on the generated 32-operation
// test API (packages/server/test/support/contract-traffic.ts). Fidelity: trained on one day of
// traffic in one-minute passes (at most CONTRACT_SAMPLE_PER_OPERATION sampled calls per operation
// and pass, as the server samples), the share of a held-out day's bodies the inferred document
// accepts, and the share of malformed bodies it rejects (targets 99% and 95%). Cost: CPU time of
// inference per 1 M requests, every call sampled (the worst case) and at the default sampling,
// side by side with the floor of any inference, JSON.parse of the same payloads.
// Knobs: BENCH_CALLS (calls per day, 50000), BENCH_SAMPLE (100).
import { buildDocument } from "../packages/server/src/modules/contract/contract-document.js";
import { bodyChecker } from "../packages/server/src/modules/contract/contract-fidelity.js";
import { emptyState, operationsOf } from "../packages/server/src/modules/contract/contract-state.js";
import { trainState } from "../packages/server/src/modules/contract/contract-training.js";
import {
  type GeneratedCall,
  generateTraffic,
  malformed,
  requestFields,
  responseFields,
  seededRandom,
  testOperations,
} from "../packages/server/test/support/contract-traffic.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 50_000);
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 100);
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);
const say = (line = "") => process.stdout.write(`${line}\n`);
const pct = (value: number) => `${(value * 100).toFixed(2)}%`;

function train(calls: readonly GeneratedCall[], sample: number) {
  const state = emptyState();
  const started = process.cpuUsage();
  trainState(state, calls, { passMs: 60_000, samplePerOperation: sample, unusedAfterMs: 7 * DAY });
  const document = buildDocument(operationsOf(state), { app: "bench", environment: "production" });
  const used = process.cpuUsage(started);
  return { document, cpuMs: (used.user + used.system) / 1000 };
}

function parseFloor(calls: readonly GeneratedCall[]): number {
  const started = process.cpuUsage();
  let keys = 0;
  for (const call of calls) {
    if (call.requestPayload !== "") keys += Object.keys(JSON.parse(call.requestPayload) as object).length;
    keys += Object.keys(JSON.parse(call.responsePayload) as object).length;
  }
  const used = process.cpuUsage(started);
  if (keys < 0) say("unreachable");
  return (used.user + used.system) / 1000;
}

const ops = testOperations();
const day = generateTraffic(ops, CALLS, 1, START);
const heldOut = generateTraffic(ops, CALLS, 99, START + DAY);
say(
  `bench:contract — ${ops.length} operations, ${CALLS} calls per day, sample ${SAMPLE} per operation and pass`,
);

const sampled = train(day, SAMPLE);
const accepts = bodyChecker(sampled.document);
const random = seededRandom(7);
let checked = 0;
let valid = 0;
let broken = 0;
let rejected = 0;
for (const call of heldOut) {
  const parts: Array<["request" | number, unknown, ReturnType<typeof requestFields> | null]> = [
    [call.status, call.responseBody, call.status < 400 ? responseFields(call.operation) : null],
  ];
  if (call.requestBody !== undefined)
    parts.push(["request", call.requestBody, requestFields(call.operation)]);
  for (const [part, body, fields] of parts) {
    checked += 1;
    if (accepts({ method: call.method, route: call.route, part, body })) valid += 1;
    if (fields === null) continue;
    const bad = malformed(body, fields, random);
    if (bad === undefined) continue;
    broken += 1;
    if (!accepts({ method: call.method, route: call.route, part, body: bad })) rejected += 1;
  }
}
say();
say("fidelity (trained on day 1, checked on day 2)");
say(`  held-out bodies accepted   ${pct(valid / checked)} of ${checked}   (target >= 99%)`);
say(`  malformed bodies rejected  ${pct(rejected / broken)} of ${broken}   (target >= 95%)`);

const all = train(day, Number.MAX_SAFE_INTEGER);
// The same day's calls arriving within 5 minutes: 10,000 calls a minute, so the sample bound bites.
const burst = generateTraffic(ops, CALLS, 1, START, 5 * 60_000);
const bounded = train(burst, SAMPLE);
const floor = parseFloor(day);
const perMillion = (ms: number) => `${(((ms / CALLS) * 1_000_000) / 1000).toFixed(2)} s`;
say();
say("inference CPU per 1 M requests (one core)");
say(
  `  every call sampled         ${perMillion(all.cpuMs)}   (${(all.cpuMs / floor).toFixed(2)}x JSON.parse of the same payloads)`,
);
say(
  `  ${SAMPLE}/op/pass, ${Math.round(CALLS / 1440)} calls/min     ${perMillion(sampled.cpuMs)}   (every call under the bound)`,
);
say(
  `  ${SAMPLE}/op/pass, ${Math.round(CALLS / 5)} calls/min  ${perMillion(bounded.cpuMs)}   (the bound samples a share)`,
);
say(`  baseline: JSON.parse only  ${perMillion(floor)}`);
say();
say("Ingest is untouched: inference reads the stored rows in the background (no ingest cost).");
