// One inference pass over every live app: per project, the traffic since its cursor is counted
// and sampled (stores/events/queries/contract/), folded into each app and environment's state,
// and when the derived document's shape changed a version is stored with its classified changes and the
// consumers each affects. Runs on one instance at a time (contract.scheduler.ts).
import type { Insertable } from "kysely";
import type { Logger } from "pino";
import { toIsoTimestamp } from "../../clock.js";
import { newId } from "../../lib/ids.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import type { ApiContractsRepo, LiveApp } from "../../stores/metadata/repos/api-contracts.repo.js";
import type { ApiContractChangesTable } from "../../stores/metadata/schema.js";
import { buildDocument, contractFingerprint, type OpenApiDocument } from "./contract-document.js";
import { consumerScopeOf, consumersOf } from "./change-consumers.js";
import { type ContractChange, diffDocuments } from "./contract-diff.js";
import { advanceState, type ContractState, emptyState, operationsOf } from "./contract-state.js";
import {
  countCalls,
  type GroupCall,
  type GroupCount,
  sampleCalls,
} from "../../stores/events/queries/contract/contract.js";

const DAY_MS = 86_400_000;

export interface ContractJobOptions {
  /** Sampled calls per operation and pass. */
  readonly samplePerOperation: number;
  /** Operations, fields, statuses and enum values unseen this long leave the contract; also the
   *  look-back of the affected consumers. */
  readonly unusedDays: number;
  /** How long after a call's time it may still be on its way to the store. */
  readonly latenessMs: number;
  /** How far back the first pass of a project reads. */
  readonly initialLookbackMs: number;
}

/** A version a pass stored, with its changes (alerting reads these). */
export interface NewVersion {
  readonly app: LiveApp;
  readonly environment: string;
  readonly version: number;
  readonly versionId: string;
  readonly changes: readonly StoredChange[];
}

export interface StoredChange extends ContractChange {
  readonly id: string;
  readonly consumersTotal: number;
  readonly consumers: ReadonlyArray<{ consumer_id: string; consumer_name: string; requests: number }>;
}

export interface ContractPassSummary {
  readonly projects: number;
  readonly groups: number;
  readonly versions: readonly NewVersion[];
}

export interface ContractJob {
  run(now: Date): Promise<ContractPassSummary>;
}

export function createContractJob(deps: {
  repo: ApiContractsRepo;
  events: EventsExecutor;
  logger: Logger;
  options: ContractJobOptions;
}): ContractJob {
  const { repo, events, logger, options } = deps;

  async function runProject(
    apps: readonly LiveApp[],
    untilMs: number,
    versions: NewVersion[],
  ): Promise<number> {
    const projectId = (apps[0] as LiveApp).project_id;
    const cursor = await repo.readCursor(projectId);
    const startMs = cursor === undefined ? untilMs - options.initialLookbackMs : Date.parse(cursor);
    if (startMs >= untilMs) return 0;
    const window = { projectId, startMs, endMs: untilMs };
    const [counts, calls] = await Promise.all([
      countCalls(events, window),
      sampleCalls(events, window, options.samplePerOperation),
    ]);
    const byId = new Map(apps.map((app) => [app.id, app]));
    const groups = new Map<string, { app: LiveApp; environment: string }>();
    for (const count of counts) {
      const app = byId.get(count.appId);
      if (app !== undefined)
        groups.set(`${count.appId}\n${count.environment}`, { app, environment: count.environment });
    }
    for (const { app, environment } of groups.values()) {
      const version = await runGroup(app, environment, window, counts, calls);
      if (version !== null) versions.push(version);
    }
    await repo.writeCursor(projectId, toIsoTimestamp(new Date(untilMs)));
    return groups.size;
  }

  async function runGroup(
    app: LiveApp,
    environment: string,
    window: { projectId: string; startMs: number; endMs: number },
    projectCounts: readonly GroupCount[],
    projectCalls: readonly GroupCall[],
  ): Promise<NewVersion | null> {
    const row = await repo.findState(app.id, environment);
    let counts = projectCounts;
    let calls = projectCalls;
    const readUntil = row === undefined ? Number.NEGATIVE_INFINITY : Date.parse(row.read_until);
    if (readUntil >= window.endMs) return null;
    if (readUntil > window.startMs) {
      // An earlier pass stored this group and then failed on another: read only what it has not.
      const rest = { ...window, startMs: readUntil };
      [counts, calls] = await Promise.all([
        countCalls(events, rest),
        sampleCalls(events, rest, options.samplePerOperation),
      ]);
    }
    const mine = <T extends { appId: string; environment: string }>(list: readonly T[]) =>
      list.filter((item) => item.appId === app.id && item.environment === environment);
    const state: ContractState = row === undefined ? emptyState() : (JSON.parse(row.state) as ContractState);
    advanceState(state, {
      counts: mine(counts),
      calls: mine(calls),
      now: window.endMs,
      expireBefore: window.endMs - options.unusedDays * DAY_MS,
    });
    const operations = operationsOf(state);
    const nowIso = toIsoTimestamp(new Date(window.endMs));
    const latest = row?.latest_version ?? 0;
    const previous = latest > 0 ? await repo.findVersion(app.id, environment, latest) : undefined;
    const fingerprint = contractFingerprint(operations);
    const changed = operations.length > 0 && previous?.fingerprint !== fingerprint;
    let outcome: NewVersion | null = null;
    let versionRow = null;
    let changeRows: Insertable<ApiContractChangesTable>[] = [];
    if (changed) {
      const document = buildDocument(operations, { app: app.name, environment });
      // The first version lists no changes: everything in it is simply what was seen first.
      const changes =
        previous === undefined
          ? []
          : diffDocuments(JSON.parse(previous.document) as OpenApiDocument, document);
      const versionId = newId();
      const stored = await withConsumers(app, environment, changes, window.endMs);
      changeRows = stored.map(({ change, consumers }) => ({
        id: change.id,
        project_id: app.project_id,
        version_id: versionId,
        app_id: app.id,
        environment,
        version: latest + 1,
        kind: change.kind,
        breaking: change.breaking ? 1 : 0,
        method: change.method,
        path: change.path,
        location: change.location,
        status: change.status,
        field: change.field,
        detail: change.detail,
        consumers: JSON.stringify(consumers),
        consumers_total: change.consumersTotal,
        window_days: options.unusedDays,
        created_at: nowIso,
      }));
      versionRow = {
        id: versionId,
        project_id: app.project_id,
        app_id: app.id,
        environment,
        version: latest + 1,
        fingerprint,
        document: JSON.stringify(document),
        operations: operations.length,
        changes: changes.length,
        breaking_changes: changes.filter((change) => change.breaking).length,
        created_at: nowIso,
      };
      outcome = {
        app,
        environment,
        version: latest + 1,
        versionId,
        changes: stored.map(({ change }) => change),
      };
    }
    await repo.savePass(
      {
        id: row?.id ?? newId(),
        project_id: app.project_id,
        app_id: app.id,
        environment,
        state: JSON.stringify(state),
        read_until: nowIso,
        latest_version: changed ? latest + 1 : latest,
        updated_at: nowIso,
      },
      versionRow,
      changeRows,
    );
    return outcome;
  }

  async function withConsumers(
    app: LiveApp,
    environment: string,
    changes: readonly ContractChange[],
    untilMs: number,
  ) {
    const stored = [];
    const window = { sinceMs: untilMs - options.unusedDays * DAY_MS, untilMs };
    for (const change of changes) {
      const { consumers, total } = await consumersOf(
        events,
        consumerScopeOf(app, environment, change, window),
      );
      stored.push({
        change: { ...change, id: newId(), consumersTotal: total, consumers },
        consumers,
      });
    }
    return stored;
  }

  return {
    async run(now) {
      const untilMs = now.getTime() - options.latenessMs;
      const apps = await repo.liveApps();
      const byProject = new Map<string, LiveApp[]>();
      for (const app of apps) byProject.set(app.project_id, [...(byProject.get(app.project_id) ?? []), app]);
      const versions: NewVersion[] = [];
      let groups = 0;
      for (const projectApps of byProject.values()) {
        try {
          groups += await runProject(projectApps, untilMs, versions);
        } catch (error) {
          // The project's cursor stays: its window is read again at the next pass.
          logger.error(
            { err: error, project: projectApps[0]?.project_id },
            "contract inference failed for a project",
          );
        }
      }
      return { projects: byProject.size, groups, versions };
    },
  };
}
