// Declared vs observed for one app in one environment: the declared OpenAPI document (admins
// upload, replace or delete it), then undocumented operations (shadow), unused ones (zombie),
// conformance per operation with its worst failing places (JSON pointer and keyword, no values)
// and the inferred contract's differences from the declaration, classified, with their consumers.
import type { ContractReport, DeclaredDiff, DeclaredDocument } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { FileCheck2, Upload } from "lucide-react";
import { useRef } from "react";
import { WhenCell } from "../../components/data/cells";
import { type Column, DataTable } from "../../components/data/DataTable";
import { formatBytes, formatCount, MethodBadge } from "../../components/data/parts";
import { QueryCard, QueryView } from "../../components/data/QueryView";
import { Button } from "../../components/ui/Button";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { Badge, EmptyState, FailureNotice, Notice } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { useDataPainted } from "../../lib/page-state";
import {
  contractApi,
  contractKeys,
  declaredDiffQuery,
  declaredQuery,
  documentMediaType,
  reportQuery,
  type Scope,
} from "./api";
import styles from "./Api.module.css";
import { ClassBadge, consumersText } from "./ChangesPage";
import { useScope } from "./ScopePicker";

const route = getRouteApi("/app/projects/$project/api/report");

/** An operation of the contract, as every table of the report names and keys it. */
interface Operation {
  readonly method: string;
  readonly path: string;
}
const operationKey = (row: Operation) => `${row.method} ${row.path}`;
const operationColumn: Column<Operation> = {
  header: "Operation",
  cell: (row) => (
    <>
      <MethodBadge method={row.method} /> <span className={styles.path}>{row.path}</span>
    </>
  ),
};

export function ReportPage() {
  const { project } = route.useParams();
  const search = route.useSearch();
  const { scope, pickers, loading } = useScope(project, search);
  const canWrite = useProjectAccess(project).can("contract:write");
  const declared = useQuery({ ...declaredQuery(project, scope?.app ?? ""), enabled: scope !== undefined });
  useDataPainted(declared.data !== undefined || (!loading && scope === undefined));
  return (
    <>
      <div className={styles.toolbar}>{pickers}</div>
      {scope === undefined ? null : (
        <>
          <DeclaredCard project={project} app={scope.app} canWrite={canWrite} declared={declared.data} />
          {declared.data === null || declared.data === undefined ? null : (
            <Report project={project} scope={scope} />
          )}
        </>
      )}
    </>
  );
}

function DeclaredCard({
  project,
  app,
  canWrite,
  declared,
}: {
  project: string;
  app: string;
  canWrite: boolean;
  declared: DeclaredDocument | null | undefined;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: contractKeys.all(project) });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const text = await file.text();
      return contractApi.uploadDeclared(project, app, text, documentMediaType(file.name, text));
    },
    onSuccess: (document) => {
      toast(`Declared document “${document.title}” saved`);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => contractApi.deleteDeclared(project, app),
    onSuccess: () => {
      confirmRemove.hide();
      toast("Declared document deleted");
      refresh();
    },
  });
  const confirmRemove = useConfirmation(remove);
  const picker = (
    <>
      <input
        ref={input}
        type="file"
        accept=".json,.yaml,.yml,application/json,application/yaml"
        hidden
        aria-label="Declared OpenAPI document"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file !== undefined) upload.mutate(file);
        }}
      />
      <Button
        variant={declared ? "secondary" : "primary"}
        onClick={() => input.current?.click()}
        disabled={upload.isPending}
      >
        <Upload size={16} aria-hidden="true" />
        {declared ? "Replace document" : "Upload document"}
      </Button>
    </>
  );
  return (
    <Card
      title="Declared document"
      labelledBy="declared-title"
      description="The OpenAPI 3.0 or 3.1 document your team maintains for this app (JSON or YAML, up to 1 MiB)."
      actions={canWrite ? picker : undefined}
    >
      <FailureNotice error={upload.error} />
      {declared === undefined ? (
        <p className={styles.sub}>Loading…</p>
      ) : declared === null ? (
        <EmptyState icon={FileCheck2} title="No declared document">
          {canWrite
            ? "Upload the app's OpenAPI document to see shadow and zombie operations and how traffic conforms to it."
            : "Admins of the project can upload the app's OpenAPI document."}
        </EmptyState>
      ) : (
        <>
          <dl className={styles.facts}>
            <dt>Title</dt>
            <dd>{declared.title}</dd>
            <dt>OpenAPI</dt>
            <dd>{declared.openapi}</dd>
            <dt>Operations</dt>
            <dd>{declared.operations}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(declared.size_bytes)}</dd>
            <dt>Uploaded</dt>
            <dd>
              <WhenCell iso={declared.uploaded_at} zone={undefined} />
            </dd>
          </dl>
          {canWrite ? (
            <div className={styles.toolbar}>
              <Button variant="dangerOutline" onClick={confirmRemove.show}>
                Delete document
              </Button>
            </div>
          ) : null}
        </>
      )}
      <ConfirmDialog
        {...confirmRemove.dialog}
        title="Delete the declared document?"
        consequences={["The declared-vs-observed report is no longer computed for this app."]}
        confirmLabel="Delete document"
      />
    </Card>
  );
}

function Report({ project, scope }: { project: string; scope: Scope }) {
  const report = useQuery(reportQuery(project, scope));
  const differences = useQuery(declaredDiffQuery(project, scope));
  return (
    <>
      <Card
        title="Differences from the declared document"
        labelledBy="differences-title"
        description="The inferred contract read against the declaration by the change rules: what traffic does that the document does not say, and what it promises that traffic does not keep."
      >
        <QueryView query={differences} what="the differences" rows={3}>
          {(data) => <Differences data={data} />}
        </QueryView>
      </Card>
      <QueryCard title="Undocumented operations" query={report} what="the report" rows={3}>
        {(data) => <OperationList data={data} list="undocumented" />}
      </QueryCard>
      <Card title="Unused operations" labelledBy="unused-title">
        <QueryView query={report} what="the report" rows={3}>
          {(data) => <OperationList data={data} list="unused" />}
        </QueryView>
      </Card>
      <Card
        title="Conformance"
        labelledBy="conformance-title"
        description="Sampled requests and responses that the declared schemas reject, with the places that fail most."
      >
        <QueryView query={report} what="the report" rows={3}>
          {(data) =>
            data === null || data.conformance.length === 0 ? (
              <p className={styles.sub}>No sampled payloads to check yet.</p>
            ) : (
              <DataTable
                label="Conformance per operation"
                rows={data.conformance}
                rowKey={operationKey}
                columns={[
                  operationColumn,
                  {
                    header: "Requests failing",
                    numeric: true,
                    cell: (row) =>
                      `${formatCount(row.failing_requests)} / ${formatCount(row.sampled_requests)}`,
                  },
                  {
                    header: "Responses failing",
                    numeric: true,
                    cell: (row) =>
                      `${formatCount(row.failing_responses)} / ${formatCount(row.sampled_responses)}`,
                  },
                  {
                    header: "Worst fields",
                    cell: (row) =>
                      row.failures.length === 0 ? (
                        <Badge tone="success">conforms</Badge>
                      ) : (
                        <ul className={styles.schema}>
                          {row.failures.map((failure) => (
                            <li key={`${failure.part} ${failure.pointer} ${failure.keyword}`}>
                              {failure.part} <code>{failure.pointer || "/"}</code> {failure.keyword} ×
                              {failure.count}
                            </li>
                          ))}
                        </ul>
                      ),
                  },
                ]}
              />
            )
          }
        </QueryView>
      </Card>
    </>
  );
}

function Differences({ data }: { data: DeclaredDiff | null }) {
  if (data === null) return <p className={styles.sub}>No inferred contract to compare yet.</p>;
  if (data.total === 0) {
    return (
      <p className={styles.sub}>
        <Badge tone="success">conforms</Badge> Version {data.version} of the inferred contract keeps to the
        declared document.
      </p>
    );
  }
  return (
    <>
      <p className={styles.sub}>
        {formatCount(data.breaking)} breaking of {formatCount(data.total)} difference
        {data.total === 1 ? "" : "s"} in version {data.version}
        {data.total > data.differences.length ? `, the first ${data.differences.length} shown` : ""};
        consumers over the last {data.window_days} days.
      </p>
      <DataTable
        label="Differences from the declared document"
        rows={data.differences}
        rowKey={(row) => `${row.kind} ${row.method} ${row.path} ${row.status ?? ""} ${row.field ?? ""}`}
        columns={[
          { header: "Class", cell: (row) => <ClassBadge breaking={row.breaking} /> },
          {
            header: "Difference",
            cell: (row) => (
              <>
                <MethodBadge method={row.method} /> <span className={styles.path}>{row.path}</span>
                <span className={styles.sub} style={{ display: "block" }}>
                  {row.detail} <code>{row.kind}</code>
                </span>
              </>
            ),
          },
          { header: "Consumers affected", cell: consumersText },
        ]}
      />
    </>
  );
}

function OperationList({ data, list }: { data: ContractReport | null; list: "undocumented" | "unused" }) {
  if (data === null) return <Notice tone="info">No report yet.</Notice>;
  const rows = data[list];
  if (rows.length === 0) {
    return (
      <p className={styles.sub}>
        {list === "undocumented"
          ? "Every operation seen in traffic is declared."
          : `Every declared operation was called in the last ${data.window_days} days.`}
      </p>
    );
  }
  return (
    <DataTable
      label={list === "undocumented" ? "Undocumented operations" : "Unused operations"}
      rows={rows}
      rowKey={operationKey}
      columns={[
        operationColumn,
        {
          header: `Calls (${data.window_days} days)`,
          numeric: true,
          cell: (row) => formatCount(row.requests),
        },
      ]}
    />
  );
}
