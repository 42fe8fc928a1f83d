// What the contract routes call: an app's inferred document per environment (latest or a stored
// version), its versions, the diff between two, the project's change log with affected
// consumers, the declared document (upload, read, delete), the declared-vs-observed report and
// the classified differences of an inferred version from the declared document.
import {
  CONTRACT_LIMITS,
  type ContractChange,
  type ContractChangesQuery,
  type ContractDiffQuery,
  type ContractDocumentQuery,
  type ContractReport,
  type ContractReportQuery,
  type ContractScopeQuery,
  type ContractVersion,
  type DeclaredDiff,
  type DeclaredDiffQuery,
  type DeclaredDocument,
} from "@sightline/contracts";
import { stringify as stringifyYaml } from "yaml";
import type { Clock } from "../../clock.js";
import { toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import type {
  ApiContractChangeRow,
  ApiContractsRepo,
} from "../../stores/metadata/repos/api-contracts.repo.js";
import { assertCan, type ProjectScope } from "../access/index.js";
import type { AppsService } from "../apps/index.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import type { OpenApiDocument } from "./contract-document.js";
import { consumerScopeOf, consumersOf } from "./change-consumers.js";
import {
  type ContractChange as DiffChange,
  diffDeclared,
  diffDocuments,
  pathShape,
} from "./contract-diff.js";
import { countOperations, sampleCalls } from "../../stores/events/queries/contract/contract.js";
import { declaredOperations, readDeclaredDocument } from "./declared-document.js";
import {
  createDocumentValidator,
  type DocumentValidator,
  firstFailure,
  pointerTo,
} from "./schema-validator.js";

const DAY_MS = 86_400_000;
/** Calls per operation a conformance report validates, from the last CONFORMANCE_WINDOW_MS. */
export const CONFORMANCE_SAMPLE = 200;
export const CONFORMANCE_WINDOW_MS = DAY_MS;
/** Failing places listed per operation. */
const FAILURES_LISTED = 10;

export interface ContractServiceDeps {
  readonly repo: ApiContractsRepo;
  readonly apps: AppsService;
  readonly events: EventsExecutor;
  readonly clock: Clock;
  readonly unusedDays: number;
}

export type ContractDocumentAnswer =
  | { readonly format: "json"; readonly document: OpenApiDocument }
  | { readonly format: "yaml"; readonly text: string };

export function createContractService(deps: ContractServiceDeps) {
  const { repo, apps, events, clock } = deps;
  const validators = new Map<string, { key: string; validator: DocumentValidator }>();

  async function appOf({ project }: ProjectScope, slug: string): Promise<{ id: string; slug: string }> {
    const ref = (await apps.listLiveRefs(project.id)).find((candidate) => candidate.slug === slug);
    if (ref === undefined) throw new AppError("not_found", `No app "${slug}" in project "${project.slug}".`);
    return ref;
  }

  async function versionOf(scope: ProjectScope, query: ContractScopeQuery, version: number | undefined) {
    const app = await appOf(scope, query.app);
    const environment = normaliseEnvironmentName(query.environment);
    const number = version ?? (await repo.findState(app.id, environment))?.latest_version ?? 0;
    const row = number > 0 ? await repo.findVersion(app.id, environment, number) : undefined;
    if (row === undefined) {
      throw new AppError(
        "not_found",
        version === undefined
          ? `No contract inferred yet for app "${app.slug}" in "${environment}".`
          : `No version ${version} of the contract of app "${app.slug}" in "${environment}".`,
      );
    }
    return { app, environment, row };
  }

  function changeOf(row: ApiContractChangeRow, appSlug: string): ContractChange {
    return {
      id: row.id,
      app: appSlug,
      environment: row.environment,
      version: row.version,
      created_at: row.created_at,
      kind: row.kind as ContractChange["kind"],
      breaking: row.breaking === 1,
      method: row.method,
      path: row.path,
      location: row.location as ContractChange["location"],
      status: row.status,
      field: row.field,
      detail: row.detail,
      consumers: JSON.parse(row.consumers) as ContractChange["consumers"],
      consumers_total: row.consumers_total,
      window_days: row.window_days,
    };
  }

  async function slugsOf(projectId: string): Promise<Map<string, string>> {
    return new Map((await apps.listLiveRefs(projectId)).map((ref) => [ref.id, ref.slug]));
  }

  return {
    async document(scope: ProjectScope, query: ContractDocumentQuery): Promise<ContractDocumentAnswer> {
      const { row } = await versionOf(scope, query, query.version);
      const document = JSON.parse(row.document) as OpenApiDocument;
      return query.format === "yaml"
        ? { format: "yaml", text: stringifyYaml(document) }
        : { format: "json", document };
    },

    async versions(scope: ProjectScope, query: ContractScopeQuery): Promise<ContractVersion[]> {
      const app = await appOf(scope, query.app);
      const environment = normaliseEnvironmentName(query.environment);
      return (await repo.listVersions(app.id, environment)).map((row) => ({
        id: row.id,
        app: app.slug,
        environment,
        version: row.version,
        created_at: row.created_at,
        operations: row.operations,
        changes: row.changes,
        breaking_changes: row.breaking_changes,
      }));
    },

    async diff(
      scope: ProjectScope,
      query: ContractDiffQuery,
    ): Promise<{ from: number; to: number; changes: DiffChange[] }> {
      const to = await versionOf(scope, query, query.to);
      const from = await versionOf(scope, query, query.from);
      return {
        from: from.row.version,
        to: to.row.version,
        changes: diffDocuments(
          JSON.parse(from.row.document) as OpenApiDocument,
          JSON.parse(to.row.document) as OpenApiDocument,
        ),
      };
    },

    async changes(
      scope: ProjectScope,
      query: ContractChangesQuery,
    ): Promise<{ data: ContractChange[]; total: number }> {
      const app = query.app === undefined ? undefined : await appOf(scope, query.app);
      const slugs = await slugsOf(scope.project.id);
      const page = await repo.pageChanges(
        {
          projectId: scope.project.id,
          ...(app === undefined ? {} : { appId: app.id }),
          ...(query.environment === undefined
            ? {}
            : { environment: normaliseEnvironmentName(query.environment) }),
          ...(query.breaking === undefined ? {} : { breaking: query.breaking }),
        },
        { limit: query.limit ?? 50, offset: query.offset ?? 0 },
      );
      return { data: page.rows.map((row) => changeOf(row, slugs.get(row.app_id) ?? "")), total: page.total };
    },

    async change(scope: ProjectScope, id: string): Promise<ContractChange> {
      const row = await repo.findChange(scope.project.id, id);
      if (row === undefined) throw new AppError("not_found", "No such contract change in this project.");
      return changeOf(row, (await slugsOf(scope.project.id)).get(row.app_id) ?? "");
    },

    async putDeclared(scope: ProjectScope, appSlug: string, text: string): Promise<DeclaredDocument> {
      assertCan(scope, "contract:write", "upload the declared API document");
      const app = await appOf(scope, appSlug);
      const input = await readDeclaredDocument(text);
      const row = {
        app_id: app.id,
        project_id: scope.project.id,
        document: JSON.stringify(input.document),
        openapi: input.openapi,
        title: input.title,
        operations: input.operations,
        size_bytes: input.sizeBytes,
        uploaded_at: toIsoTimestamp(clock.now()),
      };
      await repo.saveDeclared(row);
      return {
        app: app.slug,
        openapi: row.openapi,
        title: row.title,
        operations: row.operations,
        size_bytes: row.size_bytes,
        uploaded_at: row.uploaded_at,
        document: input.document,
      };
    },

    async getDeclared(scope: ProjectScope, appSlug: string): Promise<DeclaredDocument> {
      const app = await appOf(scope, appSlug);
      const row = await repo.findDeclared(app.id);
      if (row === undefined) throw new AppError("not_found", `App "${app.slug}" has no declared document.`);
      return {
        app: app.slug,
        openapi: row.openapi,
        title: row.title,
        operations: row.operations,
        size_bytes: row.size_bytes,
        uploaded_at: row.uploaded_at,
        document: JSON.parse(row.document) as OpenApiDocument,
      };
    },

    async deleteDeclared(scope: ProjectScope, appSlug: string): Promise<void> {
      assertCan(scope, "contract:write", "delete the declared API document");
      const app = await appOf(scope, appSlug);
      if (!(await repo.deleteDeclared(app.id))) {
        throw new AppError("not_found", `App "${app.slug}" has no declared document.`);
      }
    },

    /** How an inferred version (the latest by default) departs from the declared document, each
     *  difference classified by the rule table with the consumers it affects. */
    async declaredDiff(scope: ProjectScope, query: DeclaredDiffQuery): Promise<DeclaredDiff> {
      const { app, environment, row } = await versionOf(scope, query, query.version);
      const declared = await repo.findDeclared(app.id);
      if (declared === undefined)
        throw new AppError("not_found", `App "${app.slug}" has no declared document.`);
      const differences = diffDeclared(
        JSON.parse(declared.document) as OpenApiDocument,
        JSON.parse(row.document) as OpenApiDocument,
      );
      // Breaking first, the rest in document order (sort is stable).
      const ordered = [...differences].sort((a, b) => Number(b.breaking) - Number(a.breaking));
      const untilMs = clock.now().getTime();
      const window = { sinceMs: untilMs - deps.unusedDays * DAY_MS, untilMs, declared: true };
      const target = { id: app.id, project_id: scope.project.id };
      const listed = [];
      for (const difference of ordered.slice(0, CONTRACT_LIMITS.pageSize)) {
        const { consumers, total } = await consumersOf(
          events,
          consumerScopeOf(target, environment, difference, window),
        );
        listed.push({ ...difference, consumers, consumers_total: total });
      }
      return {
        app: app.slug,
        environment,
        version: row.version,
        declared_uploaded_at: declared.uploaded_at,
        window_days: deps.unusedDays,
        total: differences.length,
        breaking: differences.filter((difference) => difference.breaking).length,
        differences: listed,
      };
    },

    async report(scope: ProjectScope, query: ContractReportQuery): Promise<ContractReport> {
      const app = await appOf(scope, query.app);
      const environment = normaliseEnvironmentName(query.environment);
      const row = await repo.findDeclared(app.id);
      if (row === undefined) throw new AppError("not_found", `App "${app.slug}" has no declared document.`);
      const declared = JSON.parse(row.document) as OpenApiDocument;
      const days = query.days ?? deps.unusedDays;
      const untilMs = clock.now().getTime();
      const window = { projectId: scope.project.id, startMs: untilMs - days * DAY_MS, endMs: untilMs };
      const group = { appId: app.id, environment };
      // Conformance samples the last day only: payloads are the heavy columns to read.
      const recent = { ...window, startMs: Math.max(window.startMs, untilMs - CONFORMANCE_WINDOW_MS) };
      const [observed, calls] = await Promise.all([
        countOperations(events, window, group),
        sampleCalls(events, recent, CONFORMANCE_SAMPLE, group),
      ]);
      const declaredOps = new Map(
        declaredOperations(declared).map((op) => [`${op.method} ${pathShape(op.path)}`, op]),
      );
      const observedKeys = new Set(observed.map((op) => `${op.method} ${pathShape(op.route)}`));
      const cached = validators.get(app.id);
      const validator =
        cached?.key === row.uploaded_at ? cached.validator : createDocumentValidator(declared);
      validators.set(app.id, { key: row.uploaded_at, validator });

      const conformance: ContractReport["conformance"] = [];
      for (const op of observed) {
        const match = declaredOps.get(`${op.method} ${pathShape(op.route)}`);
        if (match === undefined) continue;
        const method = op.method.toLowerCase();
        const operation = declared.paths[match.path]?.[method];
        const figures = {
          sampled_requests: 0,
          failing_requests: 0,
          sampled_responses: 0,
          failing_responses: 0,
        };
        const failures = new Map<string, { part: string; pointer: string; keyword: string; count: number }>();
        const note = (part: string, pointer: string, keyword: string) => {
          const key = `${part} ${pointer} ${keyword}`;
          const entry = failures.get(key) ?? { part, pointer, keyword, count: 0 };
          entry.count += 1;
          failures.set(key, entry);
        };
        for (const call of calls) {
          if (call.method !== op.method || call.route !== op.route) continue;
          const request = jsonBody(call.requestPayload);
          const requestSchema = operation?.requestBody?.content?.["application/json"]?.schema;
          if (request !== undefined && requestSchema !== undefined) {
            const validate = validator.at(
              pointerTo("paths", match.path, method, "requestBody", "content", "application/json", "schema"),
            );
            if (validate !== undefined) {
              figures.sampled_requests += 1;
              if (validate(request) !== true) {
                figures.failing_requests += 1;
                const failure = firstFailure(validate.errors);
                note("request", failure.pointer, failure.keyword);
              }
            }
          }
          const response = jsonBody(call.responsePayload);
          const status = responseKey(operation?.responses ?? {}, call.status);
          if (response !== undefined && status !== undefined) {
            const validate = validator.at(
              pointerTo(
                "paths",
                match.path,
                method,
                "responses",
                status,
                "content",
                "application/json",
                "schema",
              ),
            );
            if (validate !== undefined) {
              figures.sampled_responses += 1;
              if (validate(response) !== true) {
                figures.failing_responses += 1;
                const failure = firstFailure(validate.errors);
                note(String(call.status), failure.pointer, failure.keyword);
              }
            }
          }
        }
        conformance.push({
          method: op.method,
          path: match.path,
          ...figures,
          failures: [...failures.values()].sort((a, b) => b.count - a.count).slice(0, FAILURES_LISTED),
        });
      }
      return {
        app: app.slug,
        environment,
        window_days: days,
        undocumented: observed
          .filter((op) => !declaredOps.has(`${op.method} ${pathShape(op.route)}`))
          .map((op) => ({ method: op.method, path: op.route, requests: op.requests })),
        unused: [...declaredOps.entries()]
          .filter(([key]) => !observedKeys.has(key))
          .map(([, op]) => ({ method: op.method, path: op.path, requests: 0 })),
        conformance,
      };
    },
  };
}

export type ContractService = ReturnType<typeof createContractService>;

function jsonBody(payload: string): unknown {
  const first = payload.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

/** The declared response a status falls under: itself, its class (`4XX`), or `default`. */
function responseKey(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status);
  if (exact in responses) return exact;
  const range = `${exact[0]}XX`;
  if (range in responses) return range;
  if (`${exact[0]}xx` in responses) return `${exact[0]}xx`;
  return "default" in responses ? "default" : undefined;
}
