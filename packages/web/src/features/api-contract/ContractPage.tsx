// The inferred contract of one app in one environment, browsed by tag and path: each
// operation's parameters, request body and responses per status with field presence and
// example shapes; its download as JSON or YAML, the reference viewer, and the versions.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { FileJson } from "lucide-react";
import { QueryCard } from "../../components/data/QueryView";
import { MethodBadge } from "../../components/data/parts";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { buttonClass } from "../../components/ui/Button";
import { Badge, EmptyState } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { useDataPainted } from "../../lib/page-state";
import {
  documentQuery,
  documentUrl,
  type InferredDocument,
  type Scope,
  versionsQuery,
  viewerUrl,
} from "./api";
import styles from "./Api.module.css";
import { type Schema, SchemaTree, typeText } from "./SchemaTree";
import { useScope } from "./ScopePicker";

const route = getRouteApi("/app/projects/$project/api/");

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly tag: string;
  readonly body: Schema;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** The document's operations grouped by their first tag, in the document's order. */
export function operationsByTag(document: InferredDocument): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, body] of Object.entries(item)) {
      if (!METHODS.includes(method) || body === null || typeof body !== "object") continue;
      const operation = body as Schema;
      const tag = Array.isArray(operation.tags) ? String(operation.tags[0] ?? "other") : "other";
      const list = groups.get(tag) ?? [];
      list.push({ method: method.toUpperCase(), path, tag, body: operation });
      groups.set(tag, list);
    }
  }
  return groups;
}

export function ContractPage() {
  const { project } = route.useParams();
  const search = route.useSearch();
  const { scope, pickers, loading } = useScope(project, search);
  const document = useQuery({
    ...documentQuery(project, scope ?? { app: "", environment: "" }),
    enabled: scope !== undefined,
  });
  useDataPainted(document.data !== undefined || (!loading && scope === undefined));

  return (
    <>
      <div className={styles.toolbar}>{pickers}</div>
      {scope === undefined ? (
        loading ? null : (
          <EmptyState icon={FileJson} title="No app or environment yet">
            The contract is inferred from an app&apos;s traffic in an environment. Send traffic first.
          </EmptyState>
        )
      ) : (
        <>
          <QueryCard
            title="Inferred contract"
            query={document}
            what="the inferred contract"
            rows={6}
            empty={{
              when: (data) => data === null,
              show: (
                <EmptyState icon={FileJson} title="No contract inferred yet">
                  Sightline infers the contract in the background from captured payloads. Once this app has
                  traffic in {scope.environment}, its operations appear here within a couple of minutes.
                </EmptyState>
              ),
            }}
          >
            {(data) =>
              data === null ? null : <ContractBrowser project={project} scope={scope} document={data} />
            }
          </QueryCard>
          <Versions project={project} scope={scope} />
        </>
      )}
    </>
  );
}

function ContractBrowser({
  project,
  scope,
  document,
}: {
  project: string;
  scope: Scope;
  document: InferredDocument;
}) {
  const groups = operationsByTag(document);
  return (
    <div className={styles.layout}>
      <div className={styles.toolbar}>
        <a
          className={buttonClass({ variant: "secondary" })}
          href={documentUrl(project, scope, "json")}
          download={`${scope.app}-${scope.environment}.openapi.json`}
        >
          Download JSON
        </a>
        <a
          className={buttonClass({ variant: "secondary" })}
          href={documentUrl(project, scope, "yaml")}
          download={`${scope.app}-${scope.environment}.openapi.yaml`}
        >
          Download YAML
        </a>
        <a
          className={buttonClass({ variant: "ghost" })}
          href={viewerUrl(project, scope)}
          target="_blank"
          rel="noreferrer"
        >
          Open in the reference viewer
        </a>
      </div>
      {[...groups.entries()].map(([tag, operations]) => (
        <section key={tag} className={styles.tag} aria-labelledby={`tag-${tag}`}>
          <h3 className={styles.tagTitle} id={`tag-${tag}`}>
            {tag}
          </h3>
          {operations.map((operation) => (
            <OperationView key={`${operation.method} ${operation.path}`} operation={operation} />
          ))}
        </section>
      ))}
    </div>
  );
}

function contentSchema(part: unknown): { type: string; schema: Schema | undefined }[] {
  const content = (part as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ?? {};
  return Object.entries(content).map(([type, media]) => ({ type, schema: media.schema }));
}

function OperationView({ operation }: { operation: Operation }) {
  const body = operation.body;
  const parameters = Array.isArray(body.parameters) ? (body.parameters as Schema[]) : [];
  const responses = (body.responses ?? {}) as Record<string, Schema>;
  const learning = body["x-sightline-learning"] === true;
  return (
    <details className={styles.operation} data-operation={`${operation.method} ${operation.path}`}>
      <summary>
        <MethodBadge method={operation.method} />
        <span className={styles.path}>{operation.path}</span>
        <span className={styles.sub}>{Object.keys(responses).join(" · ")}</span>
        {learning ? <Badge tone="info">learning</Badge> : null}
      </summary>
      <div className={styles.operationBody}>
        {parameters.length > 0 ? (
          <div>
            <h4 className={styles.partTitle}>Parameters</h4>
            <ul className={styles.schema} aria-label="Parameters">
              {parameters.map((param) => (
                <li key={`${String(param.in)} ${String(param.name)}`} className={styles.field}>
                  <span className={styles.fieldName}>{String(param.name)}</span>
                  <span className={styles.sub}>in {String(param.in)}</span>
                  <span className={styles.fieldType}>{typeText((param.schema ?? {}) as Schema)}</span>
                  <span className={styles.sub}>{param.required === true ? "required" : "optional"}</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {contentSchema(body.requestBody).map(({ type, schema }) => (
          <div key={type}>
            <h4 className={styles.partTitle}>
              Request body <span className={styles.sub}>{type}</span>
            </h4>
            {schema !== undefined ? <SchemaTree schema={schema} label={`Request body ${type}`} /> : null}
          </div>
        ))}
        {Object.entries(responses).map(([status, response]) => (
          <div key={status}>
            <h4 className={styles.partTitle}>
              Response {status}{" "}
              <span className={styles.sub}>
                {contentSchema(response)
                  .map((media) => media.type)
                  .join(", ")}
              </span>
            </h4>
            {contentSchema(response).map(({ type, schema }) =>
              schema !== undefined ? (
                <SchemaTree key={type} schema={schema} label={`Response ${status} ${type}`} />
              ) : null,
            )}
          </div>
        ))}
      </div>
    </details>
  );
}

function Versions({ project, scope }: { project: string; scope: Scope }) {
  const versions = useQuery(versionsQuery(project, scope));
  return (
    <Card title="Versions" labelledBy="versions-title">
      {versions.data === undefined || versions.data === null || versions.data.length === 0 ? (
        <p className={styles.sub}>{versions.isPending ? "Loading…" : "No version stored yet."}</p>
      ) : (
        <DataTable
          label="Contract versions"
          rows={versions.data}
          rowKey={(row) => row.id}
          columns={[
            { header: "Version", numeric: true, cell: (row) => row.version },
            { header: "Made", cell: (row) => <WhenCell iso={row.created_at} zone={undefined} never="" /> },
            { header: "Operations", numeric: true, cell: (row) => row.operations },
            { header: "Changes", numeric: true, cell: (row) => row.changes },
            {
              header: "Breaking",
              numeric: true,
              cell: (row) =>
                row.breaking_changes > 0 ? <Badge tone="danger">{row.breaking_changes}</Badge> : 0,
            },
          ]}
        />
      )}
    </Card>
  );
}
